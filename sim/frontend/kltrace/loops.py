"""Loop helpers and SPMD queries. Loops really iterate: the IR is the unrolled dynamic trace."""
import sys

from . import replicate
from .errors import unsupported
from .tracer import T

_REPLICABLE = frozenset(("range", "affine_range", "sequential_range", "static_range"))


class TracedRange:
    """A `range` that records its induction value in the tracer's loop stack while it iterates."""
    __slots__ = ("r", "kind")

    def __init__(self, *args, kind="range"):
        for a in args:
            if not hasattr(a, "__index__"):
                raise unsupported(f"{kind} bound of type {type(a).__name__}",
                                  "loop bounds must be Python integers while tracing (tile values are unknown)")
        self.r = range(*[a.__index__() for a in args])
        self.kind = kind

    def __iter__(self):
        outer = T.replicator
        how = replicate.INSIDE
        if outer is not None:
            # A loop in the body of a loop being replicated: it runs inside the outer one's iteration (replicated
            # on its own or plainly), or the outer one is traced plainly (replicate._Replicator.holds).
            how = outer.holds(sys._getframe(1), len(self.r))
            if how == replicate.ABORT:
                outer.abort()
        depth = T.push_loop()
        iters = T.iters
        t = T
        try:
            if self.kind in _REPLICABLE and how != replicate.PLAIN:
                values = replicate.iterate(self.r, depth, sys._getframe(1))
                if values is not None:
                    yield from values
                    return
            for v in self.r:
                iters[depth] = v  # T.set_iter(depth, v), inlined: this runs once per iteration
                t.iter_tuple = tuple(iters)
                yield v
        finally:
            T.pop_loop()

    def __len__(self):
        return len(self.r)

    def __getitem__(self, i):
        return self.r[i]

    def __contains__(self, v):
        return v in self.r

    def __reversed__(self):
        return reversed(self.r)

    @property
    def start(self):
        return self.r.start

    @property
    def stop(self):
        return self.r.stop

    @property
    def step(self):
        return self.r.step


def _maker(kind):
    def make(*args, **_):
        return TracedRange(*args, kind=kind)
    make.__name__ = kind
    return make


affine_range = _maker("affine_range")
sequential_range = _maker("sequential_range")
static_range = _maker("static_range")
traced_range = _maker("range")


def program_id(axis=0):
    if axis >= len(T.pid):
        raise unsupported(f"nl.program_id({axis}) on a grid of rank {len(T.grid)}")
    return T.pid[axis]


def num_programs(axes=None):
    if axes is None:
        return T.grid[0] if len(T.grid) == 1 else tuple(T.grid)
    if isinstance(axes, int):
        return T.grid[axes]
    n = 1
    for a in axes:
        n *= T.grid[a]
    return n


def program_ndim():
    return len(T.grid)
