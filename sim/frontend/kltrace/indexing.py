"""Symbolic index expressions of the legacy API: nl.arange / nl.mgrid, nl.ds and mask predicates.

An `IndexExpr` is an affine function `const + sum(coef[a] * i_a)` over the axes of a broadcast grid of
`shape`; `i_a` runs over `range(shape[a])`. Only affine combinations are representable; anything else
(`//`, `%`, products of two expressions) is reported as unsupported.
"""
from operator import itemgetter

from .errors import unsupported


def _broadcast(s1, s2):
    n = max(len(s1), len(s2))
    a = (1,) * (n - len(s1)) + s1
    b = (1,) * (n - len(s2)) + s2
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise unsupported(f"index expressions of shapes {s1} and {s2} do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(out)


def _align(shape, coefs, rank):
    pad = rank - len(shape)
    return (1,) * pad + shape, (0,) * pad + coefs


_new_expr = object.__new__  # _new_expr(IndexExpr): an expression with no slot set (IndexExpr.__add__ sets each)


class IndexExpr:
    """Affine index over a broadcast grid (see module docstring)."""
    __slots__ = ("shape", "coefs", "const", "span", "memo")

    def __init__(self, shape, coefs, const=0, span=None):
        self.shape = shape
        self.coefs = coefs
        self.const = const
        self.span = span  # (min, max) of the non-constant part over the whole grid, computed on demand
        # views._tensor_getitem's last template of a key ending with this expression, one entry per key length
        # (2, 3, 4). The list is shared with every `self + n` (same shape and coefficients, which the template
        # depends on; not the constant), so a loop's fresh `n * 512 + i.x` finds what the last one left.
        self.memo = [None, None, None]

    # --- shape manipulation: expr[:, None], expr[None, :]
    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        shape, coefs, src = [], [], 0
        for k in key:
            if k is None:
                shape.append(1)
                coefs.append(0)
            elif isinstance(k, slice) and k == slice(None):
                shape.append(self.shape[src])
                coefs.append(self.coefs[src])
                src += 1
            else:
                raise unsupported("index expressions can only be reshaped with ':' and None")
        while src < len(self.shape):
            shape.append(self.shape[src])
            coefs.append(self.coefs[src])
            src += 1
        return IndexExpr(tuple(shape), tuple(coefs), self.const)

    # --- affine arithmetic
    def _combine(self, other, sign):
        if type(other) is int:
            return IndexExpr(self.shape, self.coefs, self.const + sign * other, self.span)
        if isinstance(other, IndexExpr):
            rank = max(len(self.shape), len(other.shape))
            s1, c1 = _align(self.shape, self.coefs, rank)
            s2, c2 = _align(other.shape, other.coefs, rank)
            shape = _broadcast(s1, s2)
            coefs = tuple(a + sign * b for a, b in zip(c1, c2))
            return IndexExpr(shape, coefs, self.const + sign * other.const)
        if isinstance(other, int) and not isinstance(other, bool):
            return IndexExpr(self.shape, self.coefs, self.const + sign * other)
        return NotImplemented

    def __add__(self, other):
        if type(other) is int:  # `offset + i_p`, the common case (every load's key in a tiled loop)
            # Made field by field (_new_expr), as views are: calling the class runs __init__ through the type's
            # slots, a Python call more per expression; test_views checks every slot against the class's.
            e = _new_expr(IndexExpr)
            e.shape = self.shape
            e.coefs = self.coefs
            e.const = self.const + other
            e.span = self.span or self.full_span()
            e.memo = self.memo
            return e
        return self._combine(other, 1)

    __radd__ = __add__

    def __sub__(self, other):
        return self._combine(other, -1)

    def __rsub__(self, other):
        return (-self)._combine(other, 1)

    def __neg__(self):
        return IndexExpr(self.shape, tuple(-c for c in self.coefs), -self.const)

    def __mul__(self, other):
        if isinstance(other, int) and not isinstance(other, bool):
            return IndexExpr(self.shape, tuple(c * other for c in self.coefs), self.const * other)
        raise unsupported("an index expression can only be multiplied by an integer constant",
                          "keep indices affine: i_p + 128 * m")

    __rmul__ = __mul__

    def _not_affine(self, *_):
        raise unsupported("non-affine index expression (//, %, / or a product of two indices)",
                          "keep indices affine: a + b * i with integer constants a, b")

    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __truediv__ = __rtruediv__ = _not_affine

    # --- predicates for mask=
    def _cmp(self, other, op):
        diff = self - other if isinstance(other, (IndexExpr, int)) else self._bad(other)
        return Pred(((diff, op),))

    def _bad(self, other):
        raise unsupported(f"cannot compare an index expression with {type(other).__name__}")

    def __lt__(self, other):
        return self._cmp(other, "<")

    def __le__(self, other):
        return self._cmp(other, "<=")

    def __gt__(self, other):
        return self._cmp(other, ">")

    def __ge__(self, other):
        return self._cmp(other, ">=")

    def __eq__(self, other):
        return self._cmp(other, "==")

    def __ne__(self, other):
        return self._cmp(other, "!=")

    __hash__ = object.__hash__

    def full_span(self):
        """(min, max) of `expr - const` over the whole grid."""
        lo = hi = 0
        for c, n in zip(self.coefs, self.shape):
            if c > 0:
                hi += c * (n - 1)
            elif c < 0:
                lo += c * (n - 1)
        span = self.span = (lo, hi)
        return span

    def bounds(self, ranges=None):
        """(min, max) of the expression over its grid, each axis optionally restricted to ranges[a]."""
        if not ranges:
            lo, hi = self.span or self.full_span()
            return self.const + lo, self.const + hi
        lo = hi = self.const
        rank = len(self.shape)
        for a in range(rank):
            c = self.coefs[a]
            if c == 0:
                continue
            r = ranges[a] if ranges else None
            first, last = (r[0], r[1] - 1) if r else (0, self.shape[a] - 1)
            if c > 0:
                lo += c * first
                hi += c * last
            else:
                lo += c * last
                hi += c * first
        return lo, hi

    def axes_used(self):
        return [a for a, c in enumerate(self.coefs) if c != 0 and self.shape[a] > 1]


class Pred:
    """A conjunction of `expr OP 0` terms (OP one of < <= > >= == !=), built by comparing indices."""
    __slots__ = ("terms",)

    def __init__(self, terms):
        self.terms = terms

    def __and__(self, other):
        if isinstance(other, Pred):
            return Pred(self.terms + other.terms)
        if isinstance(other, bool):  # a comparison of plain integers, folded while tracing
            return self if other else False
        raise unsupported("a mask can only be combined with '&' of other index comparisons")

    __rand__ = __and__

    def __or__(self, other):
        raise unsupported("mask predicates joined with '|' are not supported", "use '&' of affine comparisons")

    def __bool__(self):
        raise unsupported("an index comparison was used as a Python bool",
                          "index comparisons are only meaningful as mask= arguments")


_OPS = {"<": lambda v: v < 0, "<=": lambda v: v <= 0, ">": lambda v: v > 0, ">=": lambda v: v >= 0,
        "==": lambda v: v == 0, "!=": lambda v: v != 0}


def mask_ranges(pred, shape):
    """Per-axis [lo, hi) ranges over an iteration space `shape` that a mask keeps.

    Returns (ranges, exact): exact is False when a term spans several axes and the ranges are
    only the bounding box of the kept elements.
    """
    rank = len(shape)
    ranges = [(0, n) for n in shape]
    exact = True
    for expr, op in pred.terms:
        if len(expr.shape) > rank:
            raise unsupported(f"mask of rank {len(expr.shape)} on an operand of rank {rank}")
        eshape, ecoefs = _align(expr.shape, expr.coefs, rank)
        used = [a for a in range(rank) if ecoefs[a] != 0]
        test = _OPS[op]
        if not used:
            if not test(expr.const):
                ranges = [(0, 0) for _ in shape]
            continue
        if len(used) > 1:
            exact = False
            continue
        a = used[0]
        lo, hi = ranges[a]
        keep = [i for i in range(lo, hi) if test(expr.const + ecoefs[a] * i)]
        if keep and keep[-1] - keep[0] + 1 != len(keep):
            exact = False
        ranges[a] = (keep[0], keep[-1] + 1) if keep else (0, 0)
    return ranges, exact


def arange(*args):
    r = range(*args)
    return IndexExpr((len(r),), (r.step,), r.start)


class _MGrid:
    """`nl.mgrid[0:128, 0:512]`: one IndexExpr per axis over the full grid."""

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        ranges = []
        for k in key:
            if not isinstance(k, slice):
                raise unsupported("nl.mgrid takes slices, e.g. nl.mgrid[0:128, 0:512]")
            ranges.append(range(k.start or 0, k.stop, k.step or 1))
        shape = tuple(len(r) for r in ranges)
        exprs = []
        for a, r in enumerate(ranges):
            coefs = tuple(r.step if b == a else 0 for b in range(len(ranges)))
            exprs.append(IndexExpr(shape, coefs, r.start))
        return MGridResult(exprs)


class MGridResult(tuple):
    """Tuple of index expressions that also exposes them as .p, .x, .y, .z (legacy spelling).

    The properties are C item getters: kernels read `i.p` / `i.x` in their innermost statements, and a
    Python getter costs a frame per read."""

    p = property(itemgetter(0))
    x = property(itemgetter(1))
    y = property(itemgetter(2))
    z = property(itemgetter(3))


mgrid = _MGrid()


class DynSlice:
    """`nl.ds(start, size)`: a slice of `size` elements from `start` (start may be an int only)."""
    __slots__ = ("start", "size", "step")

    def __init__(self, start, size, step=1):
        if not isinstance(start, int) or not isinstance(size, int):
            raise unsupported("nl.ds with a runtime (non-integer) start or size",
                              "start and size must be Python integers during tracing")
        self.start = start
        self.size = size
        self.step = step
