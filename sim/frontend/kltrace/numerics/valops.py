"""One function per IR op: the instruction's result from its source values. `c.rnd` is the engine's
internal rounding (to FP32 on the hardware machine, none on the float64 shadow); the destination cast is
the machine's (machine.write). Rules and sources: docs/numerics.md."""
import numpy as np

from . import alu
from ..errors import TraceError


class Ctx:
    __slots__ = ("ins", "attrs", "meta", "dshapes", "rnd", "exact", "old", "where", "memo")


def fit(a, shape, c):
    """a brought to shape: equal size (unit dims differ), a [P, 1] per-partition operand or a scalar broadcast."""
    if a.shape == shape:
        return a
    n = 1
    for d in shape:
        n *= d
    if a.size == n:
        return a.reshape(shape)
    if a.size == 1:
        return np.broadcast_to(a.reshape(()), shape)
    if shape and a.size == shape[0]:
        return np.broadcast_to(a.reshape((shape[0],) + (1,) * (len(shape) - 1)), shape)
    try:
        return np.broadcast_to(a.reshape(a.shape + (1,) * (len(shape) - a.ndim)) if a.ndim < len(shape) else a,
                               shape)
    except ValueError:
        raise unsupported(c, f"operand of shape {list(a.shape)} for a result of shape {list(shape)}")


def unsupported(c, what):
    return TraceError("unsupported", f"value execution does not support {c.where}: {what}",
                      "see docs/numerics.md for the instructions value mode executes")


def sequential_sum(x, c):
    """Sum over the last axis; on the hardware in FP32, one element after the other (assumed order)."""
    if c.exact:
        return x.sum(axis=-1)
    return np.cumsum(x.astype(np.float32), axis=-1, dtype=np.float32)[..., -1].astype(np.float64)


def reduce_last(x, op, c):
    if op in ("add", "mean"):
        s = sequential_sum(x, c)
        return c.rnd(s / x.shape[-1]) if op == "mean" else s
    f = alu.REDUCE.get(op)
    if f is None:
        raise unsupported(c, f"reduce operator {op}")
    return c.rnd(f.reduce(x, axis=-1).astype(np.float64))


def _binary(op, a, b, c):
    f = alu.BINARY.get(op)
    if f is None:
        raise unsupported(c, f"ALU operator {op}")
    with np.errstate(all="ignore"):
        return c.rnd(f(a, b))


def dma_copy(c, srcs):
    isa = c.attrs.get("isa")
    if isa == "dma_compute":
        acc = fit(srcs[0], c.dshapes[0], c)
        for s in srcs[1:]:
            acc = _binary(c.attrs.get("op0", "add"), acc, fit(s, c.dshapes[0], c), c)
        return [acc]
    if isa not in (None, "sendrecv"):
        raise unsupported(c, "this DMA form")
    s = srcs[0]
    if c.attrs.get("is_transpose"):
        s = s.reshape([d for d in s.shape if d != 1] or [1]).T
    return [s]


def tensor_copy(c, srcs):
    if c.attrs.get("isa"):
        raise unsupported(c, "this copy form")
    return [c.rnd(fit(srcs[0], c.dshapes[0], c))]


def memset(c, srcs):
    if c.attrs.get("isa"):
        raise unsupported(c, "this form")
    return [c.rnd(np.full(c.dshapes[0], float(c.attrs.get("value", 0))))]


def tensor_tensor(c, srcs):
    if c.attrs.get("isa"):
        raise unsupported(c, "this form")
    shape = c.dshapes[0]
    return [_binary(c.attrs["op0"], fit(srcs[0], shape, c), fit(srcs[1], shape, c), c)]


def tensor_scalar(c, srcs):
    if c.attrs.get("isa"):
        raise unsupported(c, "this form")
    shape = c.dshapes[0]
    x = fit(srcs[0], shape, c)
    tiles = iter(srcs[1:])
    for k in ("0", "1"):
        op = c.attrs.get("op" + k)
        if op is None:
            continue
        if "operand" + k in c.attrs:
            o = np.float64(c.attrs["operand" + k])
        else:
            o = next(tiles, None)
            if o is None:
                f = alu.UNARY_ALU.get(op)
                if f is None:
                    raise unsupported(c, f"unary ALU operator {op}")
                with np.errstate(all="ignore"):
                    x = c.rnd(f(x))
                continue
            o = fit(o, shape, c)
        x = _binary(op, o, x, c) if c.attrs.get("reverse" + k) else _binary(op, x, o, c)
    return [x]


def activation(c, srcs):
    func = c.attrs.get("func")
    f = alu.ACTIVATIONS.get(func)
    if f is None or c.attrs.get("isa"):
        raise unsupported(c, f"activation function {func}")
    roles = c.meta.get("roles", ["data"])
    shape = c.dshapes[0]
    parts = dict(zip(roles, srcs))
    x = fit(parts["data"], shape, c)
    scale = parts.get("scale")
    scale = fit(scale, shape, c) if scale is not None else float(c.attrs.get("scale", c.meta.get("scale", 1.0)))
    bias = parts.get("bias")
    bias = fit(bias, shape, c) if bias is not None else float(c.attrs.get("bias", c.meta.get("bias", 0.0)) or 0.0)
    with np.errstate(all="ignore"):
        y = c.rnd(f(c.rnd(x * scale + bias)))
    out = [y]
    if c.ins.op == "activation_reduce":
        free = y.reshape(y.shape[0], -1) if y.ndim else y.reshape(1, 1)
        out.append(reduce_last(free, c.attrs.get("op0", "add"), c))
    return out


