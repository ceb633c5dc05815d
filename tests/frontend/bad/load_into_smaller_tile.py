# expect: kernel_error: shape mismatch in assignment: destination is [128, 32] but the result is [128, 64]
# args: a=128x64:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    w = nl.ndarray((128, 32), dtype=a.dtype, buffer=nl.sbuf)
    w[...] = nl.load(a)  # ERROR
    return a
