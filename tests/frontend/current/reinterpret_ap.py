"""A float32 tile read as bfloat16 through .ap(dtype=...): pattern steps and offsets count bfloat16 elements,
so a partition step of two float32 rows' worth of bfloat16 is one partition. `misaligned` starts a float32 view
two bytes into a bfloat16 tile, which no float32 element does."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def reinterpret_ap(a, misaligned=0):
    wide = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=wide, src=a)
    halves = nl.ndarray((128, 512), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.tensor_copy(dst=halves, src=wide.ap(pattern=[[512, 128], [1, 512]], dtype=nl.bfloat16))
    upper = nl.ndarray((128, 256), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.tensor_copy(dst=upper, src=wide[:, 128:256].ap(pattern=[[512, 128], [1, 256]], dtype=nl.bfloat16))
    if misaligned:
        odd = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=odd, src=halves[:, 1:129].ap(pattern=[[256, 128], [1, 64]], dtype=nl.float32))
    out = nl.ndarray((128, 512), dtype=nl.bfloat16, buffer=nl.shared_hbm)
    nisa.dma_copy(dst=out, src=halves)
    return out
