"""`Tensor`: a view of a buffer (HBM tensor or on-chip tile) as an offset plus strided dims.

A view addresses the buffer's flat element space: element = off + sum(i_k * stride_k), dims =
((stride, count), ...) in the user's index order. For on-chip buffers the flat index is
`partition * pstride + free`, so the dim whose stride equals `pstride` is the partition dim.
This is the front end's value layer: it imports nothing that records. Indexing (`t[key]`, which only builds new
views) is attached to `Tensor` by views.py, the rest of the value layer; operators (`a + b`), assignment
(`t[k] = v`) and the other methods that record instructions by the operator layer (operators.py); see
tests/frontend/test_layers.py for the layer order.
"""
from operator import itemgetter

from . import dtypes
from .errors import kernel_error, unsupported

_COUNT = itemgetter(1)  # (stride, count) -> count, without a comprehension's frame


# memory -> the arena buffer of the tiles the kernel placed itself (placement.py), for this trace: the tracer's
# `arenas` is this dict (Tracer.reset empties it), kept here so that values can ask about it.
ARENAS = {}


def counts_bytes(b):
    """Whether b is a memory's arena of kernel-placed tiles, whose views count bytes whatever their dtype."""
    return ARENAS.get(b.memory) is b


class Memory:
    """A memory kind passed as `buffer=` (nl.sbuf, nl.psum, nl.hbm, nl.shared_hbm, nl.private_hbm)."""
    __slots__ = ("name", "memory")

    def __init__(self, name, memory):
        self.name = name
        self.memory = memory

    def __repr__(self):
        return f"nl.{self.name}"


MEMORIES = {n: Memory(n, m) for n, m in (("sbuf", "sbuf"), ("psum", "psum"), ("hbm", "hbm"),
                                           ("shared_hbm", "hbm"), ("private_hbm", "hbm"))}


def _as_int(k):
    if type(k) is int:
        return k
    if isinstance(k, bool):
        raise unsupported("a boolean used as an index")
    idx = getattr(k, "__index__", None)
    if idx is None:
        return None
    return idx()


class Tensor:
    """A view of a Buffer; `checks` holds index expressions whose bounds wait for the op's mask."""
    __slots__ = ("buf", "off", "dims", "dtype", "shape", "checks", "root", "inplace", "__weakref__")

    def __init__(self, buf, off, dims, dtype, checks=None, root=False, shape=None):
        self.buf = buf
        self.off = off
        self.dims = dims
        self.dtype = dtype
        self.shape = shape if shape is not None else tuple(map(_COUNT, dims))
        self.checks = checks
        self.root = root
        self.inplace = False

    # ------------------------------------------------------------------ properties
    @property
    def buffer(self):
        return MEMORIES[self.buf.kind or self.buf.memory]

    @property
    def ndim(self):
        return len(self.dims)

    @property
    def size(self):
        n = 1
        for c in self.shape:
            n *= c
        return n

    @property
    def name(self):
        return self.buf.name

    def __len__(self):
        return self.shape[0] if self.shape else 0

    def __iter__(self):
        raise unsupported("iterating over a tile in Python", "index it with slices or nl.arange instead")

    def __bool__(self):
        # A named tensor is a Python object (`if bias:` tests that one was passed); the result of an
        # operation is data, whose values are not known while tracing.
        if not self.buf.temp:
            return True
        raise unsupported("a computed tile used as a Python bool (tile values are not known while tracing)",
                          "use nl.where / masks; control flow can only depend on shapes and loop indices")

    def __repr__(self):
        return f"<{self.buf.memory} tensor {self.buf.name} {list(self.shape)} {self.dtype}>"

    def reshape(self, shape, *more):
        if more or isinstance(shape, int):
            shape = (shape,) + more
        shape = tuple(int(s) for s in shape)
        n = 1
        for s in shape:
            n *= s
        if n != self.size:
            raise kernel_error(f"cannot reshape {list(self.shape)} into {list(shape)}")
        if self.buf.memory != "hbm":
            return self._reshape_free(shape)
        if not self._contiguous():
            raise unsupported("reshape of a non-contiguous view", "reshape the whole tensor before slicing it")
        dims, stride = [], 1
        for s in reversed(shape):
            dims.append((stride, s))
            stride *= s
        return Tensor(self.buf, self.off, tuple(reversed(dims)), self.dtype)

    def _reshape_free(self, shape):
        """An on-chip tile keeps its partition dim; its free dims may be regrouped when they are contiguous."""
        if not shape or shape[0] != self.shape[0]:
            raise unsupported(f"reshape of on-chip tile '{self.buf.name}' from {list(self.shape)} to {list(shape)} "
                              "changes its partition dimension", "an on-chip reshape keeps the first dimension")
        unit = dtypes.SIZES[self.dtype] if counts_bytes(self.buf) else 1
        free = Tensor(self.buf, self.off, self.dims[1:], self.dtype)
        if not free._contiguous(unit):
            raise unsupported(f"reshape of a non-contiguous view of on-chip tile '{self.buf.name}'",
                              "reshape the whole tile before slicing it")
        dims, stride = [], unit
        for s in reversed(shape[1:]):
            dims.append((stride, s))
            stride *= s
        return Tensor(self.buf, self.off, (self.dims[0],) + tuple(reversed(dims)), self.dtype)

    def _contiguous(self, unit=1):
        stride = unit
        for s, c in reversed(self.dims):
            if c != 1 and s != stride:
                return False
            stride *= c
        return True

    def view(self, dtype):
        return Tensor(self.buf, self.off, self.dims, dtypes.normalize(dtype) or self.dtype)


# `t[...] = nl.load(src)`: nl.load returns a placeholder on _PENDING and keeps (src, loc) here; the
# statement's STORE_SUBSCR follows immediately and hands the placeholder to t.__setitem__.
_PENDING = object.__new__(type("PendingLoad", (), {"__slots__": ()}))
_pending = [None, None]


def pending_load(src, loc):
    _pending[0] = src
    _pending[1] = loc
    return _PENDING_VIEW


class IndirectTensor(Tensor):
    """A view addressed through tiles of indices (`table[idx_tile, :]`): instructions that use it also
    read `indirect`, the index tiles (see _index_general)."""
    __slots__ = ("indirect", "placed")  # placed: for value mode, see _placed


INDIRECT_SEEN = [False]  # set once a kernel indexes with a tile: until then emit skips looking for them
_PENDING_VIEW = Tensor(_PENDING, 0, (), "float32", None, True, ())
