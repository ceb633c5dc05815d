"""`nl` names of the `nki` releases 0.2-0.8 beyond the classic set in language.py: kernel-side classes
(NKIObject, NkiTensor, DType), memory-kind queries, data-dependent loops, shared constants and the
composite operators, each lowered to recorded instructions or refused with what to use instead."""
import ast
import enum
import os
import sys

from . import dtypes, isa, ops
from .alloc import MEMORIES, allocate
from .emit import emit
from .errors import kernel_error, unsupported
from .isa_more import VirtualRegister
from .loops import TracedRange
from .numpy_dtypes import _LIMITS
from .tracer import T
from .views import Tensor


class _NKIObjectType(type):
    """Builds `@dataclass` subclasses as NKI's compiler does, which is laxer than Python: keywords that
    are not fields (plain class attributes, or undeclared names) become attributes, and left-out fields
    are None. The laxness is warned about; the NKI Library depends on it."""

    def __call__(cls, *args, **kwargs):
        fields = getattr(cls, "__dataclass_fields__", None)
        extra = {}
        init_code = getattr(cls.__init__, "__code__", None)
        if fields is not None and init_code is not None and init_code.co_filename == "<string>":
            # only the __init__ that @dataclass generated; a class's own __init__ is taken as written
            extra = {k: kwargs.pop(k) for k in list(kwargs) if k not in fields}
            for k in extra:
                if not hasattr(cls, k):
                    T.warn(f"{cls.__name__}(...) is given '{k}', which it does not declare; kept as an attribute",
                           once_key=("field", cls.__name__, k))
            _default_missing_fields(cls, fields, args, kwargs)
        obj = super().__call__(*args, **kwargs)
        for key, value in extra.items():
            setattr(obj, key, value)
        return obj


def _default_missing_fields(cls, fields, args, kwargs):
    """A required field left out of the call is None, with a warning: NKI's compiler accepts such calls
    (the NKI Library relies on it) where plain Python would raise TypeError."""
    import dataclasses
    init_fields = [f for f in fields.values() if f.init and f._field_type is dataclasses._FIELD]
    for f in init_fields[len(args):]:
        if f.name in kwargs or f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            continue
        kwargs[f.name] = None
        T.warn(f"{cls.__name__}(...) leaves out field '{f.name}'; it is None while tracing",
               once_key=("field", cls.__name__, f.name))


class NKIObject(metaclass=_NKIObjectType):
    """Base of kernel-side helper classes (configs, tile plans). Plain Python while tracing."""

    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)


class MemoryRegion(enum.Enum):
    sbuf = "sbuf"
    psum = "psum"
    hbm = "hbm"
    private_hbm = "private_hbm"
    shared_hbm = "shared_hbm"


def _memory_of(buffer):
    if isinstance(buffer, Tensor):
        return buffer.buf.memory
    return getattr(buffer, "memory", getattr(buffer, "value", buffer))


def is_hbm(buffer):
    return _memory_of(buffer) == "hbm" or getattr(buffer, "value", None) in ("private_hbm", "shared_hbm")


def is_sbuf(buffer):
    return _memory_of(buffer) == "sbuf"


def is_psum(buffer):
    return _memory_of(buffer) == "psum"


def is_on_chip(buffer):
    return is_sbuf(buffer) or is_psum(buffer)


def _bound(value, what, start=0):
    """A loop bound: an int, or a register whose traced value stands in for the data it was loaded from;
    a scalar whose value only the device knows bounds a loop of one iteration (warned)."""
    if isinstance(value, VirtualRegister):
        if value.value is None:
            T.warn(f"the bound of {what} is read from device memory; traced as one iteration",
                   once_key=("bound", what, T.loc()[:1]))
            return start + 1
        return value.value
    if isinstance(value, Tensor):
        raise unsupported(f"a tile as the bound of {what}",
                          "load the value into a register (nisa.register_alloc / nisa.register_load) first")
    return value


