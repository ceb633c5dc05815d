# expect: kernel_error: TensorE writes PSUM only
# args: a=128x128:bfloat16 b=128x512:bfloat16
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    acc = nl.zeros((128, 512), nl.float32, buffer=nl.sbuf)
    x = nl.load(a)
    y = nl.load(b)
    acc += nl.matmul(x, y, transpose_x=True)  # ERROR
    return a
