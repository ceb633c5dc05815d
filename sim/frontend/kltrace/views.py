"""Indexing: `t[key]` makes a new view of the same buffer (`Tensor`, tensor.py), checking the key's bounds.

The value layer's second half: `Tensor.__getitem__` is attached here, with index_view behind it (its template paths
for keys of integers and index expressions, the slice paths and the general path). Nothing here records.
"""
from .errors import kernel_error, unsupported
from .indexing import IndexExpr, DynSlice
from .tensor import INDIRECT_SEEN, MEMORIES, IndirectTensor, Memory, Tensor, _as_int, _pending

# Names other modules take from here (views is the value layer's interface; tensor.py defines them).
__all__ = ["INDIRECT_SEEN", "MEMORIES", "IndirectTensor", "Memory", "Tensor", "_pending", "index_view", "run_checks",
           "template_layout"]


class _What:
    """Describes the indexed tensor in error messages; formatted only when an error is raised."""
    __slots__ = ("view",)

    def __init__(self, view):
        self.view = view

    def __str__(self):
        return f" of {self.view.buf.name} {list(self.view.shape)}"


def _resolve_slice(k, count, what):
    if isinstance(k, DynSlice):
        start, n, step = k.start, k.size, k.step
        if n == 0 and 0 <= start <= count:
            return start, 0, step  # an empty view (a core's empty share); using it in an op is the error
        if start < 0 or n < 0 or start + (n - 1) * step >= count:
            raise kernel_error(f"nl.ds({start}, {n}) is out of bounds for a dimension of size {count}{what}",
                               "keep start + size within the dimension")
        return start, n, step
    step = 1 if k.step is None else _as_int(k.step)
    if step is None or step <= 0:
        raise unsupported("slices with a non-positive or non-integer step")
    start = 0 if k.start is None else _as_int(k.start)
    stop = count if k.stop is None else _as_int(k.stop)
    if start is None or stop is None:
        raise unsupported("slice bounds that are not integers (tile values are not known while tracing)")
    if start < 0:
        start += count
    if stop < 0:
        stop += count
    if start < 0 or stop > count or start >= stop:
        raise kernel_error(f"slice {start}:{stop} is out of bounds for a dimension of size {count}{what}",
                           "check the tile offsets and the tensor shape")
    return start, len(range(start, stop, step)), step


def _count_keys(key):
    """Keys that consume a dimension (identity tests only: `in` would call the overloaded == of index
    expressions)."""
    n = len(key)
    for k in key:
        if k is None or k is Ellipsis:
            n -= 1
    return n


# _new_view(Tensor): a view with no slot set, which the hot paths (Tensor.__getitem__, index_view's two slices) set
# one by one: calling Tensor runs __init__ through the type's slots, about 0.3 us more per view.
_new_view = object.__new__