def tensor_reduce(c, srcs):
    if c.attrs.get("isa"):
        raise unsupported(c, "this reduction form")
    x = srcs[0]
    axes = [a for a in c.attrs.get("axis", [1]) if a < x.ndim]
    keep = [a for a in range(x.ndim) if a not in axes]
    x = np.transpose(x, keep + axes).reshape([x.shape[a] for a in keep] + [-1])
    r = reduce_last(x, c.attrs.get("op0", "add"), c)
    if c.attrs.get("negate"):
        r = -r
    return [r]


def nc_matmul(c, srcs):
    if c.attrs.get("isa") or c.attrs.get("perf_mode") or c.attrs.get("is_transpose"):
        raise unsupported(c, "MX, double-row or transpose matmuls")
    st, mv = srcs[0], srcs[1]
    st = st.reshape(st.shape[0], -1)
    mv = mv.reshape(mv.shape[0], -1)
    dot = c.memo.get("dot")  # the hardware and the float64 replay of one instruction share the product
    if dot is None:
        dot = c.memo["dot"] = st.T @ mv  # bf16/fp8/fp32 products exact in float64 (docs/numerics.md, TensorE)
    if c.attrs.get("accumulate"):
        return [c.rnd(c.old(0).reshape(dot.shape) + c.rnd(dot))]
    return [c.rnd(dot)]


def nc_transpose(c, srcs):
    s = srcs[0]
    return [s.reshape(s.shape[0], -1).T]


def reciprocal(c, srcs):
    with np.errstate(all="ignore"):
        return [c.rnd(1.0 / srcs[0])]


def bn_stats(c, srcs):
    """One chunk's statistics as [count, mean, variance, 0, 0, 0] per partition (layout assumed; only
    bn_aggr reads it)."""
    x = srcs[0].reshape(srcs[0].shape[0], -1)
    n = x.shape[1]
    mean = c.rnd(sequential_sum(x, c) / n)
    var = c.rnd(sequential_sum(np.square(x - mean[:, None]), c) / n)
    out = np.zeros((x.shape[0], 6))
    out[:, 0], out[:, 1], out[:, 2] = n, mean, var
    return [out]


def bn_aggr(c, srcs):
    x = srcs[0].reshape(srcs[0].shape[0], -1, 6)
    n, m, v = x[..., 0], x[..., 1], x[..., 2]
    total = n.sum(axis=1)
    mean = c.rnd((n * m).sum(axis=1) / total)
    var = c.rnd((n * (v + np.square(m - mean[:, None]))).sum(axis=1) / total)
    return [np.stack([mean, var], axis=1)]


def select(c, srcs):
    shape = c.dshapes[0]
    tiles = iter(srcs)
    cond = fit(next(tiles), shape, c)
    x = c.attrs["on_true_value"] if "on_true_value" in c.attrs else fit(next(tiles), shape, c)
    y = c.attrs["on_false_value"] if "on_false_value" in c.attrs else fit(next(tiles), shape, c)
    return [c.rnd(np.where(cond != 0, x, y))]


def iota(c, srcs):
    shape = c.dshapes[0]
    if c.attrs.get("isa") == "shared_identity_matrix":
        return [np.eye(shape[0], shape[1] if len(shape) > 1 else shape[0])]
    if c.attrs.get("isa"):
        raise unsupported(c, "random numbers")
    pattern = c.attrs.get("pattern") or []
    counts = [n for _, n in pattern]
    grid = np.indices(counts) if counts else np.zeros((0,))
    v = float(c.attrs.get("offset", 0)) + sum(coef * grid[i] for i, (coef, _) in enumerate(pattern))
    return [fit(np.asarray(v, dtype=np.float64), shape, c)]


def tensor_tensor_scan(c, srcs):
    if c.attrs.get("isa"):
        raise unsupported(c, "this scan form")
    shape = c.dshapes[0]
    a = fit(srcs[0], shape, c).reshape(shape[0], -1)
    b = fit(srcs[1], shape, c).reshape(shape[0], -1)
    init = srcs[2].reshape(-1) if len(srcs) > 2 else np.full(a.shape[0], float(c.attrs.get("initial", 0)))
    out = np.empty_like(a)
    prev = init
    for j in range(a.shape[1]):
        prev = _binary(c.attrs["op1"], _binary(c.attrs["op0"], a[:, j], prev, c), b[:, j], c)
        out[:, j] = prev
    return [out]


HANDLERS = {"dma_copy": dma_copy, "tensor_copy": tensor_copy, "memset": memset, "tensor_tensor": tensor_tensor,
            "tensor_scalar": tensor_scalar, "activation": activation, "activation_reduce": activation,
            "tensor_reduce": tensor_reduce, "nc_matmul": nc_matmul, "nc_transpose": nc_transpose,
            "reciprocal": reciprocal, "bn_stats": bn_stats, "bn_aggr": bn_aggr, "select": select, "iota": iota,
            "tensor_tensor_scan": tensor_tensor_scan}
