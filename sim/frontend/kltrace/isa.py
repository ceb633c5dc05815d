"""The `nisa` namespace in both generations.

Legacy (`neuronxcc.nki.isa`) calls return their result tile; standalone (`nki.isa`) calls take the
destination first and return nothing. Both lower to the same functions in `ops` / this module.
"""
import sys

from . import dtypes, matmul_fast, ops, signatures, tensor_engine
from .emit import emit, new_tile, require_onchip, dtype_arg, require_shape, squeeze_free
from .errors import kernel_error, unsupported
from .indexing import IndexExpr
from .ops import op_name, engine_arg, _result, _is_tile
from .tracer import T
from .views import Tensor
from .isa_more import MORE, BODIES, VirtualRegister, NkiScalar


class _EnumValue:
    """One member; members of an enum order by declaration (nc_version.gen2 < gen3 < gen4)."""
    __slots__ = ("value", "label", "rank")

    def __init__(self, label, value, rank=0):
        self.label = label
        self.value = value
        self.rank = rank

    def __repr__(self):
        return self.label

    def _rank_of(self, other):
        if not isinstance(other, _EnumValue) or other.label.rsplit(".", 1)[0] != self.label.rsplit(".", 1)[0]:
            return NotImplemented
        return other.rank

    def __lt__(self, other):
        r = self._rank_of(other)
        return r if r is NotImplemented else self.rank < r

    def __le__(self, other):
        r = self._rank_of(other)
        return r if r is NotImplemented else self.rank <= r

    def __gt__(self, other):
        r = self._rank_of(other)
        return r if r is NotImplemented else self.rank > r

    def __ge__(self, other):
        r = self._rank_of(other)
        return r if r is NotImplemented else self.rank >= r


class _Enum:
    """A small enum namespace (nisa.engine, nisa.reduce_cmd, ...); unknown members are unsupported."""

    def __init__(self, name, members):
        self._name = name
        for rank, m in enumerate(members):
            setattr(self, m, _EnumValue(f"nisa.{name}.{m}", m, rank))

    def __getattr__(self, item):
        if item.startswith("__"):
            raise AttributeError(item)
        raise unsupported(f"nisa.{self._name}.{item}")


engine = _Enum("engine", ("tensor", "vector", "scalar", "gpsimd", "unknown", "sync", "activation", "pool"))
reduce_cmd = _Enum("reduce_cmd", ("idle", "reset", "reduce", "reset_reduce"))
dge_mode = _Enum("dge_mode", ("none", "swdge", "hwdge", "unknown"))
dma_engine = _Enum("dma_engine", ("dma", "gpsimd_dma", "unknown"))
nc_version = _Enum("nc_version", ("gen2", "gen3", "gen4"))
oob_mode = _Enum("oob_mode", ("error", "skip"))
matmul_perf_mode = _Enum("matmul_perf_mode", ("none", "double_row"))


def _loc():
    return T.loc(sys._getframe(2))


def _current_nc_version():
    """The target's NeuronCore generation: --target, else gen3 (Trainium2) for `nki.*` kernels, as current
    NKI releases target Trainium2/3, and gen2 (Trainium1) for legacy `neuronxcc.nki` kernels."""
    name = T.nc_version or ("gen2" if T.api_seen == {"legacy"} else "gen3")
    return getattr(nc_version, name)


def _engine(e, default):
    v = engine_arg(e, default)
    return {"activation": "scalar", "pool": "gpsimd"}.get(getattr(e, "value", None), v)


# ------------------------------------------------------------------------------------------ shared bodies
def activation(dst, op, data, bias=None, scale=1.0, reduce_op=None, reduce_res=None, mask=None, dtype=None,
               loc=None, force_reduce=False):
    loc = loc or _loc()
    func = op_name(op)
    if reduce_res is None and not force_reduce:
        return ops.unary_op(func, data, dtype, mask, dst, bias, scale, loc=loc)
    require_onchip(data, f"nisa.activation({func})", "data")
    if not _is_tile(reduce_res):
        raise kernel_error("activation_reduce needs reduce_res, a [P, 1] tile")
    require_shape("activation reduce_res", (data.shape[0], 1), reduce_res.shape, "reduce_res")
    res = _result(dst, data.shape, dtype_arg(dtype, data.dtype), "sbuf", loc, func, "nisa.activation")
    srcs = [data] + [t for t in (bias, scale) if _is_tile(t)]
    attrs = {"func": func, "op0": op_name(reduce_op) or "add"}
    ins = emit("activation_reduce", "scalar", [res, reduce_res], srcs, attrs, mask, space=data.shape, loc=loc)
    if T.values and ins is not None:
        ins.vals[2]["roles"] = ["data"] + ["bias"] * _is_tile(bias) + ["scale"] * _is_tile(scale)
        for key, v in (("bias", bias), ("scale", scale)):
            if v is not None and not _is_tile(v):
                ins.vals[2][key] = v
    if dst is None:
        res.buf.producer = ins
    return res


