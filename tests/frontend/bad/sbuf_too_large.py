# expect: kernel_error: bytes per partition; a partition holds
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.ndarray((128, 100000), dtype=nl.float32, buffer=nl.sbuf)  # ERROR
    return a
