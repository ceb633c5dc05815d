"""NumPy as kernels see it on a Neuron machine, where ml_dtypes has taught NumPy the ML dtypes.

Debian's NumPy does not know bfloat16 or the FP8 types, and ml_dtypes is not packaged. Kernels ask
`np.dtype(nl.bfloat16).itemsize` or `np.finfo(nl.bfloat16).min`; after the real NumPy is imported,
`numpy.dtype` and `numpy.finfo` are wrapped so that these names answer, and every other use goes to
NumPy unchanged. Limits of the extra types are those of their formats (bfloat16: 8 exponent bits and
7 mantissa bits; float8_e4m3 as on NeuronCore-v2/v3: max 240; OCP float8_e4m3fn: max 448; float8_e5m2:
max 57344).
"""
from . import dtypes

_LIMITS = {  # name: (max, smallest normal, epsilon, kind)
    "bfloat16": (3.3895313892515355e38, 1.1754943508222875e-38, 0.0078125, "f"),
    "float8_e4m3": (240.0, 0.015625, 0.125, "f"),
    "float8_e4m3fn": (448.0, 0.015625, 0.125, "f"),
    "float8_e5m2": (57344.0, 6.103515625e-05, 0.25, "f"),
    "tfloat32": (3.4028234663852886e38, 1.1754943508222875e-38, 0.0009765625, "f"),
}


class NkiDtype:
    """A dtype NumPy does not have: name, itemsize and kind, equal to its name."""

    def __init__(self, name):
        self.name = name
        self.itemsize = dtypes.SIZES[name]
        self.kind = _LIMITS.get(name, (0, 0, 0, "V"))[3]
        self.type = self

    def __eq__(self, other):
        return dtypes.normalize(other) == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"dtype('{self.name}')"

    __str__ = lambda self: self.name  # noqa: E731


class NkiFinfo:
    def __init__(self, name):
        top, tiny, eps, _ = _LIMITS[name]
        self.dtype = NkiDtype(name)
        self.bits = dtypes.SIZES[name] * 8
        self.max, self.min, self.tiny, self.smallest_normal, self.eps = top, -top, tiny, tiny, eps


def _extra_name(obj):
    name = dtypes.normalize(obj)
    return name if name in dtypes.SIZES else None


def patch(numpy):
    """Wrap numpy.dtype and numpy.finfo of the freshly imported real NumPy module."""
    real_dtype, real_finfo = numpy.dtype, numpy.finfo

    class _DtypeType(type):
        def __instancecheck__(cls, obj):
            return isinstance(obj, (real_dtype, NkiDtype))

        def __call__(cls, obj, *args, **kwargs):
            try:
                return real_dtype(obj, *args, **kwargs)
            except TypeError:
                name = _extra_name(obj)
                if name is None:
                    raise
                return NkiDtype(name)

    class dtype(metaclass=_DtypeType):  # noqa: N801 (NumPy's name)
        pass

    def finfo(obj):
        try:
            return real_finfo(obj)
        except (TypeError, ValueError):
            name = _extra_name(obj)
            if name not in _LIMITS:
                raise
            return NkiFinfo(name)

    numpy.dtype = dtype
    numpy.finfo = finfo
