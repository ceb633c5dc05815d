"""Operation semantics shared by both API generations.

Every function takes an optional `dst` view: None means "allocate the result tile" (legacy calls that
return their result), a view means "write there" (standalone calls that name their destination).
Results of legacy calls are temporary tiles whose producing instruction is retargeted when the
result is assigned into another tile (`t[...] = nl.exp(x)` writes `t` directly, as the compiler does).
"""
import numbers
import sys

from .bytecode import following
from . import dtypes
from .emit import (emit, value_operand, emit_new, make_ap, new_tile, require_shape, require_onchip, dtype_arg,
                   check_partitions)
from .errors import kernel_error, unsupported
from .hwprofile import HW
from .tracer import CODES, T
from .views import Tensor

ENGINES = {"tensor", "vector", "scalar", "gpsimd"}
_SIZES = dtypes.SIZES


# NumPy functions passed as ALU / activation ops carry NumPy's names (np.max.__name__ is "amax" in
# NumPy 1.x, np.abs is "absolute", ...); the IR names every op the way nl does.
OP_ALIASES = {"amax": "max", "amin": "min", "true_divide": "divide", "absolute": "abs", "remainder": "mod",
              "sum": "add", "prod": "multiply", "product": "multiply", "all": "logical_and",
              "any": "logical_or", "fmax": "maximum", "fmin": "minimum", "bitwise_invert": "invert",
              "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift", "pow": "power"}


def op_name(op):
    if op is None:
        return None
    if isinstance(op, str):
        return OP_ALIASES.get(op, op)
    name = getattr(op, "_kl_name", None) or getattr(op, "__name__", None)
    if not name or not isinstance(name, str):
        raise unsupported(f"operator {op!r}", "pass an nl function such as nl.add or nl.exp")
    return OP_ALIASES.get(name, name)


def engine_arg(engine, default):
    e = getattr(engine, "value", engine)
    return e if e in ENGINES else default


def _loc():
    return T.loc(sys._getframe(2))


def _result(dst, shape, dtype, memory, loc, hint, what):
    if dst is None:
        return new_tile(shape, dtype, memory, loc, hint)
    if not isinstance(dst, Tensor):
        raise kernel_error(f"{what}: dst must be a tile, got {type(dst).__name__}")
    require_shape(what, shape, dst.shape)
    return dst


def _is_tile(x):
    return isinstance(x, Tensor)


def _bshape(what, a, b):
    # Tiles align on the partition dim (the first), so the shorter shape is padded on the right:
    # a [128] tile (m[:, 0]) with a [128, 1] tile is [128, 1], not NumPy's [128, 128].
    n = max(len(a), len(b))
    a2 = tuple(a) + (1,) * (n - len(a))
    b2 = tuple(b) + (1,) * (n - len(b))
    out = []
    for x, y in zip(a2, b2):
        if x != y and x != 1 and y != 1:
            raise kernel_error(f"shape mismatch in {what}: {list(a)} and {list(b)}",
                               "elementwise operands must have equal shapes (a dimension of size 1 broadcasts)")
        out.append(x if y == 1 else y)
    return tuple(out)


def _scalar(x):
    """A Python or NumPy number (np.int32(4) from kernel arithmetic counts as an immediate too)."""
    return isinstance(x, (int, float, bool)) or (isinstance(x, numbers.Number) and hasattr(x, "item"))


# ---------------------------------------------------------------------------------------------- assignment
def assign(dst, value):
    """`dst_view[...] = value`."""
    if type(value) is Tensor:
        vb = value.buf
        if vb.temp and value.root and not vb.pinned and vb.producer is not None:
            if not (vb.producer.op == "nc_matmul" and dst.buf.memory != "psum"):
                return retarget(value, dst, accumulate=False)
            # `sbuf_tile[...] = nl.matmul(...)`: the matmul stays in PSUM and a copy moves the result.
    loc = T.loc(sys._getframe(1))
    if type(value) is Tensor:
        pass
    elif _scalar(value):
        return memset(dst, value, loc=loc)
    elif not isinstance(value, Tensor):
        raise unsupported(f"assigning a {type(value).__name__} to a tile")
    elif value.buf.temp and value.root and not value.buf.pinned and value.buf.producer is not None:
        if not (value.buf.producer.op == "nc_matmul" and dst.buf.memory != "psum"):
            return retarget(value, dst, accumulate=False)
    require_shape("assignment", value.shape, dst.shape)
    if dst.buf.memory == "hbm" or value.buf.memory == "hbm":
        if dst.buf.memory == "hbm" and value.buf.memory != "hbm" and T.api_seen == {"legacy"}:
            raise kernel_error("assigning a tile to an HBM tensor", "write HBM with nl.store(dst, value)")
        return emit("dma_copy", "dma", [dst], [value], None, loc=loc)
    return emit("tensor_copy", "vector", [dst], [value], None, loc=loc)