def tensor_tensor(dst, data1, data2, op, dtype=None, mask=None, engine=None, loc=None):
    loc = loc or _loc()
    name = op_name(op)
    require_onchip(data1, f"nisa.tensor_tensor({name})", "data1")
    require_onchip(data2, f"nisa.tensor_tensor({name})", "data2")
    if data1.shape != data2.shape and squeeze_free(data1.shape) != squeeze_free(data2.shape) \
            and (data1.shape[0] != data2.shape[0] or data1.size != data2.size) \
            and not (data1.shape[0] == data2.shape[0] and min(data1.size, data2.size) == data1.shape[0]):
        raise kernel_error(f"shape mismatch in nisa.tensor_tensor: {list(data1.shape)} and {list(data2.shape)}",
                           "tensor_tensor needs equal shapes; use tensor_scalar for a [P, 1] operand")
    big = data1 if data1.size >= data2.size else data2  # a [P, 1] operand broadcasts along the free axis
    res = _result(dst, big.shape, dtype_arg(dtype, dtypes.promote(data1.dtype, data2.dtype)), "sbuf", loc,
                  name, "nisa.tensor_tensor")
    ins = emit("tensor_tensor", _engine(engine, "vector"), [res], [data1, data2], ops.shared_attrs(("op0", name)),
               mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def tensor_scalar(dst, data, op0, operand0, reverse0=False, op1=None, operand1=None, reverse1=False,
                  dtype=None, mask=None, engine=None, loc=None):
    loc = loc or _loc()
    require_onchip(data, "nisa.tensor_scalar", "data")
    srcs = [data]
    attrs = {"op0": op_name(op0)}
    for key, operand in (("operand0", operand0), ("operand1", operand1)):
        if _is_tile(operand):
            require_onchip(operand, "nisa.tensor_scalar", key)
            if operand.shape[0] != data.shape[0] or operand.size != operand.shape[0]:
                raise kernel_error(f"nisa.tensor_scalar {key} must be a [{data.shape[0]}, 1] vector, "
                                   f"got {list(operand.shape)}")
            srcs.append(operand)
        elif operand is not None:
            attrs[key] = operand
    attrs["reverse0"] = bool(reverse0)
    if op1 is not None:
        attrs["op1"] = op_name(op1)
        attrs["reverse1"] = bool(reverse1)
    res = _result(dst, data.shape, dtype_arg(dtype, data.dtype), "sbuf", loc, "tensor_scalar", "nisa.tensor_scalar")
    ins = emit("tensor_scalar", _engine(engine, "vector"), [res], srcs, ops.shared_attrs(*attrs.items()), mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def _simple(opname, engine_name, dst, data, out_shape, dtype, mask, loc, attrs=None):
    require_onchip(data, f"nisa.{opname}", "data")
    res = _result(dst, out_shape, dtype_arg(dtype, data.dtype), "sbuf", loc, opname, f"nisa.{opname}")
    ins = emit(opname, engine_name, [res], [data], attrs, mask, space=data.shape, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def bn_stats(dst, data, mask=None, dtype=None, loc=None):
    loc = loc or _loc()
    require_onchip(data, "nisa.bn_stats", "data")
    free = data.size // max(data.shape[0], 1)
    if free > 512:
        raise kernel_error(f"nisa.bn_stats free size {free} exceeds 512 (nl.tile_size.bn_stats_fmax)",
                           "split the free dimension into chunks of 512 and combine them with nisa.bn_aggr")
    return _simple("bn_stats", "vector", dst, data, (data.shape[0], 6), dtype, mask, loc)


def bn_aggr(dst, data, mask=None, dtype=None, loc=None):
    return _simple("bn_aggr", "vector", dst, data, (data.shape[0], 2), dtype, mask, loc or _loc())


def reciprocal(dst, data, mask=None, dtype=None, loc=None):
    return _simple("reciprocal", "vector", dst, data, data.shape, dtype, mask, loc or _loc())


def tensor_tensor_scan(dst, data0, data1, initial, op0, op1, reverse0=False, reverse1=False, mask=None,
                       dtype=None, loc=None):
    loc = loc or _loc()
    require_onchip(data0, "nisa.tensor_tensor_scan", "data0")
    require_onchip(data1, "nisa.tensor_tensor_scan", "data1")
    if data0.shape != data1.shape:
        raise kernel_error(f"shape mismatch in nisa.tensor_tensor_scan: {list(data0.shape)} and {list(data1.shape)}")
    srcs = [data0, data1]
    attrs = {"op0": op_name(op0), "op1": op_name(op1)}
    if _is_tile(initial):
        srcs.append(initial)
    else:
        attrs["initial"] = initial
    res = _result(dst, data0.shape, dtype_arg(dtype, data0.dtype), "sbuf", loc, "scan", "nisa.tensor_tensor_scan")
    ins = emit("tensor_tensor_scan", "vector", [res], srcs, attrs, mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


def iota_expr(expr, dtype, mask=None):
    loc = _loc()
    if isinstance(expr, tuple):
        expr = expr[0]
    if not isinstance(expr, IndexExpr):
        raise unsupported("nisa.iota takes an nl.arange / nl.mgrid expression")
    shape = expr.shape if len(expr.shape) > 1 else (expr.shape[0], 1)
    res = new_tile(shape, dtype_arg(dtype, "int32"), "sbuf", loc, "iota")
    attrs = {"offset": expr.const, "pattern": [[c, n] for c, n in zip(expr.coefs, expr.shape)]}
    res.buf.producer = emit("iota", "gpsimd", [res], [], attrs, mask, loc=loc)
    return res


def affine_select(dst, on_true_tile, on_false_value, attrs, mask=None, dtype=None, loc=None):
    loc = loc or _loc()
    require_onchip(on_true_tile, "nisa.affine_select", "on_true_tile")
    res = _result(dst, on_true_tile.shape, dtype_arg(dtype, on_true_tile.dtype), "sbuf", loc, "select",
                  "nisa.affine_select")
    attrs["on_false_value"] = on_false_value
    ins = emit("affine_select", "gpsimd", [res], [on_true_tile], attrs, mask, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


# ------------------------------------------------------------------------------------------ call bodies
# One body per classic call, for both generations: signatures.py generates the legacy and the current wrapper
# from one table row and calls these with every parameter by name. dst is None only from a legacy call (the
# current wrappers of the calls that need a tile check it first), which returns the result tile.
def _nc_matmul(dst, stationary, moving, is_stationary_onezero=False, is_moving_onezero=False, is_transpose=False,
               mask=None, accumulate=None, tile_position=(), tile_size=(), perf_mode=None):
    # tile_position / tile_size (TensorE row and column tiling) do not change the recorded instruction.
    if (dst is None and mask is None and accumulate is None and not is_transpose and perf_mode is None
            and type(stationary) is Tensor and type(moving) is Tensor):
        # T.loc(caller), whose single-entry cache is tested here first: the kernel's frame calls the generated
        # wrapper (a frame of this file, which T.loc skips), the wrapper calls this body.
        f = sys._getframe(1)
        g = f.f_back
        if f.f_code.co_filename == __file__:
            loc = T._loc_value if g is T._loc_frame and g.f_lasti == T._loc_lasti else T.loc(f)
        else:  # called from the kernel itself, not through the generated wrapper
            loc = T.loc(f)
            g = f
        res = matmul_fast.fresh_matmul(stationary, moving, loc, g)
        if res is not None:
            return res
        # fresh_matmul takes only SBUF operands, so the memories are tested once it declined.
        if stationary.buf.memory == "sbuf" and moving.buf.memory == "sbuf":
            return matmul_fast.general_fresh(stationary, moving, loc)
    return tensor_engine.nc_matmul(dst, stationary, moving, mask=mask, accumulate=accumulate, is_transpose=is_transpose,
                                   perf_mode=perf_mode)


def _nc_transpose(dst, data, mask=None, dtype=None, engine=None):
    return tensor_engine.nc_transpose(dst, data, engine, mask, dtype)


def _activation(dst, op, data, bias=None, scale=1.0, reduce_op=None, reduce_res=None, reduce_cmd=None, mask=None,
                dtype=None):
    return activation(dst, op, data, bias, scale, reduce_op, reduce_res, mask, dtype)


def _activation_reduce(dst, op, data, reduce_op=None, reduce_res=None, bias=None, scale=1.0, mask=None, dtype=None):
    return activation(dst, op, data, bias, scale, reduce_op, reduce_res, mask, dtype, force_reduce=True)


def _tensor_tensor(dst, data1, data2, op, dtype=None, mask=None, engine=None):
    return tensor_tensor(dst, data1, data2, op, dtype, mask, engine)


def _tensor_scalar(dst, data, op0, operand0, reverse0=False, op1=None, operand1=None, reverse1=False, dtype=None,
                   mask=None, engine=None):
    return tensor_scalar(dst, data, op0, operand0, reverse0, op1, operand1, reverse1, dtype, mask, engine)


def _tensor_reduce(dst, op, data, axis, mask=None, dtype=None, negate=False, keepdims=False):
    if dst is not None:  # the destination's rank says whether the reduced axes are kept
        keepdims = len(dst.shape) == len(data.shape)
    return ops.reduce(op_name(op), data, axis, dtype, mask, keepdims, dst=dst, negate=negate)


def _tensor_copy(dst, src, mask=None, dtype=None, engine=None):
    if dst is not None and (src.buf.memory == "hbm" or dst.buf.memory == "hbm"):
        raise kernel_error("nisa.tensor_copy moves data between on-chip tiles", "use nisa.dma_copy for HBM")
    return ops.copy(src, dtype, mask, dst=dst, engine=engine)


def _iota(dst, expr=None, dtype=None, pattern=None, offset=0, channel_multiplier=0, mask=None):
    if dst is None:
        return iota_expr(expr, dtype, mask)
    emit("iota", "gpsimd", [dst], [], {"offset": offset, "pattern": pattern, "channel_multiplier": channel_multiplier})


def _memset(dst, value, shape=None, dtype=None, mask=None, engine=None):
    return ops.memset(dst, value, dtype, shape, mask, engine)


def _affine_select(dst, on_true_tile=None, on_false_value=0, pred=None, pattern=None, channel_multiplier=0,
                   cmp_op=None, offset=0, mask=None, dtype=None):
    attrs = {} if dst is None else {"pattern": pattern, "offset": offset, "channel_multiplier": channel_multiplier,
                                    "cmp_op": op_name(cmp_op) or "equal"}
    return affine_select(dst, on_true_tile, on_false_value, attrs, mask, dtype)


def _dma_copy(dst, src=None, mask=None, dge_mode=None):
    ops.dma(dst, src, mask, None, "nisa.dma_copy")


def _bn_stats(dst, data, mask=None, dtype=None):
    return bn_stats(dst, data, mask, dtype)


def _bn_aggr(dst, data, mask=None, dtype=None):
    return bn_aggr(dst, data, mask, dtype)


def _reciprocal(dst, data, dtype=None, mask=None):
    return reciprocal(dst, data, mask, dtype)


def _tensor_tensor_scan(dst, data0, data1, initial, op0, op1, reverse0=False, reverse1=False, dtype=None, mask=None):
    return tensor_tensor_scan(dst, data0, data1, initial, op0, op1, reverse0, reverse1, mask, dtype)


BODIES_CLASSIC = {name: globals()["_" + name] for name in signatures.CLASSIC}


def _legacy_form(body):
    """The legacy (`neuronxcc.nki.isa`) form of a standalone body: no dst, the result is returned."""
    def legacy(*args, **kwargs):
        return body(None, *args, **kwargs)
    legacy.__name__ = body.__name__
    return legacy


def _check_dst(dst, what):
    if not isinstance(dst, Tensor):
        raise kernel_error(f"{what}: dst must be a tile, got {type(dst).__name__}",
                           "standalone nki ISA calls take the destination tile first")


ENUM_NAMES = ("engine", "reduce_cmd", "dge_mode", "nc_version", "oob_mode", "matmul_perf_mode", "dma_engine")


_LEGACY = signatures.wrappers(signatures.LEGACY, BODIES_CLASSIC, _check_dst, __file__)
_CURRENT = signatures.wrappers(signatures.CURRENT, BODIES_CLASSIC, _check_dst, __file__)


def namespace(generation):
    if generation == "legacy":
        # The classic calls keep their legacy signatures; the later ones take the standalone form minus dst.
        ns = {k: _legacy_form(v) for k, v in MORE.items() if k in BODIES}
        ns.update(_LEGACY)
    else:
        ns = dict(_CURRENT)
        ns.update(MORE)
    ns.update({"engine": engine, "reduce_cmd": reduce_cmd, "dge_mode": dge_mode, "nc_version": nc_version,
               "oob_mode": oob_mode, "matmul_perf_mode": matmul_perf_mode, "dma_engine": dma_engine,
               "get_nc_version": _current_nc_version, "get_nc_sub_version": lambda: 0,
               "VirtualRegister": VirtualRegister, "NkiScalar": NkiScalar, "NkiValidationError": ValueError,
               "tensor_engine": engine.tensor, "vector_engine": engine.vector, "scalar_engine": engine.scalar,
               "gpsimd_engine": engine.gpsimd, "unknown_engine": engine.unknown})
    return ns
