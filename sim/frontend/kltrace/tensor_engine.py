"""TensorE's operations: nc_matmul, nc_transpose and the legacy nl.matmul, with their operand checks.

Split from ops.py (the operator layer's shared semantics), which it builds on: `+=` into PSUM (ops.retarget,
ops.inplace_op) turns a fresh matmul recorded here into an accumulating one through ops.mm_attrs.
"""
from .emit import squeeze_free, emit, emit_fresh, emit_new, new_tile, require_shape, require_onchip, dtype_arg
from .errors import kernel_error
from .ops import _TRANSPOSE_ATTRS, FRESH_MM_KEYS, _loc, _matmul_acc, _result, copy, engine_arg, mm_attrs
from .tracer import T
from .views import Tensor

_MM_DTYPES = ("float8_e4m3", "float8_e5m2", "float8_e4m3fn", "bfloat16", "float16", "tfloat32", "float32",
              "float8_e5m2_x4", "float8_e4m3fn_x4", "float4_e2m1fn_x4")


def _mm_operand(t, role):
    if t.buf.memory != "sbuf":
        raise kernel_error(f"matmul {role} operand '{t.buf.name}' is in {t.buf.memory}; TensorE reads SBUF",
                           "copy the tile to SBUF first (nl.copy)")
    if t.dtype not in _MM_DTYPES:
        raise kernel_error(f"matmul {role} operand '{t.buf.name}' has dtype {t.dtype}; TensorE takes "
                           "float8/bfloat16/float16/tfloat32/float32",
                           "cast the operand with nl.copy(x, dtype=nl.bfloat16)")
    if len(t.shape) != 2 and len(squeeze_free(t.shape)) != 2:
        raise kernel_error(f"matmul {role} operand must be 2-D [partition, free], got {list(t.shape)}")


def _matrix(shape, double_row=False):
    """(K, F) of a matmul operand: [P, F]; with extra unit free dims ([128, 1, 96] -> (128, 96)); in double-row
    mode [K, 2, F] contracts 2K rows."""
    if double_row and len(shape) == 3 and shape[1] == 2:
        return shape[0] * 2, shape[2]
    return shape if len(shape) == 2 else (shape[0], squeeze_free(shape)[1])


def _double_row(perf_mode):
    """matmul_perf_mode.double_row (or the legacy 'double_row_gen3' string): [K, 2, M] operands, two rows of
    K contracted per pass."""
    return "double_row" in str(getattr(perf_mode, "value", perf_mode) or "")


def _sbuf_operand(t, role, loc):
    """A legacy-API matmul operand left in PSUM (an nc_transpose result) is copied to SBUF, as the
    compiler of that generation does; the current API requires the kernel to do it."""
    if isinstance(t, Tensor) and t.buf.memory == "psum" and T.api_seen == {"legacy"}:
        T.warn(f"matmul {role} operand '{t.buf.name}' is in PSUM: copied to SBUF first (a VectorE copy)",
               loc, ("mm-psum", t.buf.decl))
        return copy(t, loc=loc)
    return t


def nc_matmul(dst, stationary, moving, mask=None, accumulate=None, loc=None, is_transpose=False, extra_srcs=(),
              isa=None, perf_mode=None):
    """stationary [K, M] and moving [K, N] in SBUF -> [M, N] float32 in PSUM."""
    loc = loc or _loc()
    stationary = _sbuf_operand(stationary, "stationary", loc)
    moving = _sbuf_operand(moving, "moving", loc)
    require_onchip(stationary, "matmul", "stationary")
    require_onchip(moving, "matmul", "moving")
    double = _double_row(perf_mode)
    if not double:
        _mm_operand(stationary, "stationary")
        _mm_operand(moving, "moving")
    k1, m = _matrix(stationary.shape, double)
    k2, n = _matrix(moving.shape, double)
    if k1 != k2:
        raise kernel_error(f"matmul contraction mismatch: stationary {list(stationary.shape)} vs moving "
                           f"{list(moving.shape)}", "both operands carry the contraction dim K on partitions")
    if k1 > (256 if double else 128):
        raise kernel_error(f"matmul contraction dimension {k1} exceeds 128",
                           "split K into tiles of 128 and accumulate in PSUM")
    if m > 128:
        raise kernel_error(f"matmul stationary free size {m} exceeds 128 (nl.tile_size.gemm_stationary_fmax)",
                           "tile the stationary (lhsT) operand into 128 columns")
    if n > 512 and isa != "nc_matmul_mx":  # MX moving tiles: packed elements, limit not published (assumed)
        raise kernel_error(f"matmul moving free size {n} exceeds 512 (nl.tile_size.gemm_moving_fmax)",
                           "tile the moving (rhs) operand into 512 columns")
    attrs = _nc_matmul_attrs(moving.dtype, n, m, k1, is_transpose, isa, double)
    srcs = [stationary, moving] + list(extra_srcs)
    if dst is None:
        res = new_tile((m, n), "float32", "psum", loc, "matmul")
        if mask is None:
            ins = emit_new("nc_matmul", "tensor", res, srcs, attrs, loc)
        else:
            ins = emit("nc_matmul", "tensor", [res], srcs, attrs, mask, loc=loc)
        if ins is not None:
            res.buf.producer = ins
            res.buf.mm_keys = FRESH_MM_KEYS
        return res
    if not isinstance(dst, Tensor):
        raise kernel_error(f"nc_matmul: dst must be a tile, got {type(dst).__name__}")
    require_shape("nc_matmul", (m, n), dst.shape)
    attrs = mm_attrs(attrs, _matmul_acc(dst, accumulate))
    emit("nc_matmul", "tensor", [dst], srcs, attrs, mask, loc=loc)
    return dst


