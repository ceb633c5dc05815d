"""Recording `t[...] = nl.load(src)` without a temporary tile (the recording layer's half of pending loads).

`nl.load` leaves its source in `tensor._pending` and returns the placeholder view `tensor._PENDING_VIEW`; the
statement's STORE_SUBSCR follows at once and hands the placeholder to `Tensor.__setitem__` (operators.py),
which calls `store_pending` here to record the DMA.
"""
from .dtypes import SIZES as _SIZES
from . import emit as _emit
from .tracer import T, Instr, check_onchip_shape
from .tensor import _PENDING_VIEW, _pending
from .views import Tensor, index_view, template_layout


class LoadSite:
    """One `t[key] = nl.load(src)` call site (language._store_kind makes it), with what its last load left for the
    next: most loads of a loop repeat the same layouts with other offsets, so a statement-level memo replaces the
    template lookups, bounds and layout caches the general path consults (not in value mode).
    `src`: (dims, dtype, shape, pattern) of an HBM source view without checks, whose operand emit.unmasked_ap takes
    from its hbm layout cache (dims' entry, fixed once made); the same dims object, dtype and shape give the same
    operand at another offset, and the shape was checked as an SBUF tile's (check_onchip_shape).
    `dst`: (view dims, dtype, key length, the key's two IndexExpr objects, s0, c0, s1, c1, constant offset, shape,
    result dims, partition stride, partition count, pattern, elements, bytes) of a destination key `[b, e1, e2]` or
    `[a, b, e1, e2]` that views.template_layout resolved and whose operand _cached_operand found in emit's on-chip
    layouts. The same view dims and the same expression objects (IndexExpr is immutable; its bounds held over the
    whole grid) give the same template: only the integer indices move the offset, and their bounds are checked
    again. Anything else goes the general way, which refreshes the memo."""
    __slots__ = ("src", "dst", "db")

    def __init__(self):
        self.src = None
        self.dst = None
        self.db = None  # the last destination buffer the memo's operands were seen to fit (_other_buffer_fits)


# Of an indexed pending load (pending_indexed_load): (source view, source operand, len(T.instrs), len(T.buffers), its
# LoadSite) at the call; the view tells a stale entry (a statement that raised before its store) from the pending
# load's.
_indexed = [None]
_new_instr = object.__new__  # Instr field by field (every slot but `vals`, as Instr.__init__), like the fused matmul's


