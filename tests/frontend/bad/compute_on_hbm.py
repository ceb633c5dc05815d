# expect: kernel_error: is in HBM
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.exp(a)  # ERROR
    return a
