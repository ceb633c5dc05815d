"""The hot matmul statement of plain tracing in fewer steps (issue 20): `psum[...] += nisa.nc_matmul(a, b)` and
`acc += nl.matmul(a, b, transpose_x=True)`.

`fresh_matmul` records the matmul of two SBUF views whose operand layouts were seen before (one memo entry per pair
of views' dims, filled by the general path, tensor_engine.matmul_fresh, after it checked that pair) and
`accumulate_fresh` is retarget's `+=` for the whole PSUM tile. Each gives exactly what the general path gives (the
same instruction, buffer and state: tests/frontend/test_matmul_fast.py compares them) and hands anything else to it,
before changing anything: a view with pending bounds checks, an operand not written yet or a pending nl.zeros, value
mode, indirect views, a masked or partial destination, a warning or an error to raise.
"""
from . import emit as _emit
from . import tensor_engine
from .matmul_fused import _PLUS_EQUALS, FusedResult, _open, into_sum, materialise, new_fused, plus_equals_follows
from .ops import FRESH_MM_KEYS
from .tracer import T, Buffer, Instr
from .views import INDIRECT_SEEN, Tensor

# (stationary dims, moving dims) -> the memo entry below. Dims are compared by content here and by identity in the
# one-entry cache in front of it (views made from one index template share their dims object, so a loop's matmuls
# all hit it).
_PAIRS = {}
# An entry: (stationary dims, moving dims, the expected state (see remember), stationary (pcount, pattern), moving
# (pcount, pattern), shared attrs, emit._fresh entry of the result tile, result shape, the expected state's fields
# that a buffer fixes, the rest of it).
_NONE = (None,) * 10
_last = [_NONE]
# The (stationary buffer, moving buffer, memo entry) whose fixed fields last matched the entry's (see fresh_matmul).
_fixed = [None, None, None]
_new_instr = object.__new__


def matmul_fresh(stationary, moving, loc):
    """tensor_engine.matmul_fresh (a fresh, unmasked matmul of two views), from the memo when it holds their layouts.
    The hot callers (isa._nc_matmul, language.matmul) try fresh_matmul themselves first, then call general_fresh."""
    res = fresh_matmul(stationary, moving, loc)
    return general_fresh(stationary, moving, loc) if res is None else res


def general_fresh(stationary, moving, loc):
    """tensor_engine.matmul_fresh, then the memo entry of these operands' layouts."""
    res = tensor_engine.matmul_fresh(stationary, moving, loc)
    ins = res.buf.producer
    if ins is not None and not T.values:
        remember(stationary, moving, ins.attrs)
    return res


def remember(stationary, moving, attrs):
    """After the general path recorded the fresh matmul of these two views (so their kinds passed its checks):
    keep what the next matmul of views with the same layouts needs."""
    sb, mb = stationary.buf, moving.buf
    sd, md = stationary.dims, moving.dims
    if (type(stationary) is not Tensor or type(moving) is not Tensor or sb.memory != "sbuf" or mb.memory != "sbuf"
            or stationary.dtype != sb.dtype or moving.dtype != mb.dtype or not sb.pstride or not mb.pstride
            or len(stationary.shape) != 2 or len(moving.shape) != 2):
        return
    shape = (stationary.shape[1], moving.shape[1])
    result = _emit._fresh.get((shape, "float32", "psum"))
    if result is None:
        return
    s_layout = _layout(sd, sb)
    m_layout = _layout(md, mb)
    # What fresh_matmul compares: once per pair of buffers, what a buffer fixes (partition strides, dtypes,
    # memories); at every matmul, the views' dtypes, shapes and pending checks, whether the buffers hold data
    # (written, not a pending nl.zeros), value mode and indirect views. `expected` keeps the strides first (the
    # operands' partition rows are counted with them).
    expected = (sb.pstride, mb.pstride)
    fixed = (sb.pstride, mb.pstride, sb.dtype, mb.dtype, "sbuf", "sbuf")
    changing = (sb.dtype, mb.dtype, stationary.shape, moving.shape, None, None, True, True, False, False, False, False)
    _PAIRS[(sd, md)] = (sd, md, expected, s_layout[:2], m_layout[:2], attrs, result, shape, fixed, changing)


def _layout(dims, b):
    """emit._make_ap's on-chip layout of dims on buffer b, from its cache (a whole tile's operand, which the buffer
    keeps, never made it: the operands passed the general path's checks, so the layout is valid)."""
    key = (dims, b.pstride)
    lay = _emit._onchip_layouts.get(key)
    if lay is None:
        lay = _emit._onchip_layouts[key] = _emit._onchip_layout(dims, b.pstride, b)
    return lay


