"""RMSNorm over the last dimension of a [4096, 2048] float32 tensor (legacy NKI API).

    y = x / sqrt(mean(x^2, axis=-1) + eps) * weight

Rows go to partitions, 128 at a time. The weight row is loaded once and broadcast
over the partitions outside the loop. Per band of 128 rows:
  ScalarE  activation_reduce(square)       -> sum of squares of each row, one pass
  VectorE  tensor_scalar(* 1/H, + eps), rsqrt  -> one scale factor per row
  VectorE  x * rstd (per-row scalar), then * weight (element-wise)
"""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def nki_rmsnorm(x, weight, eps=1e-6):
    rows, hidden = x.shape
    assert weight.shape[0] == hidden, "weight must have one entry per column"
    P = nl.tile_size.pmax  # 128 rows per band
    assert rows % P == 0, f"rows={rows} is not a multiple of {P}"

    out = nl.ndarray((rows, hidden), dtype=x.dtype, buffer=nl.shared_hbm)

    # The weight is the same for every row: load it once, broadcast it once.
    w_row = nl.load(weight.reshape((1, hidden)))  # cuda: 36
    w_tile = w_row.broadcast_to((P, hidden))  # cuda: 36

    for r in nl.affine_range(rows // P):  # cuda: 18-19
        x_tile = nl.load(x[r * P:(r + 1) * P, 0:hidden])  # cuda: 23

        # Sum of squares per row, accumulated by ScalarE while it squares.
        sq_sum = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
        squares = nisa.activation_reduce(op=nl.square, data=x_tile,  # cuda: 21-32
                                         reduce_op=nl.add, reduce_res=sq_sum)

        # rstd = 1 / sqrt(sum / H + eps)
        mean_eps = nisa.tensor_scalar(sq_sum, nl.multiply, 1.0 / hidden,  # cuda: 33
                                      op1=nl.add, operand1=eps)
        rstd = nl.rsqrt(mean_eps)  # cuda: 33

        normed = nisa.tensor_scalar(x_tile, nl.multiply, rstd)  # cuda: 35-36
        y_tile = nl.multiply(normed, w_tile, dtype=x.dtype)  # cuda: 36

        nl.store(out[r * P:(r + 1) * P, 0:hidden], value=y_tile)  # cuda: 36

    return out
