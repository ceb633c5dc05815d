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
        buf, off, dims, dtype, gather = operand
        if dtype != buf.dtype and fmt.FLOAT_FORMATS.get(dtype, (0,))[0] != fmt.FLOAT_FORMATS.get(buf.dtype, (1,))[0]:
            raise TraceError("unsupported", f"{where}: a view of '{buf.name}' ({buf.dtype}) as {dtype} "
                             "(a bit reinterpretation) in value mode")
        if any(s < 0 for s, c in dims if c > 1):
            raise TraceError("unsupported", f"{where}: a negative stride in value mode")
        end = off + sum((c - 1) * s for s, c in dims) + 1
        a = self.storage(buf, end)
        shape = tuple(c for _, c in dims)
        return as_strided(a[off:], shape=shape, strides=tuple(s * 8 for s, _ in dims))

    def addresses(self, operand, where):
        """Flat element addresses of an indirect (tile-indexed) operand, from the index tiles' current values."""
        buf, off, dims, dtype, gather = operand
        if gather is False:
            raise TraceError("unsupported", f"{where}: a masked indirect (tile-indexed) access in value mode",
                             "value execution gathers and scatters without a mask only")
        shape = tuple(c for _, c in dims)
        addr = np.full(shape, off, dtype=np.int64)
        for axis, (s, c) in enumerate(dims):
            addr += (s * np.arange(c, dtype=np.int64)).reshape((1,) * axis + (c,) + (1,) * (len(dims) - axis - 1))
        for index_operand, stride, first in gather:
            idx = self.read(index_operand, where)
            if not np.isfinite(idx).all():
                raise TraceError("kernel_error", f"{where}: an index tile holds values never written (NaN)",
                                 "write every index before the gather")
            idx = idx.astype(np.int64)
            idx = idx.reshape((1,) * first + idx.shape + (1,) * (len(shape) - first - idx.ndim))
            try:
                addr = addr + stride * idx
            except ValueError:
                raise TraceError("unsupported", f"{where}: index tile {list(idx.shape)} does not fit the access "
                                 f"{list(shape)} in value mode")
        size = self.storage(buf).size
        bad = (addr < 0) | (addr >= size)
        if bad.any():
            raise TraceError("kernel_error", f"{where}: an index reaches element {int(addr[bad].flat[0])} of "
                             f"'{buf.name}', which has {size}", "indices must stay inside the indexed tensor")
        return addr

    def read(self, operand, where):
        if operand[4] is not None:
            return self.storage(operand[0])[self.addresses(operand, where)]
        return np.array(self.view(operand, where))

    def write(self, operand, value, where, engine=True):
        if operand[4] is not None:  # a scatter: the same conversion, through the index tiles' addresses
            addr = self.addresses(operand, where)
            value = np.asarray(value, dtype=np.float64)
            value = value.reshape(addr.shape) if value.size == addr.size else np.broadcast_to(value, addr.shape)
            value = value if self.exact else fmt.to_dtype(value, operand[3])
            self.storage(operand[0])[addr] = value
            return value
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
