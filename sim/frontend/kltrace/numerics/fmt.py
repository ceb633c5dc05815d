"""Rounding of float64 values to the storage formats of the NeuronCore (docs/numerics.md, "Formats").

Every value the interpreter stores is a float64 that is exactly representable in its buffer's dtype.
Floats are rounded to nearest, ties to even, by scaling to an integer grid (np.rint rounds half to even)
with the exponent clamped at the format's minimum (gradual underflow); that is exact for every format
with fewer than 53 significand bits, so no double rounding happens on the way.
"""
import numpy as np

# dtype -> (explicit mantissa bits, minimum normal exponent, largest finite value, overflow behaviour)
#   "inf": IEEE-like, a value past the largest rounds to +-inf;  "sat": no infinity, saturates to +-max.
FLOAT_FORMATS = {
    "float32": (23, -126, float(np.finfo(np.float32).max), "inf"),
    "tfloat32": (10, -126, float(np.finfo(np.float32).max), "inf"),
    "bfloat16": (7, -126, 3.3895313892515355e38, "inf"),
    "float16": (10, -14, 65504.0, "inf"),
    "float8_e5m2": (2, -14, 57344.0, "inf"),
    "float8_e4m3": (3, -6, 240.0, "sat"),
    "float8_e4m3fn": (3, -6, 448.0, "sat"),
}
STOCHASTIC = frozenset(("bfloat16", "float16", "tfloat32", "float8_e5m2", "float8_e4m3", "float8_e4m3fn"))
INT_RANGES = {"int32": (-2**31, 2**31 - 1), "int16": (-2**15, 2**15 - 1), "int8": (-128, 127),
              "uint32": (0, 2**32 - 1), "uint16": (0, 2**16 - 1), "uint8": (0, 255), "bool": (0, 1)}


def supported(dtype):
    return dtype in FLOAT_FORMATS or dtype in INT_RANGES or dtype == "float64"


def round_float(x, mant, emin, fmax, overflow):
    """x (float64 array) rounded to nearest even in a binary format with `mant` fraction bits."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        _, e = np.frexp(x)                      # x = f * 2**e, 0.5 <= |f| < 1
        e = np.maximum(e - 1, emin)             # unbiased exponent, clamped: subnormals share emin's grid
        scale = np.ldexp(1.0, e - mant)         # spacing of representable values around x
        q = np.rint(x / scale) * scale
        big = np.abs(q) > fmax
        if big.any():
            q = np.where(big, np.copysign(np.inf if overflow == "inf" else fmax, x), q)
        fin = np.isfinite(x)
        if not fin.all():  # inf stays inf (or saturates), nan stays nan
            sat = np.copysign(fmax, x) if overflow == "sat" else x
            q = np.where(fin, q, np.where(np.isnan(x), x, sat))
    return q


def round_int(x, dtype):
    """Float to integer: round to nearest even, saturate to the type's range, NaN -> 0 (assumed, see docs)."""
    lo, hi = INT_RANGES[dtype]
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        q = np.rint(x)
        if dtype == "bool":
            return (x != 0).astype(np.float64)
        return np.clip(np.where(np.isnan(q), 0.0, q), lo, hi)


def to_dtype(x, dtype):
    """x rounded to dtype (a canonical front-end dtype name), as float64."""
    f = FLOAT_FORMATS.get(dtype)
    if f is not None:
        if dtype == "float32":  # numpy's own cast is RNE and much faster
            with np.errstate(over="ignore"):
                return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)
        if dtype == "float16":
            with np.errstate(over="ignore"):
                return np.asarray(x, dtype=np.float64).astype(np.float16).astype(np.float64)
        return round_float(x, *f)
    if dtype in INT_RANGES:
        return round_int(x, dtype)
    if dtype == "float64":
        return np.asarray(x, dtype=np.float64)
    raise KeyError(dtype)


def fp32(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)


def ulp(x, dtype):
    """Spacing of dtype at |x| (the unit in the last place of the value nearest x); 1 for integer types."""
    f = FLOAT_FORMATS.get(dtype)
    if f is None:
        return np.ones_like(np.asarray(x, dtype=np.float64))
    mant, emin = f[0], f[1]
    if dtype == "float32":  # numpy's spacing of the float32 value (for |x| a power of two: the gap above)
        with np.errstate(over="ignore", invalid="ignore"):
            x32 = np.abs(np.where(np.isfinite(x), x, 0.0)).astype(np.float32)
        return np.spacing(np.maximum(x32, np.float32(2.0 ** -126))).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        _, e = np.frexp(np.where(np.isfinite(x), x, 0.0))
        return np.ldexp(1.0, np.maximum(e - 1, emin) - mant)


def round_stochastic(x, dtype, rng):
    """Stochastic rounding to dtype: round down or up with probability given by the distance (seeded rng)."""
    f = FLOAT_FORMATS[dtype]
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        _, e = np.frexp(x)
        scale = np.ldexp(1.0, np.maximum(e - 1, f[1]) - f[0])
        y = x / scale
        lo = np.floor(y)
        q = (lo + (rng.random(x.shape) < (y - lo))) * scale
    return to_dtype(np.where(np.isfinite(x), q, x), dtype)


def bits(value, dtype):
    """The bit pattern of a value already representable in dtype (for tests and documentation)."""
    if dtype == "float32":
        return int(np.array(value, dtype=np.float32).view(np.uint32))
    if dtype == "float16":
        return int(np.array(value, dtype=np.float16).view(np.uint16))
    if dtype == "bfloat16":
        return int(np.array(value, dtype=np.float32).view(np.uint32)) >> 16
    mant, emin, _, _ = FLOAT_FORMATS[dtype]
    ebits = {2: 5, 3: 4}[mant]
    bias = 2 ** (ebits - 1) - 1
    sign = 1 if np.signbit(value) else 0
    a = abs(float(value))
    if a == 0:
        return sign << 7
    _, e = np.frexp(a)
    e = max(int(e) - 1, emin)
    frac = int(round(a / 2.0 ** (e - mant)))
    if frac < (1 << mant):  # subnormal
        return (sign << 7) | frac
    return (sign << 7) | ((e + bias) << mant) | (frac - (1 << mant))
