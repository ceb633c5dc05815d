# expect: kernel_error: reads tile 't' before anything was written
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
    u = nl.exp(t)  # ERROR
    return a
