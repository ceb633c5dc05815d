"""Comparison of an output with its expected values (contract: docs/numerics.md, "Output document")."""
import math

import numpy as np

from . import fmt

WORST = 10
MAX_CELLS = 256
HIST_BINS = 40


def _errors(value, expected):
    """|value - expected|; inf where the value is not finite but the expected is; 0 where both are the same
    non-finite value."""
    with np.errstate(invalid="ignore"):
        err = np.abs(value - expected)
    if np.isfinite(err).all():
        return err
    same = (value == expected) | (np.isnan(value) & np.isnan(expected))
    err = np.where(same, 0.0, err)
    return np.where(np.isnan(err), np.inf, err)


def _worst(err):
    """Flat indices of the WORST largest errors, largest first (ties: lower index first)."""
    flat = err.reshape(-1)
    if flat.size > WORST:
        part = np.argpartition(-flat, WORST - 1)[:WORST]
        # elements equal to the WORST-th largest may be many: take the lowest indices among them
        cut = flat[part].min()
        above = np.flatnonzero(flat > cut)
        ties = np.flatnonzero(flat == cut)[:WORST - above.size]
        part = np.concatenate([above, ties])
    else:
        part = np.arange(flat.size)
    return sorted(part.tolist(), key=lambda k: (-flat[k], k))


def compare(value, expected, dtype, rtol, atol):
    value = np.asarray(value, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    err = _errors(value, expected)
    a = np.abs(expected)
    with np.errstate(invalid="ignore", divide="ignore"):
        rel = err / a
        if not (a > 0).all():
            rel = np.where(a > 0, rel, np.where(err > 0, np.inf, 0.0))
        ulps = err / fmt.ulp(expected, dtype)
        bad = err > atol + rtol * a
    fin = np.isfinite(err)
    if not fin.all():
        bad &= ~(np.isinf(err) & ~np.isfinite(expected))
        bad |= ~np.isfinite(value) & np.isfinite(expected)
    n = int(np.count_nonzero(bad))
    worst = [{"index": [int(i) for i in np.unravel_index(k, value.shape)], "value": float(value.flat[k]),
              "expected": float(expected.flat[k])} for k in _worst(err) if err.flat[k] > 0]
    finite = err if fin.all() else err[fin]
    return {"max_abs_error": float(err.max()) if err.size else 0.0,
            "max_rel_error": float(rel.max()) if rel.size else 0.0,
            "max_ulp_error": float(np.nanmax(ulps)) if ulps.size else 0.0,
            "rms_error": float(math.sqrt(np.mean(np.square(finite)))) if finite.size else 0.0,
            "mismatches": n, "mismatch_pct": 100.0 * n / max(value.size, 1), "rtol": rtol, "atol": atol,
            "passed": n == 0, "worst": worst}


def heatmap(value, expected):
    """Max abs error per cell of the output folded to 2-D, at most MAX_CELLS x MAX_CELLS cells."""
    err = _errors(np.asarray(value, dtype=np.float64), np.asarray(expected, dtype=np.float64))
    cols = err.shape[-1] if err.ndim else 1
    e2 = err.reshape(-1, cols)
    rows = e2.shape[0]
    rh, cw = -(-rows // MAX_CELLS), -(-cols // MAX_CELLS)
    R, C = -(-rows // rh), -(-cols // cw)
    pad = np.full((R * rh, C * cw), -1.0)
    pad[:rows, :cols] = e2
    blocks = pad.reshape(R, rh, C, cw).transpose(0, 2, 1, 3).reshape(R, C, rh * cw)
    arg = blocks.argmax(axis=2)
    best = np.take_along_axis(blocks, arg[..., None], axis=2)[..., 0]
    rr, cc = np.divmod(arg, cw)
    flat = (np.arange(R)[:, None] * rh + rr) * cols + (np.arange(C)[None, :] * cw + cc)
    return {"rows": R, "cols": C, "cell": [rh, cw], "abs_error": [float(x) for x in best.reshape(-1)],
            "worst": [int(x) for x in flat.reshape(-1)]}


def histogram(value, expected):
    err = _errors(np.asarray(value, dtype=np.float64), np.asarray(expected, dtype=np.float64)).reshape(-1)
    zeros = int((err == 0).sum())
    pos = err[(err > 0) & np.isfinite(err)]
    out = {"log10_abs_error_edges": [], "counts": [], "zeros": zeros, "nonfinite": int(np.isinf(err).sum())}
    if pos.size:
        lg = np.log10(pos)
        lo, hi = math.floor(lg.min()), math.ceil(lg.max())
        if hi <= lo:
            hi = lo + 1
        bins = min(HIST_BINS, max(1, (hi - lo) * 4))
        counts, edges = np.histogram(lg, bins=bins, range=(lo, hi))
        out["log10_abs_error_edges"] = [float(x) for x in edges]
        out["counts"] = [int(x) for x in counts]
    return out
