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
    sap = _whole_or_part_ap(src, sb)[0]
    sb.pinned = True
    if src.shape != dst.shape:
        _emit.require_shape("assignment", src.shape, dst.shape)
    db = dst.buf
    ap, n = _whole_or_part_ap(dst, db)
    ins = Instr("dma_copy", "dma", [ap], [sap], n, n * _SIZES[dst.dtype], None, loc, T.iter_tuple, T.pid, None)
    if T.values:
        _emit.value_operands(ins, [dst], [src])
    T.instrs.append(ins)
    db.written = True
    db.zeroed = False
    return None


def _whole_or_part_ap(t, buf):
    """(access pattern, elements) of view `t` on `buf`: a view of the whole buffer reuses the one the buffer
    keeps (made once), any other is made afresh."""
    if t.dims is buf.rdims and t.off == 0 and t.dtype == buf.dtype:
        rap = buf.rap
        if rap is None:
            rap = buf.rap = _emit._make_ap(t, None, t.dims, 0, buf)
        return rap
    return _emit._make_ap(t, None, t.dims, t.off, buf)
