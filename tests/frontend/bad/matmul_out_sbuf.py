# expect: kernel_error: TensorE writes PSUM only
# args: a=128x128:bfloat16 b=128x512:bfloat16
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def k(a, b):
    x = nl.ndarray((128, 128), dtype=a.dtype, buffer=nl.sbuf)
    y = nl.ndarray((128, 512), dtype=b.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=x, src=a)
    nisa.dma_copy(dst=y, src=b)
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
    nisa.nc_matmul(out, x, y)  # ERROR
    return a
