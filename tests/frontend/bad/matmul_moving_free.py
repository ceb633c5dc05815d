# expect: kernel_error: moving free size 1024 exceeds 512
# args: a=128x128:bfloat16 b=128x1024:bfloat16
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    x = nl.load(a)
    y = nl.load(b)
    r = nl.matmul(x, y, transpose_x=True)  # ERROR
    return a