def dynamic_range(start, stop=None, step=1):
    """A loop whose trip count may come from device memory; traced with the registers' traced values."""
    if stop is None:
        args = [0, _bound(start, "nl.dynamic_range")]
    else:
        lo = _bound(start, "nl.dynamic_range")
        args = [lo, _bound(stop, "nl.dynamic_range", lo)]
    return TracedRange(*args, _bound(step, "nl.dynamic_range"), kind="dynamic_range")


def fori_loop(lower, upper, body_fun, step=1, init_val=None):
    """`body_fun(i)` (or `body_fun(i, carry)` with an initial value) for i in [lower, upper)."""
    carry = init_val
    lo = _bound(lower, "fori_loop")
    for i in TracedRange(lo, _bound(upper, "fori_loop", lo), _bound(step, "fori_loop"), kind="fori_loop"):
        carry = body_fun(i) if init_val is None else body_fun(i, carry)
    return carry


_WHILE_LIMIT = 1_000_000


def while_loop(init, body_fun, cond_fun=None):
    """Runs `body_fun` while the condition (a register, or `cond_fun(state)`) is non-zero while tracing."""
    state = init
    for n in range(_WHILE_LIMIT + 1):
        cond = cond_fun(state) if cond_fun is not None else state
        value = cond.value if isinstance(cond, VirtualRegister) else cond
        if isinstance(value, Tensor):
            raise unsupported("a while_loop condition held in a tile", "keep the condition in a register")
        if not value:
            return state
        if n == _WHILE_LIMIT:
            raise kernel_error(f"while_loop ran {_WHILE_LIMIT} iterations while tracing",
                               "its condition never became zero with the traced register values")
        result = body_fun(state)
        state = state if result is None else result
    return state


# .npy element types (byte order aside) that are NKI dtypes.
_NPY_KINDS = {"f2": "float16", "f4": "float32", "i1": "int8", "i2": "int16", "i4": "int32", "u1": "uint8",
              "u2": "uint16", "u4": "uint32", "b1": "bool"}


def _npy_header(path):
    """(shape, dtype name) of a .npy file, read from its header only (NumPy's format 1.0 to 3.0)."""
    def refused(why):
        return unsupported(f"nl.shared_constant({path!r}): {why}", "pass a NumPy array or a .npy file NumPy wrote")
    try:
        with open(os.fspath(path), "rb") as fh:
            head = fh.read(10)
            if len(head) < 10 or head[:6] != b"\x93NUMPY":
                raise refused("not a .npy file")
            size = int.from_bytes(head[8:10] if head[6] == 1 else head[8:10] + fh.read(2), "little")
            header = ast.literal_eval(fh.read(size).decode("latin1"))
    except OSError as e:
        raise refused(f"cannot read the file: {e.strerror}") from None
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise refused("its header is not a NumPy header") from None
    descr = header.get("descr") if isinstance(header, dict) else None
    shape = header.get("shape") if isinstance(header, dict) else None
    if not isinstance(shape, tuple) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise refused(f"its header gives no shape ({shape!r})")
    name = _NPY_KINDS.get(descr.lstrip("<>|=")) if isinstance(descr, str) else None
    if name is None:
        raise refused(f"element type {descr!r} is not supported")
    return shape, name


def shared_constant(constant, dtype=None, **_):
    """A constant tensor in HBM (a NumPy array or the path of a .npy file); only its shape is traced."""
    if isinstance(constant, (str, os.PathLike)):
        shape, file_dtype = _npy_header(constant)
        dt = dtype or file_dtype
    else:
        shape = getattr(constant, "shape", None)
        if shape is None:
            raise unsupported("nl.shared_constant of a value without a shape", "pass a NumPy array or a .npy path")
        dt = dtype or getattr(getattr(constant, "dtype", None), "name", None) or "float32"
    t = allocate(tuple(shape), dt, MEMORIES["shared_hbm"], "constant", loc=T.loc(sys._getframe(1)))
    t.buf.role = "input"
    t.buf.written = True
    return t


