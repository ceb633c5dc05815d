"""Every argument kind: a tuple, a list, a dict, None, a bool, a string, a float and an enum member."""
import enum

import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


class Mode(enum.Enum):
    COPY = 1
    SCALE = 2


@nki.jit
def shape_args(a, shape2d, sizes=[1], options={"k": 1}, bias=None, flag=False, label="x", factor=1.0,
               mode=Mode.COPY):
    p, f = shape2d                                   # a tuple unpacks
    assert sizes[0] * options["k"] == p * f, f"{sizes} {options} {shape2d}"
    assert bias is None and isinstance(flag, bool) and isinstance(label, str) and isinstance(factor, float)
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    if mode is Mode.SCALE:
        t = t * factor
    nl.store(out, t)
    return out
