"""Buffer values of one value execution: a flat float64 array per buffer, read and written through the
logical operands the tracer kept in value mode (buffer, element offset, (stride, count) dims, dtype)."""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from . import fmt
from ..errors import TraceError


class Machine:
    """`exact=True` is the shadow machine: nothing is ever rounded (float64 all the way)."""

    def __init__(self, exact=False, stochastic_seed=None):
        self.exact = exact
        self.mem = {}  # id(buffer) -> flat float64 array
        # stochastic rounding of engine results (the runtime's rounding-mode switch), seeded; None: RNE
        self.rng = None if stochastic_seed is None else np.random.Generator(np.random.PCG64(stochastic_seed))

    def storage(self, buf, need=0):
        a = self.mem.get(id(buf))
        if a is None or a.size < need:
            n = 1
            for d in buf.shape:
                n *= d
            if buf.memory != "hbm" and buf.shape:
                n = max(n, buf.shape[0] * buf.pstride)
            n = max(n, need)
            b = np.full(n, np.nan)  # uninitialized memory reads as NaN: never a silent plausible value
            if a is not None:
                b[:a.size] = a
            a = self.mem[id(buf)] = b
        return a

    def set_buffer(self, buf, values):
        a = self.storage(buf)
        v = np.asarray(values, dtype=np.float64).reshape(-1)
        a[:v.size] = v if self.exact else fmt.to_dtype(v, buf.dtype)

    def view(self, operand, where):
        """A (writable) strided view of an operand with its logical shape."""
        buf, off, dims, dtype, indirect = operand
        if indirect:
            raise TraceError("unsupported", f"{where}: an indirect (tile-indexed) access in value mode",
                             "value execution supports direct accesses only")
        if dtype != buf.dtype and fmt.FLOAT_FORMATS.get(dtype, (0,))[0] != fmt.FLOAT_FORMATS.get(buf.dtype, (1,))[0]:
            raise TraceError("unsupported", f"{where}: a view of '{buf.name}' ({buf.dtype}) as {dtype} "
                             "(a bit reinterpretation) in value mode")
        if any(s < 0 for s, c in dims if c > 1):
            raise TraceError("unsupported", f"{where}: a negative stride in value mode")
        end = off + sum((c - 1) * s for s, c in dims) + 1
        a = self.storage(buf, end)
        shape = tuple(c for _, c in dims)
        return as_strided(a[off:], shape=shape, strides=tuple(s * 8 for s, _ in dims))

    def read(self, operand, where):
        return np.array(self.view(operand, where))

    def write(self, operand, value, where, engine=True):
        v = self.view(operand, where)
        value = np.asarray(value, dtype=np.float64)
        if value.shape != v.shape:
            if value.size == v.size:
                value = value.reshape(v.shape)
            else:
                value = np.broadcast_to(value, v.shape)
        if not self.exact:
            dtype = operand[3]
            if self.rng is not None and engine and dtype in fmt.STOCHASTIC:
                value = fmt.round_stochastic(value, dtype, self.rng)
            else:
                value = fmt.to_dtype(value, dtype)
        v[...] = value
        return value
