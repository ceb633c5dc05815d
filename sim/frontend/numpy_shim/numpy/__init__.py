"""Dtype-only stand-in for NumPy, used only when the real NumPy cannot be imported.

Kernels often `import numpy as np` just to name dtypes (np.float32). Those names resolve to the
front end's dtype strings; any other NumPy use is reported as unsupported.
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


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    file, line = T.where(sys._getframe(1))
    err = unsupported(f"numpy.{name} at {file}:{line}: NumPy is not installed, so only dtype names "
                      "(np.float32, np.int32, ...) are available while tracing",
                      "install python3-numpy or use nl dtypes and nl operations")
    err.file, err.line = file, line
    raise err
