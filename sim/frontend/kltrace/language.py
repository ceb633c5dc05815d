"""The `nl` namespace (neuronxcc.nki.language and nki.language): names and their implementations."""
import sys

from . import ops, alloc, language_more, matmul_fast, tensor_engine
from .bytecode import following
from .compiler import Allocator
from .alloc import MEMORIES, Memory, par_dim, _layout_cache as _ndarray_layouts
from .emit import check_partitions, emit_fresh
from .errors import unsupported
from .indexing import arange, mgrid, DynSlice
from .loops import affine_range, sequential_range, static_range, program_id, num_programs, program_ndim
from .hwprofile import HW
from .tracer import CODES, T, check_onchip_shape, Buffer
from .pending import LoadSite, pending_indexed_load
from .tensor import pending_load
from .views import Tensor


class _TileSize:
    """nl.tile_size: hardware tile limits; the memory sizes come from the hardware profile (hwprofile.py),
    the engines' tile limits are the ISA's."""
    gemm_stationary_fmax = 128
    gemm_moving_fmax = 512
    bn_stats_fmax = 512

    pmax = property(lambda self: HW.pmax)
    psum_fmax = property(lambda self: HW.psum_fmax)
    psum_num_banks = property(lambda self: HW.psum_banks)
    total_available_sbuf_size = property(lambda self: HW.sbuf_partition_bytes)

    def __getattr__(self, name):
        raise unsupported(f"nl.tile_size.{name}",
                          "available: pmax, psum_fmax, gemm_stationary_fmax, gemm_moving_fmax, bn_stats_fmax, "
                          "psum_num_banks, total_available_sbuf_size")


UNARY_ACTIVATIONS = ("exp", "log", "tanh", "sigmoid", "relu", "gelu", "gelu_apprx_tanh", "gelu_apprx_sigmoid",
                     "gelu_dx", "gelu_apprx_sigmoid_dx", "silu", "silu_dx", "sqrt", "rsqrt", "abs", "square", "erf", "erf_dx", "softplus",
                     "mish", "sin", "cos", "tan", "arctan", "sign", "ceil", "floor", "trunc", "reciprocal")
VECTOR_UNARY = ("negative", "logical_not", "invert", "bitwise_not")
BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "fmod", "mod",
          "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
          "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
          "left_shift", "right_shift")
REDUCTIONS = {"sum": "add", "max": "max", "min": "min", "mean": "mean", "prod": "multiply",
              "all": "logical_and", "any": "logical_or"}
DTYPE_NAMES = ("float32", "float16", "bfloat16", "tfloat32", "float8_e4m3", "float8_e5m2", "float8_e4m3fn",
               "int32", "int16", "int8", "uint32", "uint16", "uint8", "bool",
               "float8_e5m2_x4", "float8_e4m3fn_x4", "float4_e2m1fn_x4")


def _binary(name):
    def f(x, y, *, dtype=None, mask=None, **_):
        return ops.binary_op(name, x, y, dtype, mask)
    f.__name__ = name
    return f


def _unary(name):
    def f(x, *, dtype=None, mask=None, **_):
        return ops.unary_op(name, x, dtype, mask)
    f.__name__ = name
    return f


def _vunary(name):
    def f(x, *, dtype=None, mask=None, **_):
        return ops.vector_unary(name, x, dtype, mask)
    f.__name__ = name
    return f


def _reduction(name, alu):
    def f(x, axis, *, dtype=None, mask=None, keepdims=False, **_):
        return ops.reduce(alu if name != "mean" else "mean", x, axis, dtype, mask, keepdims)
    f.__name__ = name
    f._kl_name = alu
    return f


_new_buffer = Buffer


def ndarray(shape, dtype, *, buffer=None, name="", address=None, **_):
    loc = T.loc(sys._getframe(1))
    if address is not None:  # nki 0.x: (partition offset, byte offset) in the buffer's memory
        memory = getattr(buffer, "memory", "sbuf")
        buffer = Allocator(memory, {"address": list(address)})
    if type(shape) is tuple and len(shape) == 2 and (buffer is None or type(buffer) is Memory):  # not placed
        # alloc.allocate's cached-layout path for the common `nl.ndarray((P, F), dtype, buffer=...)`.
        hit = _ndarray_layouts.get((shape, dtype, buffer))
        if hit is not None and type(shape[0]) is not par_dim and type(shape[1]) is not par_dim:
            shape, dt, mem, ir_shape, dims, pstride, rap = hit
            buf = _new_buffer(name or T.var_name(loc, "tensor"), mem.memory, ir_shape, dt, "tile",
                              loc[0] if loc else (0, 0), "", pstride)
            T.buffers.append(buf)
            buf.rdims = dims
            if rap is not None:
                buf.rap = ((buf,) + rap[0], rap[1])
            return Tensor(buf, 0, dims, dt, None, True, shape)
    return alloc.allocate(shape, dtype, buffer, name, None, loc)


