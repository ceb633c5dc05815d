"""`dst[...] += src[...]` of two on-chip tiles in fewer steps (issue 20): matmul_optimized's `acc_sb[...] +=
part[...]`, which through the general path (ops.inplace_op, binary_op, emit) interpreted about 1,200 bytecodes.

add_in_place records what that path records, the same tensor_tensor instruction with the same operands and the
same buffer state. It takes only a case where that path can neither warn nor fail nor make anything else: two
Tensor views of SBUF/PSUM tiles, in bounds (no pending checks), of one shape, read in their buffers' dtypes, whose
layouts emit already cached. Both tiles must hold data (a source's pending nl.zeros only where a matmul's sum
already covers the region), the destination has no pending nl.zeros, value mode is off. Anything else returns
False before changing anything, and the general path decides. tests/frontend/test_elementwise_fast.py compares
both paths.
"""
from .emit import _onchip_layouts
from .ops import _augmented_subscript, shared_attrs
from .tracer import T, Instr
from .dtypes import SIZES
from .views import Tensor

_ADD = shared_attrs(("op0", "add"))  # binary_op's attributes of an add: one shared dict


def _operand(v, b):
    """emit._source_operands' operand of view v on its on-chip buffer b from the cached layouts, else None."""
    dims = v.dims
    off = v.off
    if dims is b.rdims and off == 0:
        ap = b.rap
        return None if ap is None else ap[0]
    ps = b.pstride
    hit = _onchip_layouts.get((dims, ps))
    if hit is None or not ps:
        return None
    p0 = off // ps
    return (b, p0, hit[0], off - p0 * ps, hit[1], v.dtype)


def add_in_place(x, y, frame):
    """`x += y` (Tensor.__iadd__ of two views; `frame` is the kernel's) as ops.inplace_op records it, or False
    (nothing changed) when the general path must decide."""
    xb = x.buf
    yb = y.buf
    xs = x.shape
    if (type(x) is not Tensor or x.checks is not None or y.checks is not None or T.values or xs != y.shape
            or len(xs) != 2 or xb.memory == "hbm" or yb.memory == "hbm" or x.dtype != xb.dtype or y.dtype != yb.dtype
            or xb.zeroed or not xb.written or not yb.written or yb.temp):
        return False
    # The sources, x then y, as _source_operands makes them; a source's pending nl.zeros only where a matmul's
    # sum covers the region read (else the general path writes the memset first).
    xap = _operand(x, xb)
    yap = _operand(y, yb)
    if xap is None or yap is None:
        return False
    if yb.zeroed and (yb.mm_keys is None or (yap[1], yap[3]) not in yb.mm_keys):
        return False
    # The destination as emit makes it (_make_ap's layout, with its element count).
    dims = x.dims
    if dims is xb.rdims and x.off == 0:
        whole = xb.rap
        if whole is None:
            return False
        dap, n = whole
    else:
        ps = xb.pstride
        hit = _onchip_layouts.get((dims, ps))
        if hit is None:
            return False
        off = x.off
        p0 = off // ps  # an operand of its own, as _make_ap makes it for the destination (equal to xap)
        dap = (xb, p0, hit[0], off - p0 * ps, hit[1], x.dtype)
        n = hit[2]
    loc = T.loc(frame)
    xb.pinned = True
    yb.pinned = True
    xb.written = True
    T.instrs.append(Instr("tensor_tensor", "vector", [dap], [xap, yap], n, n * SIZES[x.dtype], _ADD, loc,
                          T.iter_tuple, T.pid, None))  # operands in lists, as emit records them
    # inplace_op's ending: `t[k] += x` stores t[k] next, which must record nothing more.
    if _augmented_subscript(frame):
        x.inplace = True
    return True

