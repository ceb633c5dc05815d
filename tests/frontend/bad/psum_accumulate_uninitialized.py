# expect: kernel_error: before anything was written
# args: a=128x128:bfloat16 b=128x512:bfloat16
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
    x = nl.load(a)
    y = nl.load(b)
    acc += nl.matmul(x, y, transpose_x=True)  # ERROR
    return a
