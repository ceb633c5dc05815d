"""Row scaling y = x / max|x| per row of a [300, 256] float32 tensor: DELIBERATELY WRONG (a review exercise).

Rows go to partitions 128 at a time, but the band count is rows // 128, so the last, ragged band of
300 - 256 = 44 rows is never computed: those output rows are never written. The timeline looks
healthy; only the numerics run shows it (the worst elements all sit in rows 256-299).
"""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def nki_row_absmax_scale(x):
    rows, cols = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)

    for r in nl.affine_range(rows // P):  # cuda: 12 -- BUG: drops the ragged last band
        x_tile = nl.load(x[r * P:(r + 1) * P, 0:cols])  # cuda: 14
        mag = nisa.activation(op=nl.abs, data=x_tile)  # cuda: 15
        row_max = nisa.tensor_reduce(nl.max, mag, axis=(1,), keepdims=True)  # cuda: 15-18
        inv = nisa.reciprocal(row_max)  # cuda: 19
        y = nisa.tensor_scalar(x_tile, nl.multiply, inv)  # cuda: 20
        nl.store(out[r * P:(r + 1) * P, 0:cols], value=y)  # cuda: 20
    return out
