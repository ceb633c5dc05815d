"""LayerNorm over the last axis: y = (x - mean) / sqrt(var + eps) * gamma + beta, 128 rows per tile."""
import nki
import nki.isa as nisa
import nki.language as nl

from ..common.config import Affine, NormConfig
from ..common.stats import ceil_div, row_mean_var


@nki.jit
def layernorm(x: nl.ndarray, gamma: nl.ndarray, beta: nl.ndarray, cfg: NormConfig = NormConfig()) -> nl.ndarray:
    rows, cols = x.shape
    P = nl.tile_size.pmax
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    g = nl.ndarray((P, cols), dtype=nl.float32, buffer=nl.sbuf)  # cuda: 25
    b = nl.ndarray((P, cols), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=g, src=gamma.reshape((1, cols)).ap(pattern=[[0, P], [1, cols]]))  # broadcast rows
    nisa.dma_copy(dst=b, src=beta.reshape((1, cols)).ap(pattern=[[0, P], [1, cols]]))
    for t in nl.affine_range(ceil_div(rows, P)):  # cuda: 9
        x_tile = nl.ndarray((P, cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.dma_copy(dst=x_tile, src=x[t * P:(t + 1) * P, :])  # cuda: 10
        mean_var = row_mean_var(x_tile, P, cols, cfg.stats_chunk)
        rstd = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)  # cuda: 22
        nisa.tensor_scalar(dst=rstd, data=mean_var[:, 1:2], op0=nl.add, operand0=cfg.eps)
        nisa.activation(dst=rstd, op=nl.rsqrt, data=rstd)
        y = nl.ndarray((P, cols), dtype=nl.float32, buffer=nl.sbuf)  # cuda: 24-26
        nisa.tensor_scalar(dst=y, data=x_tile, op0=nl.subtract, operand0=mean_var[:, 0:1], op1=nl.multiply,
                           operand1=rstd)
        if cfg.affine != Affine.NONE:
            nisa.tensor_tensor(dst=y, data1=y, data2=g, op=nl.multiply)
        if cfg.affine == Affine.SCALE_SHIFT:
            nisa.tensor_tensor(dst=y, data1=y, data2=b, op=nl.add)
        nisa.dma_copy(dst=out[t * P:(t + 1) * P, :], src=y)  # cuda: 25
    return out
