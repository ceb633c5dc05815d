"""Input data: seeded distributions or arrays from .npy/.npz, rounded to each argument's dtype (RNE)."""
import os

import numpy as np

from . import fmt
from ..errors import TraceError

KINDS = ("normal", "uniform", "bf16-stress", "fp8-stress", "outliers")


def _bad(message, hint=""):
    return TraceError("invalid_argument", message, hint or "--inputs normal|uniform|bf16-stress|fp8-stress|"
                      "outliers|FILE.npy|FILE.npz (one array per argument name)")


def _generate(kind, shape, dtype, rng):
    n = int(np.prod(shape)) if shape else 1
    if kind == "normal":
        x = rng.standard_normal(n)
    elif kind == "uniform":
        x = rng.uniform(-1.0, 1.0, n)
    elif kind == "bf16-stress":
        # magnitudes spread over the whole BF16 range: near its largest finite value and near its smallest
        # normal, with the sign random (products and sums of these overflow or flush)
        e = rng.uniform(-126.0, 127.9, n)
        x = np.exp2(e) * rng.choice([-1.0, 1.0], n)
    elif kind == "fp8-stress":
        # around and beyond the FP8 limits: |x| up to 2x e4m3fn's 448 and down to its subnormals
        e = rng.uniform(-10.0, 9.8, n)
        x = np.exp2(e) * rng.choice([-1.0, 1.0], n)
    elif kind == "outliers":
        x = rng.standard_normal(n)
        k = max(1, n // 1000)
        idx = rng.choice(n, size=k, replace=False)
        x[idx] = rng.choice([-1.0, 1.0], k) * rng.uniform(100.0, 1000.0, k)
    else:
        raise _bad(f"unknown input distribution '{kind}'")
    if dtype in fmt.INT_RANGES:
        lo, hi = fmt.INT_RANGES[dtype]
        x = np.clip(np.rint(x * 8), lo, hi)
    return x.reshape(shape)


def generate(args, kind, seed):
    """{name: float64 array in the argument's dtype} for [(name, shape, dtype)]; same seed, same bits."""
    rng = np.random.Generator(np.random.PCG64(seed))
    out = {}
    for name, shape, dtype in args:
        if not fmt.supported(dtype):
            raise _bad(f"argument '{name}' has dtype {dtype}, which value execution does not support")
        out[name] = fmt.to_dtype(_generate(kind, tuple(shape), dtype, rng), dtype)
    return out


def load(path, args):
    """Arrays from FILE.npy (one argument) or FILE.npz (one array per argument name)."""
    shown = os.path.basename(path)
    try:
        data = np.load(path, allow_pickle=False)
    except ValueError as e:
        raise _bad(f"{shown}: cannot be read without pickle ({e})", "save plain numeric arrays (np.savez)")
    except OSError as e:
        raise TraceError("io", f"cannot read inputs {shown}: {e}")
    if isinstance(data, np.ndarray):
        if len(args) != 1:
            raise _bad(f"{shown} holds one array but the kernel takes {len(args)} tensors",
                       "use an .npz with one array per argument name")
        arrays = {args[0][0]: data}
    else:
        arrays = {}
        for k in data.files:
            try:
                arrays[k] = data[k]  # an .npz member is read here, so a pickled one is refused here
            except ValueError as e:
                raise _bad(f"{shown}: array '{k}' cannot be read without pickle ({e})",
                           "save plain numeric arrays (np.savez)")
    out = {}
    for name, shape, dtype in args:
        if name not in arrays:
            raise _bad(f"{shown} has no array '{name}' (it has: {', '.join(sorted(arrays)) or 'none'})")
        a = arrays[name]
        if a.dtype.kind not in "biuf":
            raise _bad(f"{shown}: array '{name}' has dtype {a.dtype}, not a number type")
        if tuple(a.shape) != tuple(shape):
            raise _bad(f"{shown}: array '{name}' has shape {list(a.shape)} but the kernel runs with {list(shape)}",
                       "give arrays of the numerics shapes (task.json numerics.args)")
        out[name] = fmt.to_dtype(a.astype(np.float64), dtype)
    return out
