"""Tensor creation: nl.ndarray / zeros / ones / full / *_like, including `nl.par_dim` block layouts."""
import sys

from . import dtypes
from .emit import emit, dtype_arg, make_ap
from .errors import kernel_error, unsupported, TraceError
from . import placement
from .ops import psum_bank_check
from .tracer import T, Buffer, check_onchip_shape
from .views import MEMORIES, Memory, Tensor

__all__ = ["MEMORIES", "Memory", "allocate", "like", "par_dim"]  # Memory and MEMORIES live in tensor.py


class par_dim(int):
    """Marks the partition dimension in a shape: `(4, nl.par_dim(128), 512)` is 4 tiles of [128, 512]."""

    def __new__(cls, size):
        obj = int.__new__(cls, size)
        return obj

    @property
    def size(self):
        return int(self)


def _dims_for(shape, pi):
    """User-order dims of a block layout [blocks..., P, free...] stored as IR shape [P, blocks..., free...]."""
    blocks, p, free = shape[:pi], shape[pi], shape[pi + 1:]
    fprod = 1
    for d in free:
        fprod *= d
    bprod = 1
    for d in blocks:
        bprod *= d
    pstride = bprod * fprod
    dims = []
    stride = fprod
    for d in reversed(blocks):
        dims.append((stride, d))
        stride *= d
    dims.reverse()
    dims.append((pstride, p))
    stride = 1
    fdims = []
    for d in reversed(free):
        fdims.append((stride, d))
        stride *= d
    dims.extend(reversed(fdims))
    return (p,) + tuple(blocks) + tuple(free), tuple(dims)


def _shape_arg(shape):
    if isinstance(shape, int):
        shape = (shape,)
    out = []
    pi = None
    for i, d in enumerate(shape):
        if isinstance(d, par_dim):
            pi = i
        if isinstance(d, Tensor) or not hasattr(d, "__index__"):
            raise unsupported(f"shape entry of type {type(d).__name__}", "shapes must be Python integers")
        d = int(d)
        if d <= 0:
            raise kernel_error(f"shape {list(shape)} has a non-positive dimension")
        out.append(d)
    return tuple(out), pi


_layout_cache = {}


def allocate(shape, dtype, buffer=None, name="", init=None, loc=None):
    return _allocate(shape, dtype, buffer, name, init, loc or T.loc(sys._getframe(2)))


def _allocate(shape, dtype, buffer, name, init, loc):
    key = None
    hit = None
    if type(shape) is tuple:
        # par_dim(128) == 128: a shape naming the partition dim must not find a plain shape's entry.
        if len(shape) == 2:
            if type(shape[0]) is not par_dim and type(shape[1]) is not par_dim:
                key = (shape, dtype, buffer)
                hit = _layout_cache.get(key)
        else:
            for d in shape:
                if type(d) is par_dim:
                    break
            else:
                key = (shape, dtype, buffer)
                hit = _layout_cache.get(key)
    if hit is not None:
        # Tiles allocated in a loop body: same shape each iteration, so reuse the checked layout (its
        # on-chip size check passed when the entry was made) and the whole-tile operand.
        shape, dt, mem, ir_shape, dims, pstride, rap = hit
        memory = mem.memory
        buf = Buffer(name or T.var_name(loc, "tensor"), memory, ir_shape, dt, "tile", loc[0] if loc else (0, 0),
                     "", pstride)
        T.buffers.append(buf)
        buf.rdims = dims
        if rap is not None:
            buf.rap = ((buf,) + rap[0], rap[1])
        view = Tensor(buf, 0, dims, dt, None, True, shape)
        if init is not None:
            if memory == "psum" and init == 0:
                buf.zeroed = True
                buf.written = True
            else:
                emit("memset", "vector", [view], [], {"value": init}, loc=loc)
        return view
    shape, pi = _shape_arg(shape)
    dt = dtype_arg(dtype, None)
    if dt is None:
        raise kernel_error("tensor creation needs a dtype")
    if getattr(buffer, "placement", None) is not None and buffer.memory != "hbm":
        view = placement.allocate(shape, dt, buffer, pi or 0, name, loc)
        if init is not None:
            emit("memset", "vector", [view], [], {"value": init}, loc=loc)
        return view
    mem = buffer if isinstance(buffer, Memory) else MEMORIES["sbuf"] if buffer is None else None
    if mem is None:
        raise unsupported(f"buffer={buffer!r}", "use buffer=nl.sbuf, nl.psum, nl.hbm, nl.shared_hbm or nl.private_hbm")
    label = name or T.var_name(loc, "tensor")
    if mem.memory == "hbm":
        return _allocate_hbm(shape, dt, mem, label, loc, init)
    ir_shape, dims = _dims_for(shape, pi or 0)
    block = (ir_shape[0],) + shape[(pi or 0) + 1:]
    if mem.memory == "psum":
        psum_bank_check(block, dt, "nl.ndarray")
    if pi:
        # Block dims ahead of the partition dim: each block is a tile of its own to the compiler, so the
        # capacity check is per block; blocks live at once beyond capacity are the simulator's overflow
        # (what the compiler would spill), not a tracing error.
        check_onchip_shape(mem.memory, block, dt)
        buf = Buffer(label, mem.memory, ir_shape, dt, "tile", loc[0] if loc else (0, 0))
        T.buffers.append(buf)
    else:
        buf = T.new_buffer(label, mem.memory, ir_shape, dt, "tile", loc)
    buf.rdims = dims
    view = Tensor(buf, 0, dims, dt, None, True, shape)
    if key is not None:
        try:
            ap, n = make_ap(view, None)
            rap = (ap[1:], n)
        except TraceError:
            rap = None  # the error is raised again where the tile is used
        buf.rap = None
        _layout_cache[key] = (shape, dt, mem, ir_shape, dims, buf.pstride, rap)
    if init is not None:
        if mem.memory == "psum" and init == 0:
            buf.zeroed = True
            buf.written = True
        else:
            emit("memset", "vector", [view], [], {"value": init}, loc=loc)
    return view


def _allocate_hbm(shape, dt, mem, label, loc, init):
    dims = []
    stride = 1
    for d in reversed(shape):
        dims.append((stride, d))
        stride *= d
    dims = tuple(reversed(dims))
    if mem.name == "shared_hbm":
        ordinal = T.shared_ordinal
        T.shared_ordinal += 1
        if T.pid != tuple(0 for _ in T.pid):
            if ordinal < len(T.shared_allocs):
                buf = T.shared_allocs[ordinal]
                if buf.shape == shape and buf.dtype == dt:
                    return Tensor(buf, 0, dims, dt, root=True)
        buf = T.new_buffer(label, "hbm", shape, dt, "output", loc, kind="shared_hbm")
        T.shared_allocs.append(buf)
    else:
        buf = T.new_buffer(label, "hbm", shape, dt, "scratch", loc, kind=mem.name)
    view = Tensor(buf, 0, dims, dt, root=True)
    if init is not None:
        raise unsupported("initialized HBM tensors (nl.zeros in HBM)", "allocate in SBUF, fill, then nl.store")
    return view


def like(a, dtype=None, buffer=None, name="", init=None):
    if not isinstance(a, Tensor):
        raise kernel_error(f"expected a tensor, got {type(a).__name__}")
    mem = buffer
    if mem is None:
        mem = MEMORIES[a.buf.kind or a.buf.memory]
    return allocate(a.shape, dtype or a.dtype, mem, name, init, loc=T.loc(sys._getframe(2)))


__all__ = ["Memory", "MEMORIES", "par_dim", "allocate", "like", "dtypes"]