def index_view(view, key):
    if key is Ellipsis and not view.checks:
        # `tile[...]`: the same region; sharing `dims` lets make_ap reuse the buffer's cached operand.
        return Tensor(view.buf, view.off, view.dims, view.dtype, None, False, view.shape)
    if type(key) is not tuple:
        key = (key,)
    dims = view.dims
    if view.checks:
        run_checks(view, None)
    nk = len(key)
    if nk == len(dims):
        if nk == 2:
            k0, k1 = key
            if type(k0) is slice and type(k1) is slice:
                # The common tiled-loop access: two plain in-bounds slices with integer bounds.
                a0, b0, a1, b1 = k0.start, k0.stop, k1.start, k1.stop
                (s0, c0), (s1, c1) = dims
                if (k0.step is None and k1.step is None and type(a0) is int and type(b0) is int
                        and type(a1) is int and type(b1) is int and 0 <= a0 < b0 <= c0 and 0 <= a1 < b1 <= c1):
                    n0 = b0 - a0
                    n1 = b1 - a1
                    v = _new_view(Tensor)  # field by field, as Tensor.__getitem__ makes its views
                    v.buf = view.buf
                    v.off = view.off + a0 * s0 + a1 * s1
                    v.dims = ((s0, n0), (s1, n1))
                    v.dtype = view.dtype
                    v.shape = (n0, n1)
                    v.checks = None
                    v.root = False
                    v.inplace = False
                    return v
                return _slice_view(view, key, dims)
            if type(k0) is IndexExpr and type(k1) is IndexExpr:  # `hbm[r + i.p, c + i.x]`, unrolled
                hit = _expr_templates.get((dims, k0.shape, k0.coefs, k1.shape, k1.coefs))
                if hit is not None:
                    (s0, c0), (s1, c1) = dims
                    a0, a1 = k0.const, k1.const
                    ok = hit[3]
                    checks = None  # in bounds over the whole grid: so under any mask (see _EAGER_BOUNDS)
                    if a0 not in ok[0] or a1 not in ok[1]:
                        axes = hit[1]
                        checks = ((k0, c0, axes[0]), (k1, c1, axes[1]))
                    return Tensor(view.buf, view.off + s0 * a0 + s1 * a1, hit[0], view.dtype, checks, False, hit[2])
        elif nk == 3:
            k0, k1, k2 = key
            if type(k0) is int and type(k1) is IndexExpr and type(k2) is IndexExpr:  # `blocks[b, i.p, i.x]`
                hit = _expr_templates.get((dims, None, k1.shape, k1.coefs, k2.shape, k2.coefs))
                (s0, c0), (s1, c1), (s2, c2) = dims
                if hit is not None and 0 <= k0 < c0:
                    a1, a2 = k1.const, k2.const
                    ok = hit[3]
                    checks = None  # see _EAGER_BOUNDS
                    if a1 not in ok[0] or a2 not in ok[1]:
                        axes = hit[1]
                        checks = ((k1, c1, axes[0]), (k2, c2, axes[1]))
                    return Tensor(view.buf, view.off + k0 * s0 + s1 * a1 + s2 * a2, hit[0], view.dtype, checks, False,
                                  hit[2])
        elif nk == 4:
            k0, k1, k2, k3 = key
            if type(k0) is int and type(k1) is int and type(k2) is IndexExpr and type(k3) is IndexExpr:
                # `blocks[a, b, i.p, i.x]`
                hit = _expr_templates.get((dims, None, None, k2.shape, k2.coefs, k3.shape, k3.coefs))
                (s0, c0), (s1, c1), (s2, c2), (s3, c3) = dims
                if hit is not None and 0 <= k0 < c0 and 0 <= k1 < c1:
                    a2, a3 = k2.const, k3.const
                    ok = hit[3]
                    checks = None  # see _EAGER_BOUNDS
                    if a2 not in ok[0] or a3 not in ok[1]:
                        axes = hit[1]
                        checks = ((k2, c2, axes[0]), (k3, c3, axes[1]))
                    off = view.off + k0 * s0 + k1 * s1 + s2 * a2 + s3 * a3
                    return Tensor(view.buf, off, hit[0], view.dtype, checks, False, hit[2])
        # One pass: the template's signature, the offset, and the expressions whose bounds wait for the mask.
        sig = [dims]
        off = view.off
        exprs = []
        counts = []
        for k, d in zip(key, dims):
            tk = type(k)
            if tk is IndexExpr:
                sig.append(k.shape)
                sig.append(k.coefs)
                off += d[0] * k.const
                exprs.append(k)
                counts.append(d[1])
            elif tk is int:
                sig.append(None)
                count = d[1]
                off += (k if 0 <= k < count else _checked_index(k, k, count, view)) * d[0]
            else:
                if tk is slice:
                    for k in key:
                        if type(k) is not slice:
                            break
                    else:
                        return _slice_view(view, key, dims)
                sig = None
                break
        if sig is not None:
            sig = tuple(sig)
            hit = _expr_templates.get(sig)
            if hit is not None:
                checks = None  # see _EAGER_BOUNDS
                for e, ok in zip(exprs, hit[3]):
                    if e.const not in ok:
                        checks = tuple(zip(exprs, counts, hit[1]))
                        break
                return Tensor(view.buf, off, hit[0], view.dtype, checks, False, hit[2])
            res = _index_general(view, key, dims, nk)
            if res.checks:
                valid = tuple(_valid_consts(e, count) for e, count, _ in res.checks)
                as_is = len(res.dims) != 1
                _expr_templates[sig] = (res.dims, tuple(c[2] for c in res.checks), res.shape, valid, as_is,
                                        _template_strides(sig, dims, valid, res),
                                        _template_strides(sig, dims, valid if as_is else _NO_CONSTS, res))
            return res
        res = _int_slice_view(view, key, dims)
        return res if res is not None else _index_general(view, key, dims, nk)
    elif nk > len(dims):
        nkeys = _count_keys(key)
        if nkeys > len(dims):
            raise kernel_error(f"too many indices ({nkeys}) for a tensor of rank {len(dims)} {list(view.shape)}")
    return _index_general(view, key, dims, nk)


