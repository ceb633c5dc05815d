"""The arithmetic of the engines on float64 arrays: ALU operators (VectorE/GpSimdE/ScalarE tensor_scalar
and tensor_tensor) and the activation functions of ScalarE. Rounding is the caller's (valops.py)."""
import math

import numpy as np

_erf = np.frompyfunc(math.erf, 1, 1)


def erf(x):
    return _erf(x).astype(np.float64)


def _sigmoid(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


def _gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def _gelu(x):
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def _gelu_dx(x):
    return 0.5 * (1.0 + erf(x / math.sqrt(2.0))) + x * np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def _silu_dx(x):
    s = _sigmoid(x)
    return s * (1.0 + x * (1.0 - s))


def _softplus(x):
    return np.logaddexp(0.0, x)


ACTIVATIONS = {
    "exp": np.exp, "log": np.log, "tanh": np.tanh, "sigmoid": _sigmoid, "relu": lambda x: np.maximum(x, 0.0),
    "gelu": _gelu, "gelu_apprx_tanh": _gelu_tanh, "gelu_apprx_sigmoid": lambda x: x * _sigmoid(1.702 * x),
    "gelu_dx": _gelu_dx, "silu": lambda x: x * _sigmoid(x), "silu_dx": _silu_dx, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x), "abs": np.abs, "square": np.square, "erf": erf,
    "erf_dx": lambda x: 2.0 / math.sqrt(math.pi) * np.exp(-x * x), "softplus": _softplus,
    "mish": lambda x: x * np.tanh(_softplus(x)), "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "arctan": np.arctan, "sign": np.sign, "ceil": np.ceil, "floor": np.floor, "trunc": np.trunc,
    "reciprocal": lambda x: 1.0 / x, "copy": lambda x: x, "identity": lambda x: x, "bypass": lambda x: x,
    "negative": np.negative,
}


def _bool(f):
    return lambda a, b: f(a, b).astype(np.float64)


def _int(f):
    return lambda a, b: f(a.astype(np.int64), b.astype(np.int64)).astype(np.float64)


BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "maximum": np.maximum, "minimum": np.minimum, "max": np.maximum, "min": np.minimum, "power": np.power,
    "fmod": np.fmod, "mod": np.mod, "abs_max": lambda a, b: np.maximum(np.abs(a), np.abs(b)),
    "abs_min": lambda a, b: np.minimum(np.abs(a), np.abs(b)),
    "equal": _bool(np.equal), "not_equal": _bool(np.not_equal), "greater": _bool(np.greater),
    "greater_equal": _bool(np.greater_equal), "less": _bool(np.less), "less_equal": _bool(np.less_equal),
    "logical_and": _bool(np.logical_and), "logical_or": _bool(np.logical_or),
    "logical_xor": _bool(np.logical_xor), "bitwise_and": _int(np.bitwise_and), "bitwise_or": _int(np.bitwise_or),
    "bitwise_xor": _int(np.bitwise_xor), "left_shift": _int(np.left_shift), "right_shift": _int(np.right_shift),
    "bypass": lambda a, b: a,
}
UNARY_ALU = {"negative": np.negative, "logical_not": lambda a: (a == 0).astype(np.float64),
             "abs": np.abs, "rsqrt": lambda a: 1.0 / np.sqrt(a), "reciprocal": lambda a: 1.0 / a}

# reduce op -> (identity, ufunc); "add" and "mean" are accumulated in order by valops.sequential_sum
REDUCE = {"add": np.add, "mean": np.add, "max": np.maximum, "maximum": np.maximum, "min": np.minimum,
          "minimum": np.minimum, "multiply": np.multiply, "logical_and": np.logical_and,
          "logical_or": np.logical_or, "abs_max": None}