_NC_MM_ATTRS = {}  # (dtype_in, moving free, stationary free, contraction, transpose, isa, double row) -> attrs


def _nc_matmul_attrs(dtype_in, n, m, k, is_transpose, isa, double):
    """The shared attrs (mm_attrs) of a matmul that does not accumulate: instructions share one dict per content,
    so the IR writers format each once instead of once per instruction."""
    key = (dtype_in, n, m, k, bool(is_transpose), isa, bool(double))
    attrs = _NC_MM_ATTRS.get(key)
    if attrs is None:
        attrs = {"accumulate": False, "dtype_in": dtype_in, "moving_free": n, "stationary_free": m, "contraction": k}
        if is_transpose:
            attrs["is_transpose"] = True
        if isa:
            attrs["isa"] = isa
        if double:
            attrs["perf_mode"] = "double_row"
        attrs = _NC_MM_ATTRS[key] = mm_attrs(attrs, False)
    return attrs


def nc_transpose(dst, data, engine=None, mask=None, dtype=None, loc=None):
    loc = loc or _loc()
    require_onchip(data, "transpose", "data")
    if len(data.shape) != 2:
        raise kernel_error(f"transpose takes a 2-D tile, got {list(data.shape)}")
    eng = engine_arg(engine, "tensor")
    p, f = data.shape
    limit = 32 if eng == "vector" else 128
    if p > limit or f > limit:
        raise kernel_error(f"transpose of {list(data.shape)} on the {eng} engine exceeds {limit}x{limit}",
                           "transpose in blocks of 128x128 (TensorE) or 32x32 (VectorE)")
    if eng == "tensor" and data.dtype not in _MM_DTYPES:
        raise kernel_error(f"TensorE transpose of dtype {data.dtype} is not supported", "cast to a float dtype first")
    memory = "psum" if eng == "tensor" else "sbuf"
    out_dt = dtype_arg(dtype, data.dtype)
    res = _result(dst, (f, p), out_dt, memory, loc, "transpose", "nc_transpose")
    ins = emit("nc_transpose", eng, [res], [data], _TRANSPOSE_ATTRS, mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


_mm_checked = set()  # (stationary, moving) (memory, dtype, shape) pairs that passed nc_matmul's checks
_FRESH_MM_ATTRS = {}  # the same key -> shared attrs of a fresh (not accumulating) matmul


def matmul_fresh(stationary, moving, loc):
    """nc_matmul(None, stationary, moving) without a mask: the legacy `psum += nl.matmul(a, b,
    transpose_x=True)` step. Operands of a kind already checked skip straight to recording."""
    sb, mb = stationary.buf, moving.buf
    ss, ms = stationary.shape, moving.shape
    key = (sb.memory, stationary.dtype, ss, mb.memory, moving.dtype, ms)
    attrs = _FRESH_MM_ATTRS.get(key)  # set once the key passed the checks: one lookup for both
    if attrs is None:
        if key not in _mm_checked:
            res = nc_matmul(None, stationary, moving, loc=loc)
            _mm_checked.add(key)
            return res
        attrs = _FRESH_MM_ATTRS[key] = mm_attrs({"accumulate": False, "dtype_in": moving.dtype,
                                                  "moving_free": ms[1], "stationary_free": ss[1],
                                                  "contraction": ss[0]}, False)
    res = emit_fresh("nc_matmul", "tensor", (ss[1], ms[1]), "float32", "psum", [stationary, moving], attrs, loc,
                     "matmul")
    res.buf.mm_keys = FRESH_MM_KEYS
    return res


def matmul(x, y, transpose_x=False, mask=None, loc=None):
    """nl.matmul: x [K, M] (transpose_x) or [M, K] times y [K, N] -> PSUM [M, N]."""
    loc = loc or _loc()
    require_onchip(x, "nl.matmul", "x")
    require_onchip(y, "nl.matmul", "y")
    if not transpose_x:
        xt = nc_transpose(None, x, loc=loc)
        x = copy(xt, loc=loc)
    return nc_matmul(None, x, y, mask=mask, loc=loc)
