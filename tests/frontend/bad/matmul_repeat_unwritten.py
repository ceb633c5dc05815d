# expect: kernel_error: reads tile 'z' before anything was written
# args: a=128x256:bfloat16 b=128x512:bfloat16
# flags: --no-replicate
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    # The first matmul fills the memo of operand layouts (matmul_fast.py); the second, with the same layouts,
    # reads a tile nothing wrote.
    x = nl.ndarray((128, 256), dtype=a.dtype, buffer=nl.sbuf)
    x[...] = nl.load(a)
    z = nl.ndarray((128, 256), dtype=a.dtype, buffer=nl.sbuf)
    y = nl.load(b)
    i = nl.mgrid[0:128, 0:128]
    acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    acc += nl.matmul(x[i.p, i.x], y, transpose_x=True)
    acc += nl.matmul(z[i.p, 128 + i.x], y, transpose_x=True)  # ERROR
    return a
