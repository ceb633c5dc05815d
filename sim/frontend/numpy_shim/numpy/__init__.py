"""Dtype-only stand-in for NumPy, used only when the real NumPy cannot be imported.

Kernels often `import numpy as np` just to name dtypes (np.float32) or to pass a NumPy function as an
ALU / activation operator (`nisa.tensor_reduce(np.max, ...)`, `nisa.tensor_tensor(a, b, np.add)`).
Dtype names resolve to the front end's dtype strings; the functions are stand-ins that carry NumPy's
own `__name__` (NumPy 1.x: np.max is "amax"), which the front end maps to the nl op names. Calling
one, or any other NumPy use, is reported as unsupported.
"""
import sys

from kltrace.errors import unsupported
from kltrace.tracer import T

_DTYPES = ("float32", "float16", "int32", "int16", "int8", "uint32", "uint16", "uint8", "float64", "int64")
for _d in _DTYPES:
    globals()[_d] = _d
bool_ = "bool"
float_ = "float32"


def dtype(x):
    from kltrace import dtypes
    return dtypes.normalize(x) or x


def _refuse(name, frame):
    file, line = T.where(frame)
    err = unsupported(f"numpy.{name} at {file}:{line}: NumPy is not installed, so only dtype names "
                      "(np.float32, np.int32, ...) and NumPy functions as NKI operators "
                      "(nisa.tensor_tensor(a, b, np.add)) are available while tracing",
                      "install python3-numpy or use nl dtypes and nl operations")
    err.file, err.line = file, line
    return err


class _Function:
    """A NumPy function usable only as an operator argument of an NKI call."""

    def __init__(self, attr, name):
        self._attr = attr
        self.__name__ = name

    def __call__(self, *_, **__):
        raise _refuse(self._attr, sys._getframe(1))

    def __repr__(self):
        return f"<numpy stand-in {self.__name__}>"


# attribute -> NumPy's __name__ for it (as NumPy 1.24 names them).
_FUNCTIONS = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide", "true_divide": "divide",
    "maximum": "maximum", "minimum": "minimum", "fmax": "fmax", "fmin": "fmin", "max": "amax", "amax": "amax",
    "min": "amin", "amin": "amin", "sum": "sum", "prod": "prod", "mean": "mean", "all": "all", "any": "any",
    "power": "power", "fmod": "fmod", "mod": "remainder", "remainder": "remainder",
    "equal": "equal", "not_equal": "not_equal", "greater": "greater", "greater_equal": "greater_equal",
    "less": "less", "less_equal": "less_equal", "logical_and": "logical_and", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "logical_not": "logical_not", "bitwise_and": "bitwise_and",
    "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor", "bitwise_not": "invert", "invert": "invert",
    "left_shift": "left_shift", "right_shift": "right_shift", "abs": "absolute", "absolute": "absolute",
    "negative": "negative", "exp": "exp", "log": "log", "tanh": "tanh", "sqrt": "sqrt", "square": "square",
    "reciprocal": "reciprocal", "sin": "sin", "cos": "cos", "tan": "tan", "arctan": "arctan", "sign": "sign",
    "ceil": "ceil", "floor": "floor", "trunc": "trunc",
}
for _attr, _name in _FUNCTIONS.items():
    globals()[_attr] = _Function(_attr, _name)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise _refuse(name, sys._getframe(1))