def shared_identity_matrix(n, dtype="uint8", dst=None, **_):
    """An n x n identity in SBUF (built on GpSimdE with iota and a compare)."""
    loc = T.loc(sys._getframe(1))
    res = dst if dst is not None else allocate((n, n), dtype, MEMORIES["sbuf"], "identity", loc=loc)
    emit("iota", "gpsimd", [res], [], {"isa": "shared_identity_matrix"}, loc=loc)
    return res


class _FloatLimits:
    """nl.finfo(dtype) / nl.fp32: the limits of a float dtype (min, max, tiny, eps, bits)."""

    _STANDARD = {"float32": (3.4028234663852886e38, 1.1754943508222875e-38, 1.1920928955078125e-07),
                 "float16": (65504.0, 6.103515625e-05, 0.0009765625)}

    def __init__(self, dtype):
        name = dtypes.normalize(dtype)
        limits = self._STANDARD.get(name) or _LIMITS.get(name)
        if limits is None:
            raise unsupported(f"nl.finfo of {dtype!r}", "finfo takes a float dtype such as nl.float32")
        self.dtype, self.bits = name, dtypes.SIZES[name] * 8
        self.max, self.min, self.tiny, self.eps = limits[0], -limits[0], limits[1], limits[2]


def loop_reduce(x, op=None, loop_indices=None, *, dtype=None, mask=None, **_):
    """Legacy `nl.loop_reduce(acc op x, ...)`: the operation inside is already recorded; the loop carries it."""
    return x


def expand_dims(x, axis):
    return x.expand_dim(axis)


def _composite(name, hint):
    def refuse(*_, **__):
        raise unsupported(f"nl.{name} (a composite operator)", hint)
    refuse.__name__ = name
    return refuse


def _binary_alu(name):
    def f(x, y, *, dtype=None, mask=None, **_):
        return ops.binary_op(name, x, y, dtype, mask)
    f.__name__ = name
    return f


def var(x, axis, *, dtype=None, keepdims=False, **_):
    """Variance as the engines compute it: bn_stats then bn_aggr over the free axis."""
    stats = isa.bn_stats(None, x)
    return isa.bn_aggr(None, stats)


class _NoReorder:
    def __enter__(self):
        return self

    def __exit__(self, *_):
        return False

    def __call__(self, fn=None):
        return fn if fn is not None else self


def namespace():
    return {
        "NKIObject": NKIObject, "NkiTensor": Tensor, "tensor": Tensor, "DType": str, "MemoryRegion": MemoryRegion,
        "is_hbm": is_hbm, "is_sbuf": is_sbuf, "is_psum": is_psum, "is_on_chip": is_on_chip,
        "dynamic_range": dynamic_range, "range": TracedRange, "fori_loop": fori_loop, "while_loop": while_loop,
        "shared_constant": shared_constant, "shared_identity_matrix": shared_identity_matrix,
        "expand_dims": expand_dims, "loop_reduce": loop_reduce, "finfo": _FloatLimits, "fp32": _FloatLimits("float32"),
        "fp16": _FloatLimits("float16"), "bf16": _FloatLimits("bfloat16"), "var": var, "no_reorder": _NoReorder(),
        "abs_max": _binary_alu("abs_max"), "abs_min": _binary_alu("abs_min"),
        "average": "average", "prelu": "prelu", "bypass": "bypass",
        "softmax": _composite("softmax", "write it with nl.max, nl.exp, nl.sum and nl.divide (or nisa calls)"),
        "rms_norm": _composite("rms_norm", "write it with nisa.activation(square) + reduce, rsqrt and multiply"),
        "gather_flattened": _composite("gather_flattened", "use nisa.local_gather or an indirect DMA"),
        "dropout": _composite("dropout", "use nisa.dropout(dst, data, prob)"),
        "rand": _composite("rand", "use nisa.rand2"), "random_seed": _composite("random_seed", "use nisa.set_rng_seed"),
    }