def retarget(value, dst, accumulate):
    """Make the instruction that produced temporary `value` write `dst` instead (no extra copy)."""
    ins = value.buf.producer
    vs, ds = value.shape, dst.shape
    if vs != ds:
        require_shape("assignment", vs, ds)
    db = dst.buf
    if db.memory == "hbm" and ins.engine != "dma":
        raise kernel_error(f"the result of {ins.op} cannot be written to HBM tensor '{db.name}' directly",
                           "compute into an SBUF tile, then nl.store it")
    is_mm = ins.op == "nc_matmul"
    ranges = ins.ranges
    if ranges and len(ranges) == len(dst.dims):
        if is_mm:
            ins.attrs = mm_attrs(ins.attrs, _matmul_acc(dst, accumulate))
        ap, n = make_ap(dst, ranges)
    elif is_mm:
        acc, (ap, n) = _matmul_acc_ap(dst, accumulate)
        pair = _MM_SHARED.get(id(ins.attrs))  # mm_attrs' first step inlined: a matmul's attrs are shared already
        ins.attrs = mm_attrs(ins.attrs, acc) if pair is None else pair[bool(acc)]
    else:
        ap, n = make_ap(dst, None)
    aps = ins.dst
    if type(aps) is tuple:  # emit_new / emit_fresh record operand tuples, emit lists
        ins.dst = (ap,) + aps[1:]
    else:
        aps[0] = ap
    if T.values:
        ins.vals[0][0] = value_operand(dst, ranges if ranges and len(ranges) == len(dst.dims) else None)
    nbytes = n * _SIZES[dst.dtype]
    if nbytes != ins.nbytes:  # usually the same count: the instruction keeps the int object it has
        ins.nbytes = nbytes
    ins.elements = n
    db.written = True
    db.zeroed = db.zeroed and is_mm
    vb = value.buf
    vb.dropped = True
    if T.buffers[-1] is vb and len(T.buffers) > T.marked and not T.values:
        # A dropped temporary is never written to the IR and, past replication's latest mark (T.marked), nothing
        # refers to it by its position, so it leaves the trace and its memory is freed (its whole-tile operand
        # refers to it: a cycle that the disabled collector would keep). Replicated iterations then describe
        # fewer buffers.
        T.buffers.pop()
        vb.rap = None
    value.buf = db
    value.off = dst.off
    value.dims = dst.dims
    value.dtype = dst.dtype
    value.shape = ds
    value.root = False
    return dst


# The PSUM regions a fresh matmul result accumulates into (its whole tile), shared by every such buffer until one
# is accumulated into again (_matmul_acc_ap makes that one its own set): a set per matmul costs 216 bytes.
FRESH_MM_KEYS = frozenset(((0, 0),))
_MM_ATTRS = {}  # matmul attrs without "accumulate" -> {False: shared dict, True: shared dict}
_MM_SHARED = {}  # id(shared dict) -> its {False: ..., True: ...} (shared dicts live as long as the trace)


def mm_attrs(attrs, accumulate):
    """The attrs of a matmul with `accumulate` set: one shared dict per distinct content, so that
    instructions can share them (and the IR writer their text). Shared dicts are never modified."""
    pair = _MM_SHARED.get(id(attrs))
    if pair is None:
        key = tuple([kv for kv in attrs.items() if kv[0] != "accumulate"])
        pair = _MM_ATTRS.get(key)
        if pair is None:
            pair = _MM_ATTRS[key] = {}
            for acc in (False, True):
                d = dict(attrs)
                d["accumulate"] = acc
                pair[acc] = d
                _MM_SHARED[id(d)] = pair
    return pair[bool(accumulate)]