_NO_CONSTS = (range(0), range(0))  # Tensor.__getitem__'s fields of a [P] view: no constant passes, index_view decides


def _template_strides(sig, dims, valid, res):
    """A template entry's fields for the inlined paths (template_layout, Tensor.__getitem__), unpacked in one step:
    for `t[r + i.p, c + i.x]` (s0, s1, valid0, valid1, dims, shape), for `t[b, i.p, i.x]` (s0, c0, s1, s2, valid1,
    valid2, dims, shape), for `t[a, b, i.p, i.x]` (s0, c0, s1, c1, s2, s3, valid2, valid3, dims, shape), where
    (s, c) are the indexed view's dims, valid the expressions' _valid_consts, dims and shape the result's; None for
    any other signature."""
    if len(valid) != 2:
        return None
    n = len(sig)
    if n == 5 and len(dims) == 2:
        return (dims[0][0], dims[1][0]) + valid + (res.dims, res.shape)
    if n == 6 and len(dims) == 3 and sig[1] is None:
        (s0, c0), (s1, _), (s2, _) = dims
        return (s0, c0, s1, s2) + valid + (res.dims, res.shape)
    if n == 7 and len(dims) == 4 and sig[1] is None and sig[2] is None:
        (s0, c0), (s1, c1), (s2, _), (s3, _) = dims
        return (s0, c0, s1, c1, s2, s3) + valid + (res.dims, res.shape)
    return None


def template_layout(view, key):
    """(offset, dims, shape) of index_view(view, key) for a key of integers then two index expressions (`t[b, i.p,
    i.x]`, `t[a, b, i.p, i.x]`, `t[r + i.p, c + i.x]`) whose template is known and which is in bounds over the whole
    grid (so the view has no checks); None for any other key (index_view decides). The destination of `t[key] =
    nl.load(src)` (pending._store_indexed) takes it, and makes the view only if it needs one."""
    if view.checks is not None or type(key) is not tuple:
        return None
    nk = len(key)
    dims = view.dims
    if nk == 3:
        k0, k1, k2 = key
        if type(k0) is int and type(k1) is IndexExpr and type(k2) is IndexExpr:
            hit = _expr_templates.get((dims, None, k1.shape, k1.coefs, k2.shape, k2.coefs))
            if hit is not None:
                s0, c0, s1, s2, ok1, ok2, rdims, rshape = hit[5]
                a1 = k1.const
                a2 = k2.const
                if 0 <= k0 < c0 and a1 in ok1 and a2 in ok2:
                    return view.off + k0 * s0 + s1 * a1 + s2 * a2, rdims, rshape
    elif nk == 4:
        k0, k1, k2, k3 = key
        if type(k0) is int and type(k1) is int and type(k2) is IndexExpr and type(k3) is IndexExpr:
            hit = _expr_templates.get((dims, None, None, k2.shape, k2.coefs, k3.shape, k3.coefs))
            if hit is not None:
                s0, c0, s1, c1, s2, s3, ok2, ok3, rdims, rshape = hit[5]
                a2 = k2.const
                a3 = k3.const
                if 0 <= k0 < c0 and 0 <= k1 < c1 and a2 in ok2 and a3 in ok3:
                    return view.off + k0 * s0 + k1 * s1 + s2 * a2 + s3 * a3, rdims, rshape
    elif nk == 2:
        k0, k1 = key
        if type(k0) is IndexExpr and type(k1) is IndexExpr:
            hit = _expr_templates.get((dims, k0.shape, k0.coefs, k1.shape, k1.coefs))
            if hit is not None:
                s0, s1, ok0, ok1, rdims, rshape = hit[5]
                a0 = k0.const
                a1 = k1.const
                if a0 in ok0 and a1 in ok1:
                    return view.off + s0 * a0 + s1 * a1, rdims, rshape
    return None