def zeros(shape, dtype, *, buffer=None, name="", **_):
    return alloc.allocate(shape, dtype, buffer, name, init=0)


def ones(shape, dtype, *, buffer=None, name="", **_):
    return alloc.allocate(shape, dtype, buffer, name, init=1)


def full(shape, fill_value, dtype, *, buffer=None, name="", **_):
    return alloc.allocate(shape, dtype, buffer, name, init=fill_value)


def empty_like(a, dtype=None, *, buffer=None, name="", **_):
    return alloc.like(a, dtype, buffer, name)


def zeros_like(a, dtype=None, *, buffer=None, name="", **_):
    return alloc.like(a, dtype, buffer, name, init=0)


def ones_like(a, dtype=None, *, buffer=None, name="", **_):
    return alloc.like(a, dtype, buffer, name, init=1)


def full_like(a, fill_value, dtype=None, *, buffer=None, name="", **_):
    return alloc.like(a, dtype, buffer, name, init=fill_value)


_STORED = {}  # (id(code), instruction offset of a call) -> how its statement stores the result (_store_kind)
# What a statement may compute between a call and the STORE_SUBSCR that stores the call's result (`t[bk, i.p,
# (mb * 8 + bk) * 128 + i.x] = nl.load(src)`): names, constants, attributes, arithmetic and tuples, no call. Index
# arithmetic with a tile would record an instruction: pending.store_pending sees it and puts the load back first.
_KEY_OPS = frozenset(("LOAD_FAST", "LOAD_CONST", "LOAD_DEREF", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "BINARY_OP",
                      "BUILD_TUPLE", "BUILD_SLICE"))
_TARGET_OPS = ("LOAD_FAST", "LOAD_NAME", "LOAD_GLOBAL", "LOAD_DEREF")
STORED_NOT, STORED_WHOLE = 0, 1


def _store_kind(frame):
    """STORED_WHOLE when the call at frame's offset is stored by `t[...] = <call>`, the call site's LoadSite (its
    memo, pending.py) when by `t[key] = <call>` with a key of _KEY_OPS only (no in-place operator), else
    STORED_NOT."""
    code = frame.f_code
    key = (id(code), frame.f_lasti)  # by id: see tracer.CODES
    hit = _STORED.get(key)
    if hit is None:
        CODES[key[0]] = code
        after = following(code, frame.f_lasti)
        hit = STORED_NOT
        if len(after) >= 3 and after[0].opname in _TARGET_OPS:
            if (after[1].opname == "LOAD_CONST" and after[1].argval is Ellipsis
                    and after[2].opname == "STORE_SUBSCR"):
                hit = STORED_WHOLE
            else:
                for i in after[1:]:
                    if i.opname == "STORE_SUBSCR":
                        hit = LoadSite()
                        break
                    if i.opname not in _KEY_OPS or (i.opname == "BINARY_OP" and "=" in i.argrepr):
                        break
        _STORED[key] = hit
    return hit


def load(src, *, mask=None, dtype=None, **_):
    f = sys._getframe(1)
    # T.loc(f)'s and _store_kind's cache hits, inlined here for a load that the kernel function itself makes (the
    # commonest: every tiled loop's loads); anything else calls them.
    lasti = f.f_lasti
    loc = T._top_locs.get(lasti) if f is T._top_frame else None
    if loc is None:
        loc = T.loc(f)
    if mask is None and dtype is None and type(src) is Tensor:
        # ops.dma(None, src, ...) for the common case: an unmasked load of an HBM view into a new tile.
        sb = src.buf
        shape = src.shape
        if sb.memory == "hbm" and shape and shape[0] <= HW.pmax:
            kind = _STORED.get((id(f.f_code), lasti))
            if kind is None:
                kind = _store_kind(f)
            if kind == STORED_WHOLE:
                # `t[...] = nl.load(src)`: the statement stores the result right away, and t's
                # __setitem__ records the DMA into t itself (tensor.pending_load), as retargeting the
                # temporary tile would, without building that tile.
                check_onchip_shape("sbuf", shape, src.dtype)
                return pending_load(src, loc)
            if type(kind) is LoadSite and not T.values:
                # `t[key] = nl.load(src)`, not in value mode: the same once the key is computed (pending.py), which also
                # checks the tile's shape.
                return pending_indexed_load(src, loc, kind)
            return emit_fresh("dma_copy", "dma", shape, src.dtype, "sbuf", [src], None, loc, "load")
    return ops.dma(None, src, mask, dtype, "nl.load", loc)


