"""Turning views into IR operands and recording instructions, with the checks every op shares."""
import sys

from . import dtypes
from .errors import kernel_error, unsupported
from .indexing import mask_ranges
from .hwprofile import HW
from .tracer import T, Instr, Buffer, check_onchip_shape, _checked_shapes
from .tensor import counts_bytes
from .views import INDIRECT_SEEN, IndirectTensor, Tensor, run_checks


def _merge(dims):
    """Drop unit dims and fuse contiguous neighbours so equal regions give equal patterns."""
    out = []
    for s, c in dims:
        if c == 1:
            continue
        if out:
            ps, pc = out[-1]
            if ps == s * c:
                out[-1] = (s, pc * c)
                continue
        out.append((s, c))
    return out


def make_ap(v, ranges):
    """(AP tuple, element count) of view v restricted to mask ranges (AP: buf, part0, pcount, off, pattern, dtype)."""
    dims = v.dims
    b = v.buf
    if dims is b.rdims and v.off == 0 and ranges is None and v.dtype == b.dtype:
        rap = b.rap
        if rap is None:
            rap = b.rap = _make_ap(v, None, dims, 0, b)
        return rap
    return _make_ap(v, ranges, dims, v.off, b)


def unmasked_ap(v):
    """make_ap(v, None), with the layout of a view without pending checks looked up here (as _source_operands does):
    one call instead of two for the views of a loop's loads and stores."""
    if v.checks is None:
        b = v.buf
        dims = v.dims
        off = v.off
        if dims is b.rdims and off == 0 and v.dtype == b.dtype:
            rap = b.rap
            if rap is not None:
                return rap
        elif b.memory == "hbm":
            hit = _hbm_layouts.get(dims)
            if hit is not None:
                return (b, -1, 0, off, hit[0], v.dtype), hit[1]
        elif v.dtype == b.dtype:
            ps = b.pstride
            hit = _onchip_layouts.get((dims, ps))
            if hit is not None:
                p0 = off // ps if ps else off
                return (b, p0, hit[0], off - p0 * ps, hit[1], v.dtype), hit[2]
    return make_ap(v, None)


# Layout of a (dims, partition stride) pair: HBM -> (pattern, elements); on-chip -> (pcount, pattern,
# elements). Only successful layouts are cached, so an access that is an error raises every time.
_hbm_layouts = {}
_onchip_layouts = {}


def _masked(dims, off, ranges):
    """(dims, offset) of the elements a mask's per-axis ranges keep."""
    dims = list(dims)
    for a, (lo, hi) in enumerate(ranges):
        s, c = dims[a]
        if c > 1 and (lo != 0 or hi < c):
            hi = min(hi, c)
            off += lo * s
            dims[a] = (s, hi - lo)
    return tuple(dims), off


def _make_ap(v, ranges, dims, off, b):
    checks = v.checks
    if checks:
        if ranges is None:
            # run_checks(v, None) inlined for the usual unmasked operand; it raises the error when one fails.
            for expr, count, _ in checks:
                lo, hi = expr.span or expr.full_span()
                c = expr.const
                if c + lo < 0 or c + hi >= count:
                    run_checks(v, None)
            v.checks = None
        else:
            run_checks(v, ranges)
    if ranges is not None and len(ranges) == len(dims):
        dims, off = _masked(dims, off, ranges)
    if b.memory == "hbm":
        hit = _hbm_layouts.get(dims)
        if hit is None:
            hit = _hbm_layouts[dims] = _hbm_layout(dims)
        return (b, -1, 0, off, hit[0], v.dtype), hit[1]
    ps = b.pstride if v.dtype == b.dtype else _view_pstride(b, v.dtype)
    key = (dims, ps)
    hit = _onchip_layouts.get(key)
    if hit is None:
        hit = _onchip_layouts[key] = _onchip_layout(dims, ps, b)
    p0 = off // ps if ps else off
    return (b, p0, hit[0], off - p0 * ps, hit[1], v.dtype), hit[2]


def _view_pstride(b, dtype):
    """The partition stride of on-chip tile b in elements of `dtype`: a view that reads the tile's bytes as
    another dtype (`.ap(dtype=...)`) counts its offsets and pattern steps in that dtype's elements."""
    size = dtypes.SIZES[dtype]
    row = b.pstride * dtypes.SIZES[b.dtype]
    if size == dtypes.SIZES[b.dtype] or row % size or counts_bytes(b):
        return b.pstride
    return row // size


