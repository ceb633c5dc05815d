# expect: invalid_argument: defines several kernels: k1, k2
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k1(a):
    return a


@nki.jit
def k2(a):
    return a
