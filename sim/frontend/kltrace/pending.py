"""Recording `t[...] = nl.load(src)` without a temporary tile (the recording layer's half of pending loads).

`nl.load` leaves its source in `tensor._pending` and returns the placeholder view `tensor._PENDING_VIEW`; the
statement's STORE_SUBSCR follows at once and hands the placeholder to `Tensor.__setitem__` (operators.py),
which calls `store_pending` here to record the DMA.
"""
from .dtypes import SIZES as _SIZES
from . import emit as _emit
from .tracer import T, Instr
from .tensor import _pending, pending_load
from .views import Tensor, index_view, template_layout


# Of an indexed pending load (pending_indexed_load): (source view, source operand, len(T.instrs), len(T.buffers)) at
# the call; the view tells a stale entry (a statement that raised before its store) from the pending load's.
_indexed = [None]


def pending_indexed_load(src, loc):
    """`t[key] = nl.load(src)` in plain tracing: the statement computes `key` after the call, then stores. The
    source operand is made (and checked) now, where emit_fresh makes it; store_pending records the DMA into
    `t[key]` as retargeting the temporary tile would (language._store_kind allows only keys that call nothing)."""
    sb = src.buf
    sap = _emit.unmasked_ap(src)[0]
    sb.pinned = True
    _indexed[0] = (src, sap, len(T.instrs), len(T.buffers))
    return pending_load(src, loc)


def store_pending(dst, key, value):
    """Record `dst[key] = nl.load(src)`. For `t[...]` the DMA writes t directly (what retargeting the
    temporary would give), and for `t[key]` after pending_indexed_load; otherwise the temporary tile is made after
    all and assigned as usual."""
    src, loc = _pending
    _pending[0] = _pending[1] = None
    indexed = _indexed[0]
    if indexed is not None:
        _indexed[0] = None
        if indexed[0] is src:
            return _store_indexed(dst, key, src, loc, indexed)
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


def _store_indexed(dst, key, src, loc, indexed):
    """Record `dst[key] = nl.load(src)` (pending_indexed_load) as operators._setitem's assign and ops.retarget would
    after emit_fresh: the view, its shape check, then the DMA writing it."""
    _, sap, n_instrs, n_buffers = indexed
    if len(T.instrs) != n_instrs or len(T.buffers) != n_buffers:
        # The key recorded something (arithmetic with a tile): the temporary tile and its DMA go back where the
        # call would have put them, and the store assigns it as usual.
        res = _emit.load_fresh(src, loc)
        T.instrs.insert(n_instrs, T.instrs.pop())
        T.buffers.insert(n_buffers, T.buffers.pop())
        return res
    db = dst.buf
    dtype = dst.dtype
    lay = template_layout(dst, key)
    if lay is None:
        view = index_view(dst, key)
        shape = view.shape
        apn = None
    else:
        off, dims, shape = lay
        apn = _cached_operand(db, off, dims, dtype)  # the view's operand, if emit knows its layout
        if apn is None:
            view = Tensor(db, off, dims, dtype, None, False, shape)  # what index_view gives for this key
    if src.shape != shape:
        _emit.require_shape("assignment", src.shape, shape)
    ap, n = _emit.unmasked_ap(view) if apn is None else apn
    T.instrs.append(Instr("dma_copy", "dma", (ap,), (sap,), n, n * _SIZES[dtype], None, loc, T.iter_tuple, T.pid,
                          None))
    db.written = True
    db.zeroed = False
    return None


def _cached_operand(b, off, dims, dtype):
    """emit.unmasked_ap of the unchecked view (b, off, dims, dtype) without making the view, from the layouts emit
    keeps; None when it has none for these dims (unmasked_ap on the view decides)."""
    if dims is b.rdims and off == 0 and dtype == b.dtype:
        return b.rap
    if b.memory == "hbm":
        hit = _emit._hbm_layouts.get(dims)
        if hit is not None:
            return (b, -1, 0, off, hit[0], dtype), hit[1]
    elif dtype == b.dtype:
        ps = b.pstride
        hit = _emit._onchip_layouts.get((dims, ps))
        if hit is not None:
            p0 = off // ps if ps else off
            return (b, p0, hit[0], off - p0 * ps, hit[1], dtype), hit[2]
    return None
