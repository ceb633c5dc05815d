"""Element-wise addition of two [4096, 1024] float32 tensors (standalone nki API).

One kernel instance walks the rows in bands of 128 (one row per partition) and
moves whole 4 KiB rows per partition in each DMA. Every ISA call names its
destination first and returns nothing.
"""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def nki_vector_add(a, b):
    rows, cols = a.shape
    assert b.shape == a.shape
    P = nl.tile_size.pmax  # 128 partitions
    assert rows % P == 0

    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)

    # cuda: 16-25
    for band in nl.affine_range(rows // P):
        r0 = band * P

        a_tile = nl.ndarray((P, cols), dtype=a.dtype, buffer=nl.sbuf)
        b_tile = nl.ndarray((P, cols), dtype=b.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=a_tile, src=a[r0:r0 + P, 0:cols])  # cuda: 17
        nisa.dma_copy(dst=b_tile, src=b[r0:r0 + P, 0:cols])  # cuda: 18

        c_tile = nl.ndarray((P, cols), dtype=a.dtype, buffer=nl.sbuf)
        nisa.tensor_tensor(dst=c_tile, data1=a_tile, data2=b_tile, op=nl.add)  # cuda: 19-23

        nisa.dma_copy(dst=out[r0:r0 + P, 0:cols], src=c_tile)  # cuda: 24

    return out
