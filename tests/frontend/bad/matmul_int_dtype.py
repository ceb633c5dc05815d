# expect: kernel_error: has dtype int32
# args: a=128x128:int32 b=128x512:int32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    x = nl.load(a)
    y = nl.load(b)
    r = nl.matmul(x, y, transpose_x=True)  # ERROR
    return a
