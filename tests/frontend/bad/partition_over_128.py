# expect: kernel_error: partition dimension 256
# args: a=256x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.ndarray((256, 512), dtype=nl.float32, buffer=nl.sbuf)  # ERROR
    return t
