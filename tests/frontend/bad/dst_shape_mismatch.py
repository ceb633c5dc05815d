# expect: kernel_error: shape mismatch in nisa.tensor_tensor
# args: a=128x512:float32
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def k(a):
    x = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
    nisa.dma_copy(dst=x, src=a)
    y = nl.ndarray((128, 256), dtype=a.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=y, data1=x, data2=x, op=nl.add)  # ERROR
    return a