def reinterpreted_offset(b, elements, old_dtype, new_dtype):
    """An offset of `elements` old_dtype elements into b, counted in new_dtype elements (the same bytes)."""
    old_size, new_size = dtypes.SIZES[old_dtype], dtypes.SIZES[new_dtype]
    if old_size == new_size or counts_bytes(b):
        return elements
    if (elements * old_size) % new_size:
        raise kernel_error(f".ap(dtype={new_dtype}): the view starts {elements * old_size} bytes in, not on a "
                           f"{new_dtype} element", "start a reinterpreting .ap() on an element of the new dtype")
    return elements * old_size // new_size


def _hbm_layout(dims):
    if dims:
        pat = [tuple(dims[0])] + _merge(dims[1:])
    else:
        pat = [(1, 1)]
    n = 1
    for _, c in pat:
        n *= c
    return tuple(pat), n


def _onchip_layout(dims, ps, b):
    pc = 1
    rest = dims
    pidx = -1
    for i, (s, c) in enumerate(dims):
        if c > 1 and s >= ps:
            if pidx >= 0:
                raise kernel_error(f"tile {b.name}: an access spans the partition dimension twice",
                                   "index on-chip tiles as tile[partition, free...]")
            pidx = i
    if pidx >= 0:
        # Usually dims[0]; later only for block layouts (nl.par_dim after leading block dims).
        s0, c0 = dims[pidx]
        rest = dims[:pidx] + dims[pidx + 1:]
        if s0 == ps:
            pc = c0
        elif s0 % ps == 0:
            pc = (c0 - 1) * (s0 // ps) + 1
        else:
            raise kernel_error(f"tile {b.name}: an access mixes the partition and free dimensions",
                               "index on-chip tiles as tile[partition, free...]")
    pat = tuple(_merge(rest)) or ((1, 1),)
    n = pc
    for _, c in pat:
        n *= c
    return pc, pat, n


def value_operand(v, ranges):
    """Value mode: (buffer, element offset, dims, dtype, indirect) of view v under mask ranges, the logical
    shape an instruction's arithmetic needs (the AP merges dims), masked as _make_ap masks."""
    dims, off = v.dims, v.off
    if ranges is not None and len(ranges) == len(dims):
        dims, off = _masked(dims, off, ranges)
    gather = None
    if type(v) is IndirectTensor:  # index tiles: (their operand, element stride, first axis), or False if masked
        gather = False if ranges is not None else tuple((value_operand(k, None), stride, axis)
                                                        for k, stride, axis in v.placed)
    return (v.buf, off, dims, v.dtype, gather)


def value_operands(ins, dsts, srcs, dst_ranges=None, src_ranges=None):
    """Value mode: keep the logical operands of ins ([dst operands], [src operands], op-specific notes)."""
    ins.vals = ([value_operand(v, dst_ranges) for v in dsts], [value_operand(v, src_ranges) for v in srcs], {})


def materialize_zeros(b, loc):
    """Emit the memset that a lazily kept `nl.zeros` of a PSUM tile stands for."""
    b.zeroed = False
    root = root_view(b)
    ap, n = make_ap(root, None)
    ins = Instr("memset", "vector", [ap], [], n, n * dtypes.SIZES[b.dtype], {"value": 0}, loc, T.iter_tuple,
                T.pid, None)
    if T.values:
        value_operands(ins, [root], [])
    T.instrs.append(ins)


def emit(op, engine, dsts, srcs, attrs=None, mask=None, space=None, loc=None):
    """Record one instruction; returns it, or None when a mask leaves nothing to do."""
    if loc is None:
        loc = T.loc(sys._getframe(1))
    ranges = None
    if mask is True:  # a mask that folded to a Python bool while tracing: all, or nothing, is written
        mask = None
    elif mask is False:
        for v in dsts:
            v.buf.written = True
        return None
    if mask is not None:
        if not hasattr(mask, "terms"):
            raise unsupported(f"mask of type {type(mask).__name__}", "masks are comparisons of nl.arange indices")
        shape = space if space is not None else dsts[0].shape
        ranges, exact = mask_ranges(mask, shape)
        if not exact:
            T.warn("mask is not a box of single-axis bounds; recorded as its bounding box", loc, ("mask", loc[:1]))
        if any(lo >= hi for lo, hi in ranges):
            for v in dsts:
                v.buf.written = True
            return None
    src_ranges = ranges
    src_aps = _source_operands(op, srcs, ranges, loc)
    if ranges is not None and space is not None and dsts and tuple(dsts[0].shape) != tuple(space):
        # The mask was given over the source's space (bn_stats reads [P, 512], writes [P, 6]): only its
        # partition bounds carry over to the destination.
        ranges = [ranges[0]] + [(0, d) for d in dsts[0].shape[1:]]
    dst_aps = []
    elements = 0
    first = True
    for v in dsts:
        b = v.buf
        dims = v.dims
        if ranges is None and dims is b.rdims and v.off == 0 and v.dtype == b.dtype:
            ap = b.rap
            if ap is None:
                ap = b.rap = _make_ap(v, None, dims, 0, b)
        else:
            ap = _make_ap(v, ranges, dims, v.off, b)
        if b.zeroed and op != "nc_matmul":
            materialize_zeros(b, loc)
        b.written = True
        if first:
            elements = ap[1]
            first = False
        dst_aps.append(ap[0])
    dt = dsts[0].dtype if dsts else "float32"
    if INDIRECT_SEEN[0] and (IndirectTensor in map(type, srcs) or IndirectTensor in map(type, dsts)):
        attrs = _read_index_tiles(srcs, dsts, src_aps, attrs, op, loc)
    ins = Instr(op, engine, dst_aps, src_aps, elements, elements * _SIZES[dt], attrs, loc,
                T.iter_tuple, T.pid, ranges)
    if T.values:
        value_operands(ins, dsts, srcs, ranges, src_ranges)
    T.instrs.append(ins)
    return ins


_SIZES = dtypes.SIZES


def _read_index_tiles(srcs, dsts, src_aps, attrs, op, loc):
    """An instruction on an indirect view also reads its index tiles (they decide the rows); returns the
    attributes with `indirect` set."""
    for v in list(srcs) + list(dsts):
        for idx in getattr(v, "indirect", ()):
            b = idx.buf
            if not b.written:
                raise kernel_error(f"{op} gathers through index tile '{b.name}' before anything was written to it",
                                   "load or compute the indices first")
            b.pinned = True
            src_aps.append(_make_ap(idx, None, idx.dims, idx.off, b)[0])
    T.warn("an indirect access (indexed by a tile) is recorded at the first row of its dimension: the bytes "
           "moved are right, the rows touched are not known while tracing", loc, ("indirect", loc[:1]))
    return dict(attrs or {}, indirect=True)


def root_dims(shape):
    dims, stride = [], 1
    for s in reversed(shape):
        dims.append((stride, s))
        stride *= s
    return tuple(reversed(dims))


def root_view(b):
    if b.rdims is None:
        b.rdims = root_dims(b.shape)
    return Tensor(b, 0, b.rdims, b.dtype, root=True, shape=b.shape)


_new_object = object.__new__  # _new_object(Buffer / Instr / Tensor): an instance with no slot set (see _seen_tile)
_tile_layouts = {}  # shape -> (root dims, partition stride, root pcount, root pattern, root elements)


# (shape, dtype, memory) -> (root dims, partition stride, (0, pcount, 0, pattern, dtype), elements, bytes); the
# byte count is one int object for all the instructions that write such a tile whole (an int per instruction
# would be kept by each).
_fresh = {}


def _seen_tile(hit, shape, dtype, memory, loc, fallback_name, temp):
    """The buffer of a new tile of a shape, dtype and memory seen before (`hit`: its entry in _fresh): the checked
    layout and the whole-tile operand come from the entry."""
    dims, ps, tail, n, _ = hit
    decl = loc[0] if loc else (0, 0)
    name = T._names.get(decl) if loc else None  # T.var_name(loc, fallback_name), its cache looked up here first
    # Buffer(...) written out field by field (_new_object: no __init__ through the type's slots, a Python call less
    # per tile); test_views.RecordingShortcuts compares every slot with the class's.
    buf = _new_object(Buffer)
    buf.name = name or T.var_name(loc, fallback_name)
    buf.memory = memory
    buf.shape = shape
    buf.dtype = dtype
    buf.role = "tile"
    buf.decl = decl
    buf.kind = ""
    buf.pstride = ps
    buf.written = False
    buf.zeroed = False
    buf.mm_keys = None
    buf.temp = temp
    buf.pinned = False
    buf.dropped = False
    buf.producer = None
    buf.id = -1
    buf.rdims = dims
    buf.rap = ((buf,) + tail, n)
    T.buffers.append(buf)
    return buf


def new_tile(shape, dtype, memory, loc, fallback_name, temp=True, role="tile"):
    if type(shape) is not tuple:
        shape = tuple(shape)
    if role == "tile":
        hit = _fresh.get((shape, dtype, memory))
        if hit is not None:
            return Tensor(_seen_tile(hit, shape, dtype, memory, loc, fallback_name, temp), 0, hit[0], dtype, None, True,
                          shape)
    name = T.var_name(loc, fallback_name)
    if memory != "hbm" and (memory, shape, dtype) not in _checked_shapes:
        check_onchip_shape(memory, shape, dtype)
    lay = _tile_layouts.get(shape)
    if lay is None:
        dims = root_dims(shape)
        ps = 1
        for d in shape[1:]:
            ps *= d
        # The root dims of a plain shape always have a valid on-chip layout (see _onchip_layout).
        pc, pat, n = _onchip_layout(dims, ps, None)
        lay = _tile_layouts[shape] = (dims, ps, pc, pat, n)
    dims = lay[0]
    buf = Buffer(name, memory, shape, dtype, role, loc[0] if loc else (0, 0), "", lay[1])
    T.buffers.append(buf)
    buf.temp = temp
    buf.rdims = dims
    if memory != "hbm":
        buf.rap = ((buf, 0, lay[2], 0, lay[3], dtype), lay[4])
        if role == "tile":
            _fresh[(shape, dtype, memory)] = (dims, lay[1], (0, lay[2], 0, lay[3], dtype), lay[4],
                                              lay[4] * _SIZES[dtype])
    return Tensor(buf, 0, dims, dtype, None, True, shape)


def _source_operands(op, srcs, ranges, loc):
    """The operands an instruction reads, under mask `ranges` (None: unmasked); every on-chip source must
    hold data (a pending nl.zeros is written first). A whole unmasked tile reuses its buffer's cached AP."""
    src_aps = []
    for v in srcs:
        b = v.buf
        dims = v.dims
        if ranges is None and dims is b.rdims and v.off == 0 and v.dtype == b.dtype:
            ap = b.rap
            if ap is None:
                ap = b.rap = _make_ap(v, None, dims, 0, b)
            ap = ap[0]
        elif ranges is None and v.checks is None:
            # A view with its bounds checked (views._EAGER_BOUNDS, or slices): _make_ap's tail, inlined for a layout
            # seen before.
            off = v.off
            if b.memory == "hbm":
                hit = _hbm_layouts.get(dims)
                ap = (b, -1, 0, off, hit[0], v.dtype) if hit is not None else _make_ap(v, None, dims, off, b)[0]
            else:
                ps = b.pstride
                hit = _onchip_layouts.get((dims, ps)) if v.dtype == b.dtype else None
                if hit is None:
                    ap = _make_ap(v, None, dims, off, b)[0]
                else:
                    p0 = off // ps if ps else off
                    ap = (b, p0, hit[0], off - p0 * ps, hit[1], v.dtype)
        else:
            ap = _make_ap(v, ranges, dims, v.off, b)[0]
        if b.memory != "hbm":
            if b.zeroed and (b.mm_keys is None or (ap[1], ap[3]) not in b.mm_keys):
                materialize_zeros(b, loc)
            elif not b.written:
                raise kernel_error(f"{op} reads tile '{b.name}' before anything was written to it",
                                   "load or compute the tile before using it (uninitialized on-chip memory)")
        b.pinned = True
        src_aps.append(ap)
    return src_aps


def emit_new(op, engine, res, srcs, attrs, loc):
    """`emit(op, engine, [res], srcs, attrs, loc=loc)` without a mask, for `res` fresh from new_tile."""
    src_aps = _source_operands(op, srcs, None, loc)
    if INDIRECT_SEEN[0] and IndirectTensor in map(type, srcs):
        attrs = _read_index_tiles(srcs, (), src_aps, attrs, op, loc)
    b = res.buf
    ap, n = b.rap
    b.written = True
    # Operand tuples, not lists: one allocation less each, and every instruction stays in memory until the IR is
    # written (retarget replaces a tuple's destination; replication only reads and concatenates them).
    ins = Instr(op, engine, (ap,), tuple(src_aps), n, n * _SIZES[res.dtype], attrs, loc, T.iter_tuple, T.pid,
                None)
    if T.values:
        value_operands(ins, [res], srcs)
    T.instrs.append(ins)
    return ins


def emit_fresh(op, engine, shape, dtype, memory, srcs, attrs, loc, fallback_name):
    """A new temporary tile written by one unmasked instruction (`new_tile` then `emit_new`, the result's producer
    set) in one step for the hot legacy calls (nl.load, nl.matmul): a tile of a shape, dtype and memory seen
    before takes its checked layout and whole-tile operand from `_fresh` through `_seen_tile`, as new_tile does (the
    shared helper's extra call measured below the noise: docs/simulator.md, 2026-12-02 plain3)."""
    if type(shape) is not tuple:
        shape = tuple(shape)
    hit = _fresh.get((shape, dtype, memory))
    if hit is None or T.values or INDIRECT_SEEN[0]:
        res = new_tile(shape, dtype, memory, loc, fallback_name)
        res.buf.producer = emit_new(op, engine, res, srcs, attrs, loc)
        return res
    buf = _seen_tile(hit, shape, dtype, memory, loc, fallback_name, True)
    ap, n = buf.rap
    src_aps = _source_operands(op, srcs, None, loc)
    buf.written = True
    # The instruction and the result view field by field too (every slot as Instr(...) and Tensor(...) set it).
    buf.producer = ins = _new_object(Instr)
    ins.op = op
    ins.engine = engine
    ins.dst = (ap,)
    ins.src = tuple(src_aps)
    ins.elements = n
    ins.nbytes = hit[4]
    ins.attrs = attrs
    ins.loc = loc
    ins.iter = T.iter_tuple
    ins.pid = T.pid
    ins.ranges = None
    T.instrs.append(ins)
    res = _new_object(Tensor)
    res.buf = buf
    res.off = 0
    res.dims = hit[0]
    res.dtype = dtype
    res.shape = shape
    res.checks = None
    res.root = True
    res.inplace = False
    return res


def squeeze_free(shape):
    if not shape:
        return ()
    return (shape[0],) + tuple(d for d in shape[1:] if d != 1)


def same_shape(a, b):
    return a == b or squeeze_free(a) == squeeze_free(b)


def require_shape(what, expected, got, name="destination"):
    if not same_shape(tuple(expected), tuple(got)):
        raise kernel_error(f"shape mismatch in {what}: {name} is {list(got)} but the result is {list(expected)}",
                           "make the destination tile the same shape as the result")


def require_onchip(v, what, role="operand"):
    if not isinstance(v, Tensor):
        raise kernel_error(f"{what}: {role} must be a tile, got {type(v).__name__}")
    if v.buf.memory == "hbm":
        raise kernel_error(f"{what}: {role} '{v.buf.name}' is in HBM; compute engines read SBUF/PSUM tiles",
                           "load it into SBUF first with nl.load / nisa.dma_copy")


def check_partitions(shape, what):
    if shape and shape[0] > HW.pmax:
        raise kernel_error(f"{what}: partition dimension {shape[0]} exceeds {HW.pmax}",
                           f"tile the partition dimension in blocks of nl.tile_size.pmax ({HW.pmax})")


def dtype_arg(dtype, default):
    if dtype is None:
        return default
    d = dtypes.normalize(dtype)
    if d is None:
        raise unsupported(f"dtype {dtype!r}", "use one of nl.float32, nl.bfloat16, nl.float16, nl.int32, ...")
    return d


def load_fresh(src, loc):
    """nl.load(src) into a new temporary tile (unmasked HBM source of at most 128 partitions)."""
    dst = new_tile(src.shape, src.dtype, "sbuf", loc, "load")
    dst.buf.producer = emit_new("dma_copy", "dma", dst, [src], None, loc)
    return dst
