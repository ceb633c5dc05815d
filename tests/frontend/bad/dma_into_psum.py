# expect: kernel_error: DMA cannot access PSUM
# args: a=128x512:float32
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def k(a):
    p = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
    nisa.dma_copy(dst=p, src=a)  # ERROR
    return a