def load_transpose2d(src, *, mask=None, dtype=None, **_):
    return ops.dma(None, src, mask, dtype, "nl.load_transpose2d", transpose=True)


def store(dst, value, *, mask=None, **_):
    ops.store(dst, value, mask, T.loc(sys._getframe(1)))


def copy(src, *, mask=None, dtype=None, **_):
    return ops.copy(src, dtype, mask, loc=T.loc(sys._getframe(1)))


def matmul(x, y, *, transpose_x=False, mask=None, **_):
    fresh = transpose_x and mask is None and type(x) is Tensor and type(y) is Tensor
    if fresh:
        # fresh_matmul takes only SBUF operands: tried first, before the PSUM tests below.
        f = sys._getframe(1)  # T.loc(f), whose single-entry cache (a kernel frame's) is tested here first
        loc = T._loc_value if f is T._loc_frame and f.f_lasti == T._loc_lasti else T.loc(f)
        res = matmul_fast.fresh_matmul(x, y, loc, f)
        if res is not None:
            return res
    # nl.matmul is a high-level op: an operand in PSUM is copied to SBUF first, as the compiler does.
    copied = False
    if type(x) is Tensor and x.buf.memory == "psum":
        x = ops.copy(x, loc=T.loc(sys._getframe(1)))
        copied = True
    if type(y) is Tensor and y.buf.memory == "psum":
        y = ops.copy(y, loc=T.loc(sys._getframe(1)))
        copied = True
    if fresh:
        res = matmul_fast.fresh_matmul(x, y, loc, f) if copied else None  # the copies may be SBUF pairs it knows
        return matmul_fast.general_fresh(x, y, loc) if res is None else res
    return tensor_engine.matmul(x, y, transpose_x, mask, T.loc(sys._getframe(1)))


def transpose(x, *, dtype=None, mask=None, **_):
    return tensor_engine.nc_transpose(None, x, mask=mask, dtype=dtype)


def where(condition, x, y, *, dtype=None, mask=None, **_):
    return ops.select(condition, x, y, dtype, mask)


def broadcast_to(src, shape, **_):
    return ops.broadcast_to(src, shape)


def ds(start, size, step=1):
    return DynSlice(start, size, step)


def device_print(prefix, x=None, *_, **__):
    loc = T.loc(sys._getframe(1))
    T.warn("nl.device_print is ignored while tracing", loc, ("device_print", loc[:1]))


def identity(x, *, dtype=None, mask=None, **_):
    return ops.copy(x, dtype, mask)


def namespace(generation):
    ns = {
        "ndarray": ndarray, "zeros": zeros, "ones": ones, "full": full, "empty_like": empty_like,
        "zeros_like": zeros_like, "ones_like": ones_like, "full_like": full_like,
        "load": load, "store": store, "load_transpose2d": load_transpose2d, "copy": copy, "matmul": matmul,
        "transpose": transpose, "where": where, "broadcast_to": broadcast_to, "ds": ds,
        "device_print": device_print, "arange": arange, "mgrid": mgrid, "par_dim": par_dim,
        "affine_range": affine_range, "sequential_range": sequential_range, "static_range": static_range,
        "program_id": program_id, "num_programs": num_programs, "program_ndim": program_ndim,
        "tile_size": _TileSize(), "bool_": "bool", "tfloat32": "tfloat32",
    }
    ns.update(MEMORIES)
    for d in DTYPE_NAMES:
        ns[d] = d
    for n in BINARY:
        ns[n] = _binary(n)
    for n in UNARY_ACTIVATIONS:
        ns[n] = _unary(n)
    for n in VECTOR_UNARY:
        ns[n] = _vunary(n)
    for n, alu in REDUCTIONS.items():
        ns[n] = _reduction(n, alu)
    ns["identity"] = identity
    ns.update(language_more.namespace())
    return ns


__all__ = ["namespace", "check_partitions"]
