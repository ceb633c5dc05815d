"""2-D transpose of a [2048, 2048] float32 matrix (legacy NKI API).

The partition axis cannot be swapped with the free axis by an address trick: a
transpose has to move data across partitions. TensorE does that for a 128 x 128
block in one instruction (a matmul against the identity, result in PSUM).

The output is built one row band of 128 rows at a time. Output band j is input
column band j: its sixteen 128 x 128 blocks are loaded, transposed on TensorE,
copied from PSUM into their place in an SBUF band, and the finished band
(8 KiB per partition) is written with a single DMA.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def nki_transpose_2d(x):
    rows, cols = x.shape
    P = nl.tile_size.pmax  # 128: largest TensorE transpose
    assert rows % P == 0 and cols % P == 0

    out = nl.ndarray((cols, rows), dtype=x.dtype, buffer=nl.shared_hbm)

    for j in nl.affine_range(cols // P):  # cuda: 21
        band = nl.ndarray((P, rows), dtype=x.dtype, buffer=nl.sbuf)

        for i in nl.affine_range(rows // P):  # cuda: 20
            blk = nl.load(x[i * P:(i + 1) * P, j * P:(j + 1) * P])  # cuda: 14-17
            blk_t = nisa.nc_transpose(blk)  # cuda: 23
            band[:, i * P:(i + 1) * P] = nl.copy(blk_t)  # cuda: 23

        nl.store(out[j * P:(j + 1) * P, 0:rows], value=band)  # cuda: 22-23

    return out
