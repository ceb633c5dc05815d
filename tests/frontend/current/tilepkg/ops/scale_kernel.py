"""Scales a [R, C] tensor tile by tile; the plan, an enum and the helpers come from sibling modules."""
import nki
import nki.isa as nisa
import nki.language as nl
import torch  # noqa: F401  (imported, never used: a stand-in)

from ..util.shapes import Scaling, TilePlan, ceil_div, scale_tile
from tilepkg.util import shapes  # an absolute import of the same package


@nki.jit
def scale_kernel(x: nl.ndarray, plan: TilePlan = TilePlan(), scaling: Scaling = Scaling.NONE,
                 shape2d: tuple = (1, 1)) -> nl.ndarray:
    rows, cols = x.shape
    assert rows % plan.rows == 0, f"rows {rows} must be a multiple of {plan.rows}"
    sr, sc = shape2d
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    plan = TilePlan(rows=plan.rows, cols=plan.cols, scaling=scaling)
    for r in nl.affine_range(ceil_div(rows, plan.rows)):
        t = nl.ndarray((plan.rows, cols), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=x[r * plan.rows:(r + 1) * plan.rows, :])
        u = nl.ndarray((plan.rows, cols), dtype=x.dtype, buffer=nl.sbuf)
        scale_tile(u, t, plan)
        nisa.dma_copy(dst=out[r * plan.rows:(r + 1) * plan.rows, :], src=u)
    assert shapes.ceil_div(sr * sc, 1) == sr * sc
    return out
