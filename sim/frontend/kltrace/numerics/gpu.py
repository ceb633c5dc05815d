"""Emulation of a CUDA kernel's arithmetic: the reference function run on arrays whose operations round
like the GPU under a named policy (docs/numerics.md, "GPU emulation").

Emulated: every elementwise ufunc result rounded to FP32 (FP16 under fp16-accumulate); sums (np.sum,
np.mean, add.reduce) accumulated one element after the other in the policy's precision; matmul / dot /
`@` accumulated as the policy says. Not emulated: fused multiply-add contraction of separate ufuncs,
the GPU's approximate transcendental functions (__expf etc.), warp-shuffle tree orders of reductions.
"""
import numpy as np

from . import fmt
from ..errors import TraceError

POLICIES = ("fp32-k-order", "tensor-core-bf16", "split-k", "fp16-accumulate", "none")


def parse_policy(text):
    """'tensor-core-bf16:16' -> ('tensor-core-bf16', 16); raises on an unknown policy."""
    text = (text or "none").strip()
    name, _, arg = text.partition(":")
    if name not in POLICIES:
        raise TraceError("invalid_argument", f"unknown cuda_numerics policy '{text}'",
                         "one of fp32-k-order | tensor-core-bf16:K_STEP | split-k:S | fp16-accumulate | none")
    if name == "tensor-core-bf16":
        n = _count(arg or "16", text)
        return name, n, f"{name}:{n}"
    if name == "split-k":
        if not arg:
            raise TraceError("invalid_argument", f"cuda_numerics '{text}' needs the number of splits",
                             "e.g. split-k:4")
        n = _count(arg, text)
        return name, n, f"{name}:{n}"
    if arg:
        raise TraceError("invalid_argument", f"cuda_numerics '{text}': {name} takes no parameter")
    return name, 0, name


def _count(arg, text):
    try:
        n = int(arg)
    except ValueError:
        n = 0
    if not 1 <= n <= 65536:
        raise TraceError("invalid_argument", f"cuda_numerics '{text}': the parameter must be a whole number "
                         "from 1 to 65536")
    return n


class Policy:
    def __init__(self, name, param):
        self.name, self.param = name, param
        self.acc = "float16" if name == "fp16-accumulate" else "float32"

    def round(self, x):
        return fmt.to_dtype(x, self.acc)

    def seq_sum(self, x, axis):
        """Sequential accumulation along axis in the policy's precision."""
        x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
        acc = np.zeros(x.shape[:-1])
        for k in range(x.shape[-1]):
            acc = self.round(acc + x[..., k])
        return acc

    def matmul(self, a, b):
        a = np.asarray(a, dtype=np.float64)
        b = np.asarray(b, dtype=np.float64)
        vec_a, vec_b = a.ndim == 1, b.ndim == 1
        a2 = a[None, :] if vec_a else a
        b2 = b[:, None] if vec_b else b
        K = a2.shape[-1]
        if self.name == "tensor-core-bf16":
            a2, b2 = fmt.to_dtype(a2, "bfloat16"), fmt.to_dtype(b2, "bfloat16")
            acc = 0.0
            for k0 in range(0, K, self.param):  # exact products of a k-step, one FP32 rounding per step
                acc = fmt.fp32(acc + a2[..., k0:k0 + self.param] @ b2[..., k0:k0 + self.param, :])
        elif self.name == "split-k":
            bounds = np.linspace(0, K, self.param + 1).astype(int)
            acc = 0.0
            for lo, hi in zip(bounds[:-1], bounds[1:]):
                acc = fmt.fp32(acc + self._ordered(a2[..., lo:hi], b2[..., lo:hi, :]))
        else:
            if self.name == "fp16-accumulate":
                a2, b2 = fmt.to_dtype(a2, "float16"), fmt.to_dtype(b2, "float16")
            acc = self._ordered(a2, b2)
        if vec_a:
            acc = acc[..., 0, :]
        if vec_b:
            acc = acc[..., 0]
        return acc

    def _ordered(self, a, b):
        """One k after the other: acc = round(acc + a_k * b_k), the product exact (a fused multiply-add)."""
        acc = np.zeros(a.shape[:-1] + b.shape[-1:])
        for k in range(a.shape[-1]):
            acc = self.round(acc + a[..., k:k + 1] * b[..., k:k + 1, :])
        return acc


class GpuArray(np.ndarray):
    """float64 storage whose arithmetic rounds like the GPU (values always representable in the policy's
    precision)."""
    policy = None

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        pol = GpuArray.policy
        plain = [np.asarray(x) if isinstance(x, GpuArray) else x for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(np.asarray(o) if isinstance(o, GpuArray) else o for o in kwargs["out"])
        if ufunc is np.matmul and method == "__call__":
            return wrap(pol.matmul(plain[0], plain[1]))
        if ufunc is np.add and method == "reduce":
            axis = kwargs.get("axis", 0)
            x = np.asarray(plain[0], dtype=np.float64)
            if axis is None:
                x, axis = x.reshape(-1), 0
            axes = axis if isinstance(axis, tuple) else (axis,)
            axes = tuple(a % x.ndim for a in axes)
            rest = [d for d in range(x.ndim) if d not in axes]
            xm = np.transpose(x, rest + list(axes)).reshape([x.shape[d] for d in rest] + [-1])
            r = pol.seq_sum(xm, -1)
            if kwargs.get("keepdims"):
                r = np.expand_dims(r, axes)
            return wrap(r)
        with np.errstate(all="ignore"):
            result = getattr(ufunc, method)(*plain, **kwargs)
        if isinstance(result, tuple):
            return tuple(_rounded(r, pol) for r in result)
        return _rounded(result, pol)

    def __array_function__(self, func, types, args, kwargs):
        pol = GpuArray.policy
        if func is np.dot:
            return wrap(pol.matmul(np.asarray(args[0]), np.asarray(args[1])))
        if func is np.einsum:
            raise TraceError("unsupported", "np.einsum in a reference run under cuda_numerics emulation",
                             "write the contraction with @ or np.matmul so its accumulation order is emulated")
        return super().__array_function__(func, types, args, kwargs)


def _rounded(r, pol):
    if isinstance(r, np.ndarray) and r.dtype.kind == "f":
        return wrap(pol.round(r))
    if isinstance(r, np.floating):
        return wrap(pol.round(np.asarray(r)))
    return r


def wrap(x):
    return np.asarray(x, dtype=np.float64).view(GpuArray)


def prepare(arrays, policy):
    """The reference's inputs as GpuArrays rounded to the policy's storage precision."""
    GpuArray.policy = policy
    return {k: wrap(policy.round(v)) for k, v in arrays.items()}
