"""Mean and variance of each row of an SBUF tile with VectorE's bn_stats / bn_aggr."""
import nki.isa as nisa
import nki.language as nl


def ceil_div(a, b):
    return (a + b - 1) // b


def row_mean_var(x_tile, rows, cols, chunk):
    """[rows, 2] float32: mean and variance of each row of x_tile [rows, cols]."""
    n_chunks = ceil_div(cols, chunk)
    stats = nl.ndarray((rows, 6 * n_chunks), dtype=nl.float32, buffer=nl.sbuf)  # cuda: 12-19
    for c in nl.affine_range(n_chunks):
        width = min(chunk, cols - c * chunk)
        nisa.bn_stats(dst=stats[:, c * 6:(c + 1) * 6], data=x_tile[:, c * chunk:c * chunk + width])
    mean_var = nl.ndarray((rows, 2), dtype=nl.float32, buffer=nl.sbuf)  # cuda: 20-21
    nisa.bn_aggr(dst=mean_var, data=stats)
    return mean_var