def _matmul_acc(dst, accumulate):
    """Whether a matmul into dst accumulates onto a partial sum already there (and the read check)."""
    return _matmul_acc_ap(dst, accumulate)[0]


def _matmul_acc_ap(dst, accumulate):
    """(_matmul_acc, (AP, elements) of dst without a mask)."""
    b = dst.buf
    if b.memory != "psum":
        raise kernel_error(f"matmul output is written to {b.memory} tile '{b.name}'; TensorE writes PSUM only",
                           "accumulate into a tile allocated with buffer=nl.psum, then copy it to SBUF")
    apn = b.rap  # make_ap(dst, None), whose commonest case (the whole tile: its cached operand) is inlined
    if apn is None or dst.dims is not b.rdims or dst.off != 0 or dst.dtype != b.dtype:
        apn = make_ap(dst, None)
    ap = apn[0]
    key = (ap[1], ap[3])
    keys = b.mm_keys
    if keys is None or keys is FRESH_MM_KEYS:
        keys = b.mm_keys = set(keys or ())
    if accumulate is True:
        if key in keys:
            acc = True
        elif b.zeroed:
            acc = False
        elif b.written:
            acc = True
        else:
            # The hardware starts an accumulation group with the first matmul into the bank, so this is
            # what the kernel gets on the device (public tutorials rely on it); still worth a note.
            T.warn(f"'+=' accumulates into PSUM tile '{b.name}' before anything was written to it: the first "
                   "matmul starts the sum (use nl.zeros(..., buffer=nl.psum) to say so)",
                   once_key=("psum-acc", b.decl))
            acc = False
    elif accumulate is None:
        acc = key in keys or (b.written and not b.zeroed)
    else:
        acc = False
    keys.add(key)
    return acc, apn


def inplace_op(view, other, op):
    """`view += other` and friends; `psum += nl.matmul(...)` becomes an accumulating matmul."""
    if op == "add" and type(other) is Tensor:
        ob = other.buf
        if ob.temp and other.root and not ob.pinned and ob.producer is not None and ob.producer.op == "nc_matmul":
            retarget(other, view, accumulate=True)
        elif ob.temp and ob.producer is None and ob.written:
            view.buf.written = True  # a matmul whose mask folded to False: nothing happens, as on the device
        else:
            binary_op(op, view, other, dst=view, loc=T.loc(sys._getframe(1)))
    elif (op == "add" and isinstance(other, Tensor) and other.buf.temp and other.root and not other.buf.pinned
            and other.buf.producer is not None and other.buf.producer.op == "nc_matmul"):
        retarget(other, view, accumulate=True)
    else:
        binary_op(op, view, other, dst=view, loc=T.loc(sys._getframe(1)))
    # `t[k] += x` ends with t.__setitem__(k, view), which must not record anything more; `name += x`
    # has no such store, and a flag left set would swallow a later `u[...] = name`.
    if _augmented_subscript(sys._getframe(2)):
        view.inplace = True
    return view


_AUG_STORE = {}  # (id(code), instruction offset of the in-place operator) -> whether a STORE_SUBSCR follows


def _augmented_subscript(frame):
    if frame is None:
        return False
    code = frame.f_code
    key = (id(code), frame.f_lasti)  # by id: see tracer.CODES
    hit = _AUG_STORE.get(key)
    if hit is None:
        CODES[key[0]] = code
        hit = False
        for i in following(code, frame.f_lasti):
            if i.opname in ("SWAP", "ROT_TWO", "ROT_THREE", "COPY"):
                continue
            hit = i.opname == "STORE_SUBSCR"
            break
        _AUG_STORE[key] = hit
    return hit


# ---------------------------------------------------------------------------------------------- elementwise
_SHARED_ATTRS = {}  # (key, value, type of the value) pairs -> the one dict with that content
_SHARABLE = (int, str, bool)


def shared_attrs(*items):
    """The attributes `dict(items)` as one dict object per distinct content, so that the IR writers format them
    once rather than once per instruction (they cache the text by the dict's identity), as matmuls and
    transposes share theirs. Values are told apart by type as well (1, 1.0 and True are equal keys); floats
    are shared unless zero (-0.0 == 0.0) or NaN, other types never. Shared dicts are never modified."""
    key = []
    for k, v in items:
        t = type(v)
        if t is float:
            if not v or v != v:
                return dict(items)
        elif t not in _SHARABLE:
            return dict(items)
        key.append((k, v, t))
    key = tuple(key)
    attrs = _SHARED_ATTRS.get(key)
    if attrs is None:
        attrs = _SHARED_ATTRS[key] = dict(items)
    return attrs