def fresh_matmul(stationary, moving, loc, frame=None):
    """tensor_engine.matmul_fresh for operands whose layouts the memo holds; None when the general path must decide.
    `frame`: the kernel's frame at the call, given by callers that let a `+=` right after it consume the result
    without a tile (matmul_fused.py; the answer of its plus_equals_follows is kept); not in value mode."""
    sd = stationary.dims
    md = moving.dims
    e = _last[0]
    if e[0] is not sd or e[1] is not md:
        e = _PAIRS.get((sd, md))
        if e is None:
            return None
        _last[0] = e
    sb = stationary.buf
    mb = moving.buf
    expected = e[2]
    fixed = _fixed
    if fixed[0] is not sb or fixed[1] is not mb or fixed[2] is not e:
        # What a buffer never changes (partition stride, dtype, memory), compared once per pair of buffers: a
        # loop's matmuls read the same two tiles.
        if (sb.pstride, mb.pstride, sb.dtype, mb.dtype, sb.memory, mb.memory) != e[8]:
            return None
        fixed[0] = sb
        fixed[1] = mb
        fixed[2] = e
    sdt = stationary.dtype
    mdt = moving.dtype
    if (sdt, mdt, stationary.shape, moving.shape, stationary.checks, moving.checks, sb.written, mb.written, sb.zeroed,
            mb.zeroed, T.values, INDIRECT_SEEN[0]) != e[9]:
        return None
    # The operands as emit._source_operands makes them: a whole tile's cached operand, else the layout's (written out
    # twice, not a helper: two calls fewer per matmul); the general path makes a whole tile's first operand.
    off = stationary.off
    if sd is sb.rdims and off == 0:
        sap = sb.rap
        if sap is None:
            return None
        sap = sap[0]
    else:
        pstride = expected[0]
        p0 = off // pstride
        layout = e[3]
        sap = (sb, p0, layout[0], off - p0 * pstride, layout[1], sdt)
    off = moving.off
    if md is mb.rdims and off == 0:
        map_ = mb.rap
        if map_ is None:
            return None
        map_ = map_[0]
    else:
        pstride = expected[1]
        p0 = off // pstride
        layout = e[4]
        map_ = (mb, p0, layout[0], off - p0 * pstride, layout[1], mdt)
    sb.pinned = True
    mb.pinned = True
    # The result tile as emit._seen_tile makes it.
    hit = e[6]
    shape = e[7]
    decl = loc[0] if loc else (0, 0)
    name = T._names.get(decl)  # T.var_name(loc, "matmul"), its cache looked up here first
    if not name:
        name = T.var_name(loc, "matmul")
    if frame is not None:
        fuse = _PLUS_EQUALS.get((id(frame.f_code), frame.f_lasti))
        if fuse is None:
            fuse = plus_equals_follows(frame)
        if fuse:
            # Instr(...) written out field by field (_new_instr: no __init__ through the type's slots, about 0.15 us
            # less); tests/frontend/test_matmul_fused.py compares every slot with the general path's instruction.
            ins = _new_instr(Instr)
            ins.op = "nc_matmul"
            ins.engine = "tensor"
            ins.dst = None
            ins.src = (sap, map_)
            ins.elements = hit[3]
            ins.nbytes = hit[4]
            ins.attrs = e[5]
            ins.loc = loc
            ins.iter = T.iter_tuple
            ins.pid = T.pid
            ins.ranges = None
            T.instrs.append(ins)
            if _open[0] is not None and _open[0][8] is T.buffers:  # (an entry of an earlier trace is dropped)
                materialise(_open[0][0])
            res = new_fused(FusedResult)
            _open[0] = (res, ins, name, decl, hit, shape, len(T.buffers), fuse, T.buffers)
            return res
    buf = Buffer(name, "psum", shape, "float32", "tile", decl, "", hit[1])
    T.buffers.append(buf)
    buf.temp = True
    buf.rdims = hit[0]
    n = hit[3]
    buf.rap = rap = ((buf,) + hit[2], n)
    buf.written = True
    buf.producer = ins = Instr("nc_matmul", "tensor", (rap[0],), (sap, map_), n, hit[4], e[5], loc, T.iter_tuple,
                               T.pid, None)
    buf.mm_keys = FRESH_MM_KEYS
    T.instrs.append(ins)
    return Tensor(buf, 0, hit[0], "float32", None, True, shape)


_WHOLE_PSUM = ("psum", 0, None, False)  # accumulate_fresh's destination: memory, offset; unmasked; not value mode


def accumulate_fresh(value, dst):
    """`dst += value` for a fresh matmul result `value` (ops.retarget(value, dst, accumulate=True)) when dst is a
    whole PSUM tile with its cached operand and the sum's start needs no warning; False (nothing changed) when the
    general path must decide."""
    db = dst.buf
    apn = db.rap
    ins = value.buf.producer
    ds = dst.shape
    if (apn is None or dst.dims is not db.rdims or (db.memory, dst.off, ins.ranges, T.values) != _WHOLE_PSUM
            or dst.dtype != db.dtype or value.shape != ds):
        return False
    ap = into_sum(ins, db, apn, dst.dtype)
    if ap is None:
        return False
    aps = ins.dst
    if type(aps) is tuple:
        ins.dst = (ap,) + aps[1:]
    else:
        aps[0] = ap
    vb = value.buf
    vb.dropped = True
    if T.buffers[-1] is vb and len(T.buffers) > T.marked:  # see ops.retarget
        T.buffers.pop()
        vb.rap = None
    value.buf = db
    value.off = 0
    value.dims = dst.dims
    value.dtype = dst.dtype
    value.shape = ds
    value.root = False
    return True
