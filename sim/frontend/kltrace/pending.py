"""Recording `t[...] = nl.load(src)` without a temporary tile (the recording layer's half of pending loads).

`nl.load` leaves its source in `views._pending` and returns the placeholder view `views._PENDING_VIEW`; the
statement's STORE_SUBSCR follows at once and hands the placeholder to `Tensor.__setitem__` (operators.py),
which calls `store_pending` here to record the DMA.
"""
from .dtypes import SIZES as _SIZES
from . import emit as _emit
from .tracer import T, Instr
from .views import _pending


def store_pending(dst, key, value):
    """Record `dst[key] = nl.load(src)`. For `t[...]` the DMA writes t directly (what retargeting the
    temporary would give); otherwise the temporary tile is made after all and assigned as usual."""
    src, loc = _pending
    _pending[0] = _pending[1] = None
    if key is not Ellipsis or dst.checks is not None:
        return _emit.load_fresh(src, loc)
    sb = src.buf
    dims = src.dims
    if dims is sb.rdims and src.off == 0 and src.dtype == sb.dtype:
        sap = sb.rap
        if sap is None:
            sap = sb.rap = _emit._make_ap(src, None, dims, 0, sb)
        sap = sap[0]
    else:
        sap = _emit._make_ap(src, None, dims, src.off, sb)[0]
    sb.pinned = True
    if src.shape != dst.shape:
        _emit.require_shape("assignment", src.shape, dst.shape)
    db = dst.buf
    dims = dst.dims
    if dims is db.rdims and dst.off == 0 and dst.dtype == db.dtype:
        rap = db.rap
        if rap is None:
            rap = db.rap = _emit._make_ap(dst, None, dims, 0, db)
        ap, n = rap
    else:
        ap, n = _emit._make_ap(dst, None, dims, dst.off, db)
    ins = Instr("dma_copy", "dma", [ap], [sap], n, n * _SIZES[dst.dtype], None, loc, T.iter_tuple, T.pid, None)
    if T.values:
        _emit.value_operands(ins, [dst], [src])
    T.instrs.append(ins)
    db.written = True
    db.zeroed = False
    return None