# Views indexed by integers and nl.arange / nl.mgrid expressions, one key per dimension: the result's
# dims and check axes depend only on the view's dims and the expressions' shapes and coefficients
# (integers and expression constants only move the offset), so they are kept per signature.
# signature -> (dims, check axes, shape, each expression's _valid_consts, whether Tensor.__getitem__ may return the
# view as it is: not a [P] one, which it makes a [P, 1] tile, the inlined paths' fields (_template_strides) for
# template_layout, the same for Tensor.__getitem__ (with no valid constants for a [P] view) or None)
_expr_templates = {}
# _EAGER_BOUNDS: a view made from a template checks its expressions' bounds at once. A mask can only narrow the
# ranges an expression takes (run_checks), so bounds that hold over the whole grid hold under every mask: the view
# needs no `checks`, and the op that reads it skips them. Only a view that reaches out of bounds over the whole
# grid keeps its checks, which wait for the op's mask and raise there, as the general path's view does.


def _valid_consts(expr, count):
    """The constants c for which `c + expr`'s non-constant part stays within a dimension of `count` over the whole
    grid (run_checks' unmasked test): a range, since the span depends only on the shape and coefficients that a
    template's signature holds."""
    lo, hi = expr.span or expr.full_span()
    return range(-lo, count - hi)


def _checked_index(key, i, count, view):
    """The integer index `i` (written `key` by the kernel) within a dimension of `count`, negative from
    the end as in Python; out of range is the kernel's error."""
    if i < 0:
        i += count
    if i < 0 or i >= count:
        raise kernel_error(f"index {key} is out of bounds for a dimension of size {count}{_What(view)}",
                           "check the tile offsets and the tensor shape")
    return i


def _index_general(view, key, dims, nk):
    gathers = None
    off = view.off
    out = []
    exprs = None
    expr_pos = 0
    di = 0
    for k in key:
        tk = type(k)
        if tk is IndexExpr:
            stride, count = dims[di]
            di += 1
            if exprs is None:
                exprs = []
                expr_pos = len(out)
            exprs.append((stride, k, count))
            continue
        if tk is int:
            stride, count = dims[di]
            di += 1
            off += _checked_index(k, k, count, view) * stride
            continue
        if k is None:
            out.append((0, 1))
            continue
        if k is Ellipsis:
            skip = len(dims) - _count_keys(key)
            out.extend(dims[di:di + skip])
            di += skip
            continue
        stride, count = dims[di]
        di += 1
        if tk is slice or isinstance(k, DynSlice):
            start, n, step = _resolve_slice(k, count, _What(view))
            off += start * stride
            out.append((stride * step, n))
            continue
        if isinstance(k, IndexExpr):
            if exprs is None:
                exprs = []
                expr_pos = len(out)
            exprs.append((stride, k, count))
            continue
        i = _as_int(k)
        if i is None:
            if isinstance(k, Tensor) and k.buf.memory != "hbm":
                # An indirect access (a gather or scatter through a tile of indices): the values are not
                # known while tracing, so it is recorded with the index tile's shape at the dimension's
                # first row (the bytes moved are right, the rows touched are not) and reads the index tile.
                if exprs is None:
                    exprs = []
                    expr_pos = len(out)
                exprs.append((stride, IndexExpr(tuple(k.shape), (0,) * len(k.shape), 0), count))
                gathers = (gathers or []) + [(k, len(exprs) - 1)]
                continue
            if isinstance(k, Tensor):
                raise unsupported("indexing with an HBM tensor of indices",
                                  "load the indices into an SBUF tile first (nl.load / nisa.dma_copy), then index with it")
            raise unsupported(f"index of type {type(k).__name__}")
        off += _checked_index(k, i, count, view) * stride
    out.extend(dims[di:])
    checks = None
    if exprs:
        shape0 = exprs[0][1].shape
        for _, e, _ in exprs:
            if e.shape is not shape0 and e.shape != shape0:
                break
        else:
            # All expressions on one grid (nl.mgrid, or aranges of one shape): no broadcasting needed.
            rank = len(shape0)
            strides = [0] * rank
            checks = []
            for stride, e, count in exprs:
                off += stride * e.const
                a = 0
                for c in e.coefs:
                    if c:
                        strides[a] += stride * c
                    a += 1
                checks.append((e, count, expr_pos))
            out[expr_pos:expr_pos] = zip(strides, shape0)
            return _indexed(view, off, out, tuple(checks), _placed(gathers, exprs, expr_pos, len(shape0)))
        rank = max(len(e.shape) for _, e, _ in exprs)
        bshape = [1] * rank
        for _, e, _ in exprs:
            pad = rank - len(e.shape)
            for a, n in enumerate(e.shape):
                if n != 1:
                    if bshape[pad + a] not in (1, n):
                        raise kernel_error(f"index expressions of shapes do not broadcast: {e.shape}")
                    bshape[pad + a] = n
        strides = [0] * rank
        checks = []
        for stride, e, count in exprs:
            pad = rank - len(e.shape)
            off += stride * e.const
            for a, c in enumerate(e.coefs):
                strides[pad + a] += stride * c
            checks.append((e, count, expr_pos + pad))
        out[expr_pos:expr_pos] = list(zip(strides, bshape))
        checks = tuple(checks)
        gathers = _placed(gathers, exprs, expr_pos, rank)
    return _indexed(view, off, out, checks, gathers)