def pending_indexed_load(src, loc, site):
    """`t[key] = nl.load(src)` (not in value mode): the statement computes `key` after the call, then stores. The
    source operand is made (and checked) now, where emit_fresh makes it; store_pending records the DMA into
    `t[key]` as retargeting the temporary tile would (language._store_kind allows only keys that call nothing).
    src is an HBM view whose partition dimension fits (nl.load tested both)."""
    sb = src.buf
    dims = src.dims
    memo = site.src
    if (memo is not None and dims is memo[0] and src.checks is None and src.dtype == memo[1] and src.shape == memo[2]
            and dims is not sb.rdims):
        sap = (sb, -1, 0, src.off, memo[3], memo[1])  # unmasked_ap's hbm layout, as it would find it
    else:
        check_onchip_shape("sbuf", src.shape, src.dtype)
        plain = src.checks is None and dims is not sb.rdims
        sap = _emit.unmasked_ap(src)[0]
        hit = _emit._hbm_layouts.get(dims) if plain else None
        site.src = None if hit is None else (dims, src.dtype, src.shape, hit[0])
    sb.pinned = True
    _indexed[0] = (src, sap, len(T.instrs), len(T.buffers), site)
    _pending[0] = src
    _pending[1] = loc
    return _PENDING_VIEW


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
            site = indexed[4]
            memo = site.dst
            if memo is not None and dst.dims is memo[0] and type(key) is tuple and dst.checks is None:
                # The statement's memo (LoadSite): the same template as last time, so only the integer indices
                # are checked and move the offset.
                _, dtype, nk, e1, e2, s0, c0, s1, c1, coff, shape, rdims, ps, pcount, pattern, n, nbytes = memo
                db = dst.buf
                if db is not site.db and _other_buffer_fits(db, memo):
                    site.db = db
                if (db is site.db and dst.dtype == dtype and src.shape == shape and len(T.instrs) == indexed[2]
                        and len(T.buffers) == indexed[3]):
                    off = None
                    if nk == 3:
                        if len(key) == 3:
                            k0, k1, k2 = key
                            if k1 is e1 and k2 is e2 and type(k0) is int and 0 <= k0 < c0:
                                off = dst.off + k0 * s0 + coff
                    elif len(key) == 4:
                        k0, k1, k2, k3 = key
                        if (k2 is e1 and k3 is e2 and type(k0) is int and type(k1) is int and 0 <= k0 < c0
                                and 0 <= k1 < c1):
                            off = dst.off + k0 * s0 + k1 * s1 + coff
                    if off is not None:
                        p0 = off // ps if ps else off
                        ins = _new_instr(Instr)
                        ins.op = "dma_copy"
                        ins.engine = "dma"
                        ins.dst = ((db, p0, pcount, off - p0 * ps, pattern, dtype),)
                        ins.src = (indexed[1],)
                        ins.elements = n
                        ins.nbytes = nbytes
                        ins.attrs = None
                        ins.loc = loc
                        ins.iter = T.iter_tuple
                        ins.pid = T.pid
                        ins.ranges = None
                        T.instrs.append(ins)
                        db.written = True
                        db.zeroed = False
                        return None
            return _store_indexed(dst, key, src, loc, indexed)
    if key is not Ellipsis or dst.checks is not None:
        return _emit.load_fresh(src, loc)
    return _store_whole(dst, src, loc)


def _store_whole(dst, src, loc):
    """Record `dst[...] = nl.load(src)`: the DMA writes dst directly."""
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
    _, sap, n_instrs, n_buffers, site = indexed
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
    site.dst = site.db = None
    if apn is not None and db.memory != "hbm" and dims is not db.rdims and len(key) > 2:
        site.dst = _destination_memo(dst, key, off, dims, shape, apn)
        site.db = db
    ap, n = _emit.unmasked_ap(view) if apn is None else apn
    T.instrs.append(Instr("dma_copy", "dma", (ap,), (sap,), n, n * _SIZES[dtype], None, loc, T.iter_tuple, T.pid,
                          None))
    db.written = True
    db.zeroed = False
    return None


def _destination_memo(dst, key, off, rdims, shape, apn):
    """LoadSite.dst of the key `[b, e1, e2]` or `[a, b, e1, e2]` (template_layout's) that viewed dst at `off` with
    result dims `rdims`, whose operand `apn` came from emit's on-chip layouts (_cached_operand): (view dims, dtype,
    key length, e1, e2, s0, c0, s1, c1, constant offset, shape, result dims, partition stride, partition count,
    pattern, elements, bytes), where (s0, c0) and (s1, c1) are the view's first dims (the integers' strides and
    bounds; s1 = 0, c1 = 1 for three keys)."""
    (ap, n) = apn
    nk = len(key)
    (s0, c0) = dst.dims[0]
    if nk == 3:
        k0, e1, e2 = key
        k1 = s1 = 0
        c1 = 1
    else:
        k0, k1, e1, e2 = key
        (s1, c1) = dst.dims[1]
    coff = off - dst.off - k0 * s0 - k1 * s1
    return (dst.dims, dst.dtype, nk, e1, e2, s0, c0, s1, c1, coff, shape, rdims, dst.buf.pstride, ap[2], ap[4], n,
            n * _SIZES[dst.dtype])


def _other_buffer_fits(db, memo):
    """Whether buffer db, not the one LoadSite.dst was made on, gives the same operands for the memo's views:
    _cached_operand's on-chip branch (its dtype and partition stride, not HBM, not the buffer's whole view)."""
    return db.dtype == memo[1] and db.pstride == memo[12] and db.memory != "hbm" and db.rdims is not memo[11]


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
