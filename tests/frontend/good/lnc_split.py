"""Each program of the launch grid adds its share of the rows (standalone nki API); with --lnc 2 the programs
split over the two physical cores of a logical NeuronCore."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def lnc_add(a, b):
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    share = rows // nl.num_programs(0)
    first = nl.program_id(0) * share
    for r in nl.affine_range(share // 128):
        lo = first + r * 128
        x = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        y = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=a[lo:lo + 128, 0:cols])
        nisa.dma_copy(dst=y, src=b[lo:lo + 128, 0:cols])
        z = nl.ndarray((128, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.tensor_tensor(dst=z, data1=x, data2=y, op=nl.add)
        nisa.dma_copy(dst=out[lo:lo + 128, 0:cols], src=z)
    return out