def _placed(gathers, exprs, expr_pos, rank):
    """(index tile, element stride of the dimension it indexes, first view axis its own axes align with)."""
    if gathers is None:
        return None
    return [(k, exprs[j][0], expr_pos + rank - len(exprs[j][1].shape)) for k, j in gathers]


def _indexed(view, off, out, checks, gathers):
    if gathers is None:
        return Tensor(view.buf, off, tuple(out), view.dtype, checks)
    t = IndirectTensor(view.buf, off, tuple(out), view.dtype, checks)
    t.indirect = tuple(k for k, _, _ in gathers)
    t.placed = tuple(gathers)
    INDIRECT_SEEN[0] = True
    return t




def _slice_view(view, key, dims):
    """Fast path of index_view for a full tuple of plain slices (the common case in tiled loops)."""
    off = view.off
    out = []
    for k, (stride, count) in zip(key, dims):
        start, stop, step = k.start, k.stop, k.step
        if step is None and type(start) is int and type(stop) is int and 0 <= start < stop <= count:
            off += start * stride
            out.append((stride, stop - start))
            continue
        start, n, step = _resolve_slice(k, count, _What(view))
        off += start * stride
        out.append((stride * step, n))
    return Tensor(view.buf, off, tuple(out), view.dtype)


def _int_slice_view(view, key, dims):
    """Fast path of index_view for one key per dimension of in-bounds integers and unit-step slices with integer
    (or omitted) bounds, such as `tile[:, j, :]`; None for any other key (the general path decides)."""
    off = view.off
    out = []
    for k, (stride, count) in zip(key, dims):
        tk = type(k)
        if tk is int:
            if not 0 <= k < count:
                return None
            off += k * stride
        elif tk is slice and k.step is None:
            start, stop = k.start, k.stop
            if start is None:
                start = 0
            if stop is None:
                stop = count
            if type(start) is not int or type(stop) is not int or not 0 <= start < stop <= count:
                return None
            off += start * stride
            out.append((stride, stop - start))
        else:
            return None
    return Tensor(view.buf, off, tuple(out), view.dtype)


def run_checks(view, ranges):
    """Bounds of arange-indexed views, evaluated once the op's mask (ranges) is known."""
    if ranges is None:
        for expr, count, _ in view.checks:
            lo, hi = expr.span or expr.full_span()
            c = expr.const
            if c + lo < 0 or c + hi >= count:
                raise kernel_error(
                    f"index expression reaches [{c + lo}, {c + hi}] but the dimension of {view.buf.name} has size {count}",
                    "out-of-bounds access: mask the last tile (mask=...) or shrink the index range")
        view.checks = None
        return
    for expr, count, axis0 in view.checks:
        sub = None
        if ranges is not None:
            sub = ranges[axis0:axis0 + len(expr.shape)]
            if len(sub) != len(expr.shape):
                sub = None
        if sub is not None and any(lo >= hi for lo, hi in sub):
            continue
        lo, hi = expr.bounds(sub)
        if lo < 0 or hi >= count:
            raise kernel_error(
                f"index expression reaches [{lo}, {hi}] but the dimension of {view.buf.name} has size {count}",
                "out-of-bounds access: mask the last tile (mask=...) or shrink the index range")
    view.checks = None