def binary_op(op, x, y, dtype=None, mask=None, dst=None, loc=None, engine=None):
    loc = loc or _loc()
    xt, yt = _is_tile(x), _is_tile(y)
    if not xt and not yt:
        raise unsupported(f"nl.{op} on two Python scalars", "compute constants in Python directly")
    if xt and yt:
        require_onchip(x, f"nl.{op}")
        require_onchip(y, f"nl.{op}")
        shape = _bshape(f"nl.{op}", x.shape, y.shape)
        out_dt = dtype_arg(dtype, dtypes.promote(x.dtype, y.dtype))
        res = _result(dst, shape, out_dt, "sbuf", loc, op, f"nl.{op}")
        xs, ys = x.shape, y.shape
        if len(xs) == len(ys) == 2 and xs[0] == ys[0] and xs[1] != ys[1] and 1 in (xs[1], ys[1]):
            data, vec = (x, y) if ys[1] == 1 else (y, x)
            ins = emit("tensor_scalar", engine or "vector", [res], [data, vec],
                       shared_attrs(("op0", op), ("reverse0", data is y)), mask, loc=loc)
        else:
            ins = emit("tensor_tensor", engine or "vector", [res], [x, y], shared_attrs(("op0", op)), mask, loc=loc)
    else:
        tile, scalar, reverse = (x, y, False) if xt else (y, x, True)
        require_onchip(tile, f"nl.{op}")
        if not _scalar(scalar):
            raise unsupported(f"nl.{op} with an operand of type {type(scalar).__name__}")
        out_dt = dtype_arg(dtype, tile.dtype)
        res = _result(dst, tile.shape, out_dt, "sbuf", loc, op, f"nl.{op}")
        ins = emit("tensor_scalar", engine or "vector", [res], [tile],
                   shared_attrs(("op0", op), ("operand0", scalar), ("reverse0", reverse)), mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def unary_op(func, x, dtype=None, mask=None, dst=None, bias=None, scale=1.0, loc=None):
    """Activation functions run on ScalarE: out = func(x * scale + bias)."""
    loc = loc or _loc()
    require_onchip(x, f"nl.{func}")
    res = _result(dst, x.shape, dtype_arg(dtype, x.dtype), "sbuf", loc, func, f"nl.{func}")
    srcs = [x]
    attrs = {"func": func}
    if _is_tile(bias):
        require_onchip(bias, f"activation {func}", "bias")
        srcs.append(bias)
    elif bias is not None:
        attrs["bias"] = bias
    if _is_tile(scale):
        require_onchip(scale, f"activation {func}", "scale")
        srcs.append(scale)
    elif scale != 1.0:
        attrs["scale"] = scale
    ins = emit("activation", "scalar", [res], srcs, attrs, mask, loc=loc)
    if T.values and ins is not None:
        ins.vals[2]["roles"] = ["data"] + ["bias"] * _is_tile(bias) + ["scale"] * _is_tile(scale)
    if dst is None:
        res.buf.producer = ins
    return res


def vector_unary(op, x, dtype=None, mask=None, dst=None):
    """Unary ops that VectorE does as `x op constant` (negative, logical_not, invert)."""
    loc = _loc()
    require_onchip(x, f"nl.{op}")
    res = _result(dst, x.shape, dtype_arg(dtype, x.dtype), "sbuf", loc, op, f"nl.{op}")
    ins = emit("tensor_scalar", "vector", [res], [x], {"op0": op}, mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def reduced_shape(shape, axes, keepdims):
    """Result shape of a free-axis reduction. The partition axis (0) always stays: with keepdims the
    reduced axes stay as size 1; without, they are removed, and a tile left with no free axis keeps
    one of size 1 ([P, F] -> [P, 1], [P, A, B] over (1, 2) -> [P, 1], over (2,) -> [P, A])."""
    if not shape:
        return (1,)
    if keepdims:
        return (shape[0],) + tuple(1 if a in axes else n for a, n in enumerate(shape) if a)
    free = tuple(n for a, n in enumerate(shape) if a and a not in axes)
    return (shape[0],) + (free or (1,))


def reduce(op, x, axis, dtype=None, mask=None, keepdims=False, dst=None, negate=False, loc=None):
    loc = loc or _loc()
    require_onchip(x, f"nl.{op}")
    rank = len(x.shape)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(sorted(a + rank if a < 0 else a for a in axes))
    for a in axes:
        if a < 0 or a >= rank:
            raise kernel_error(f"reduction axis {a} is out of range for a tile of rank {rank}")
    if 0 in axes and x.shape[0] > 1:
        raise kernel_error(f"{op} over the partition axis (axis 0) of {list(x.shape)}",
                           "engines reduce along free axes only: transpose the tile or reduce axis=1")
    shape = reduced_shape(x.shape, axes, keepdims)
    res = _result(dst, shape, dtype_arg(dtype, x.dtype), "sbuf", loc, op, f"nl.{op}")
    attrs = {"op0": op, "axis": list(axes)}
    if negate:
        attrs["negate"] = True
    ins = emit("tensor_reduce", "vector", [res], [x], attrs, mask, space=x.shape, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def copy(x, dtype=None, mask=None, dst=None, engine=None, loc=None):
    loc = loc or _loc()
    require_onchip(x, "copy", "source")
    res = _result(dst, x.shape, dtype_arg(dtype, x.dtype), "sbuf", loc, "copy", "copy")
    ins = emit("tensor_copy", engine_arg(engine, "vector"), [res], [x], None, mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def memset(dst, value, dtype=None, shape=None, mask=None, engine=None, loc=None):
    loc = loc or _loc()
    if dst is None:
        dst = new_tile(tuple(shape), dtype_arg(dtype, "float32"), "sbuf", loc, "memset")
        created = True
    else:
        created = False
    if dst.buf.memory == "hbm":
        raise kernel_error(f"memset of HBM tensor '{dst.buf.name}'", "memset writes SBUF/PSUM tiles")
    ins = emit("memset", engine_arg(engine, "vector"), [dst], [], {"value": value}, mask, loc=loc)
    if created:
        dst.buf.producer = ins
    return dst


def select(cond, x, y, dtype=None, mask=None, dst=None):
    loc = _loc()
    tiles = [t for t in (cond, x, y) if _is_tile(t)]
    if not _is_tile(cond):
        raise unsupported("nl.where with a condition that is not a tile")
    for t in tiles:
        require_onchip(t, "nl.where")
    shape = cond.shape
    for t in tiles[1:]:
        shape = _bshape("nl.where", shape, t.shape)
    dt = dtype_arg(dtype, x.dtype if _is_tile(x) else (y.dtype if _is_tile(y) else "float32"))
    res = _result(dst, shape, dt, "sbuf", loc, "where", "nl.where")
    attrs = {}
    if not _is_tile(x):
        attrs["on_true_value"] = x
    if not _is_tile(y):
        attrs["on_false_value"] = y
    ins = emit("select", "vector", [res], tiles, attrs or None, mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def broadcast_to(src, shape):
    loc = _loc()
    require_onchip(src, "nl.broadcast_to", "source")
    shape = tuple(shape)
    if len(shape) != len(src.shape):
        raise kernel_error(f"nl.broadcast_to: cannot broadcast {list(src.shape)} to {list(shape)}")
    dims = []
    for (s, c), n in zip(src.dims, shape):
        if c == n:
            dims.append((s, c))
        elif c == 1:
            dims.append((0, n))
        else:
            raise kernel_error(f"nl.broadcast_to: cannot broadcast {list(src.shape)} to {list(shape)}",
                               "only dimensions of size 1 can be broadcast")
    if src.shape[0] == shape[0]:
        return Tensor(src.buf, src.off, tuple(dims), src.dtype)
    # Partition broadcast. The compiler does it on TensorE, a matmul of a ones row with the source row, into PSUM
    # (Trainium/Inferentia2 architecture guide for NKI, "Partition Broadcast"; the fused Mamba tutorial: a
    # partition-dim broadcast needs a separate TensorE instruction), when the row fits one matmul: one source
    # partition and at most 512 free elements (one PSUM bank). The consumer then reads PSUM. Wider rows stay a
    # copy across partitions on VectorE.
    free = 1
    for n in shape[1:]:
        free *= n
    if src.shape[0] == 1 and len(shape) == 2 and shape[0] <= HW.pmax and free <= HW.psum_fmax:
        res = new_tile(shape, src.dtype, "psum", loc, "broadcast")
        res.buf.producer = emit("nc_matmul", "tensor", [res], [src],
                                {"broadcast": True, "accumulate": False, "dtype_in": src.dtype, "moving_free": free,
                                 "stationary_free": shape[0], "contraction": 1}, loc=loc)
        return res
    res = new_tile(shape, src.dtype, "sbuf", loc, "broadcast")
    res.buf.producer = emit("tensor_copy", "vector", [res], [src], {"broadcast": True}, loc=loc)
    return res


# ---------------------------------------------------------------------------------------------- data movement
def dma(dst, src, mask=None, dtype=None, what="nl.load", loc=None, transpose=False):
    loc = loc or _loc()
    if not isinstance(src, Tensor):
        raise kernel_error(f"{what}: source must be a tensor, got {type(src).__name__}")
    shape = tuple(reversed(src.shape)) if transpose else src.shape
    created = dst is None
    if created:
        if src.buf.memory != "hbm" and what == "nl.load":
            raise kernel_error(f"nl.load reads HBM, but '{src.buf.name}' is a {src.buf.memory} tile",
                               "use nl.copy for on-chip copies")
        check_partitions(shape, what)
        dst = new_tile(shape or (1,), dtype_arg(dtype, src.dtype), "sbuf", loc, "load")
    elif not isinstance(dst, Tensor):
        raise kernel_error(f"{what}: destination must be a tensor, got {type(dst).__name__}")
    elif _unit_free(shape) != _unit_free(dst.shape):
        require_shape(what, shape, dst.shape)
    if dst.buf.memory == "psum" or src.buf.memory == "psum":
        raise kernel_error(f"{what}: DMA cannot access PSUM", "copy the PSUM tile to SBUF first (nl.copy)")
    attrs = _TRANSPOSE_ATTRS if transpose else None
    if created:
        if mask is None:
            ins = emit_new("dma_copy", "dma", dst, [src], attrs, loc)
        else:
            ins = emit("dma_copy", "dma", [dst], [src], attrs, mask, loc=loc)
        dst.buf.producer = ins
    else:
        emit("dma_copy", "dma", [dst], [src], attrs, mask, loc=loc)
    return dst


def _unit_free(shape):
    """A DMA moves elements: [32] and [1, 32] (or [] and [1, 1]) describe the same transfer."""
    return tuple(d for d in shape if d != 1)


def store(dst, value, mask=None, loc=None):
    loc = loc or _loc()
    if not isinstance(dst, Tensor) or dst.buf.memory != "hbm":
        raise kernel_error("nl.store writes an HBM tensor; the destination is "
                           + (f"{dst.buf.memory} tile '{dst.buf.name}'" if isinstance(dst, Tensor) else repr(dst)),
                           "store into a kernel argument or an nl.shared_hbm tensor")
    if not isinstance(value, Tensor):
        raise kernel_error(f"nl.store: value must be a tile, got {type(value).__name__}")
    if value.buf.memory == "hbm":
        raise kernel_error("nl.store: value is an HBM tensor", "store SBUF tiles; use nisa.dma_copy for HBM to HBM")
    require_shape("nl.store", value.shape, dst.shape, name="value")
    if value.buf.memory == "psum":
        value = copy(value, loc=loc)
    emit("dma_copy", "dma", [dst], [value], None, mask, loc=loc)


# Shared by every transpose, DMA (dma) and TensorE (tensor_engine.nc_transpose), never modified: the IR writers
# format it once.
_TRANSPOSE_ATTRS = {"is_transpose": True}


def psum_bank_check(shape, dtype, what):
    free = 1
    for d in shape[1:]:
        free *= d
    nbytes = free * dtypes.SIZES[dtype]
    if nbytes > HW.psum_bank_bytes:
        raise kernel_error(f"{what}: PSUM tile {list(shape)} {dtype} needs {nbytes} bytes per partition, more than "
                           f"one {HW.psum_bank_bytes // 1024} KiB bank",
                           f"PSUM tiles hold at most {HW.psum_fmax} float32 per partition (nl.tile_size.psum_fmax)")


__all__ = [n for n in dir() if not n.startswith("_")] + ["_result", "_loc", "_is_tile", "_scalar"]
