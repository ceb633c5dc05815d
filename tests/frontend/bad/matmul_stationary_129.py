# expect: kernel_error: stationary free size 129 exceeds 128
# args: a=128x129:bfloat16 b=128x512:bfloat16
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    x = nl.load(a)
    y = nl.load(b)
    r = nl.matmul(x, y, transpose_x=True)  # ERROR
    return a