def _tensor_getitem(self, key):
    """Tensor.__getitem__: `t[key]` is a new view of the same buffer."""
    buf = self.buf
    off = None  # set by a path that makes the view below
    if type(key) is tuple and self.checks is None:
        # index_view's template paths for a key of integers then two expressions (`blocks[b, i.p, i.x]`,
        # `blocks[a, b, i.p, i.x]`, `hbm[r + i.p, c + i.x]`), inlined for a view in bounds over the whole grid;
        # anything else (an index out of range, a view that keeps checks, a [P] result: empty ranges in hit[6]) goes
        # to index_view. template_layout is the same logic; a call to it here cost about 4 % more bytecodes.
        # The views are made field by field (_new_view), not by Tensor(...): calling a class runs __init__ through
        # the type's slots, about 0.3 us more per view; test_matmul_fast.InlinedTemplateViews compares every slot.
        # The template comes from the last expression's memo (IndexExpr.memo) when the view's dims and the other
        # expression's shape and coefficients are the objects it was found for: the dict's key is a tuple of
        # tuples, hashed again at every lookup (about 0.18 us). Its entries never change, so a memo stays valid.
        nk = len(key)
        if nk == 3:
            k0, k1, k2 = key
            if type(k0) is int and type(k1) is IndexExpr and type(k2) is IndexExpr:
                memo = k2.memo
                m = memo[1]
                dims = self.dims
                if m is not None and m[0] is dims and m[1] is k1.shape and m[2] is k1.coefs:
                    hit = m[3]
                else:
                    hit = _expr_templates.get((dims, None, k1.shape, k1.coefs, k2.shape, k2.coefs))
                    if hit is not None:
                        hit = hit[6]
                        memo[1] = (dims, k1.shape, k1.coefs, hit)
                if hit is not None:
                    s0, c0, s1, s2, ok1, ok2, rdims, rshape = hit
                    a1 = k1.const
                    a2 = k2.const
                    if 0 <= k0 < c0 and a1 in ok1 and a2 in ok2:
                        off = self.off + k0 * s0 + s1 * a1 + s2 * a2
        elif nk == 4:
            k0, k1, k2, k3 = key
            if type(k0) is int and type(k1) is int and type(k2) is IndexExpr and type(k3) is IndexExpr:
                memo = k3.memo
                m = memo[2]
                dims = self.dims
                if m is not None and m[0] is dims and m[1] is k2.shape and m[2] is k2.coefs:
                    hit = m[3]
                else:
                    hit = _expr_templates.get((dims, None, None, k2.shape, k2.coefs, k3.shape, k3.coefs))
                    if hit is not None:
                        hit = hit[6]
                        memo[2] = (dims, k2.shape, k2.coefs, hit)
                if hit is not None:
                    s0, c0, s1, c1, s2, s3, ok2, ok3, rdims, rshape = hit
                    a2 = k2.const
                    a3 = k3.const
                    if 0 <= k0 < c0 and 0 <= k1 < c1 and a2 in ok2 and a3 in ok3:
                        off = self.off + k0 * s0 + k1 * s1 + s2 * a2 + s3 * a3
        elif nk == 2:
            k0, k1 = key
            if type(k0) is IndexExpr and type(k1) is IndexExpr:
                memo = k1.memo
                m = memo[0]
                dims = self.dims
                if m is not None and m[0] is dims and m[1] is k0.shape and m[2] is k0.coefs:
                    hit = m[3]
                else:
                    hit = _expr_templates.get((dims, k0.shape, k0.coefs, k1.shape, k1.coefs))
                    if hit is not None:
                        hit = hit[6]
                        memo[0] = (dims, k0.shape, k0.coefs, hit)
                if hit is not None:
                    s0, s1, ok0, ok1, rdims, rshape = hit
                    a0 = k0.const
                    a1 = k1.const
                    if a0 in ok0 and a1 in ok1:
                        off = self.off + s0 * a0 + s1 * a1
    elif key is Ellipsis and not self.checks:
        # `tile[...]`: the same region; sharing `dims` lets make_ap reuse the buffer's cached operand.
        off = self.off
        rdims = self.dims
        rshape = self.shape
    if off is not None:  # one of the paths above: the view in bounds, with no checks
        buf.pinned = True
        v = _new_view(Tensor)
        v.buf = buf
        v.off = off
        v.dims = rdims
        v.dtype = self.dtype
        v.shape = rshape
        v.checks = None
        v.root = False
        v.inplace = False
        return v
    view = index_view(self, key)
    buf.pinned = True
    if len(view.dims) == 1 and len(self.dims) > 1 and buf.memory != "hbm":
        # `tile[:, i]` is a [P, 1] tile, not a bare partition vector: NKI keeps a tile's free axis.
        return Tensor(buf, view.off, view.dims + ((1, 1),), view.dtype, view.checks, False,
                      tuple(view.shape) + (1,))
    return view


Tensor.__getitem__ = _tensor_getitem
