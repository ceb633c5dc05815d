# expect: kernel_error: reads tile 'z' before anything was written
# args: a=128x128:bfloat16 b=128x512:bfloat16
# flags: --no-replicate
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    # The first matmul fills the memo of operand layouts (matmul_fast.py); the second, with the same layouts,
    # reads a tile nothing wrote.
    x = nl.load(a)
    y = nl.load(b)
    acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    acc += nl.matmul(x, y, transpose_x=True)
    z = nl.ndarray((128, 128), dtype=a.dtype, buffer=nl.sbuf)
    acc += nl.matmul(z, y, transpose_x=True)  # ERROR
    return a
