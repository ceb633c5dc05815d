"""The operator layer: attaches to `Tensor` (tensor.py) the methods that record instructions.

tensor.py and views.py are the value layer and imports nothing that records; `a + b`, `t[k] = v`, `t += x`,
`t.astype(...)`, `t.broadcast_to(...)` and `t.ap(...)` are defined here over ops.py and bound onto the
class by `attach`, which api.py calls when it loads (every traced kernel goes through api.py).
Setting a special method on a class after its creation updates the type slots of its subclasses too
(IndirectTensor, placement.PlacedTensor), so they get the operators as well.
"""
import sys

from . import dtypes
from .elementwise_fast import add_in_place
from .emit import reinterpreted_offset
from .matmul_fast import accumulate_fresh
from .matmul_fused import PLUS_EQUALS_STORED, FusedResult, _open, accumulate_fused, materialise
from .ops import _AUG_STORE, _augmented_subscript, assign, binary_op, broadcast_to, copy, inplace_op, retarget, unary_op
from .pending import store_pending
from .tracer import T
from .tensor import _PENDING
from .views import Tensor, index_view


def _setitem(self, key, value):
    if type(value) is Tensor:
        if value.buf is _PENDING:
            value = store_pending(self, key, value)
            if value is None:
                return
        if value.inplace:
            value.inplace = False  # `t[k] += x` already wrote t[k] in __iadd__
            return
        if key is Ellipsis and self.checks is None:
            # `t[...] = nl.load(...)` and friends: the temporary's instruction writes t itself
            # (ops.assign without building the `t[...]` view, which addresses the same region).
            vb = value.buf
            if vb.temp and value.root and not vb.pinned:
                ins = vb.producer
                if ins is not None and (ins.op != "nc_matmul" or self.buf.memory == "psum"):
                    retarget(value, self, False)
                    return
    elif getattr(value, "inplace", False):
        value.inplace = False
        return
    assign(index_view(self, key), value)


def _ap(self, pattern=None, offset=None, dtype=None, scalar_offset=None, vector_offset=None, **_):
    """`.ap(pattern=[[stride, count], ...], offset=...)`: an explicit access pattern over the buffer's
    flat element space (an on-chip tile's partition stride is its free size, as in the buffer's own
    layout). A dynamic offset (scalar_offset / vector_offset) is not known while tracing: the access
    is recorded at the static offset."""
    if pattern is None:
        return self
    dims = tuple((int(step), int(num)) for step, num in pattern)
    if scalar_offset is not None or vector_offset is not None:
        T.warn("an indirect .ap() offset is data-dependent; traced at its static offset",
               once_key=("ap-indirect",))
    view_dtype = (dtypes.normalize(dtype) or self.dtype) if dtype else self.dtype
    # A view's offset counts elements of its own dtype: reading the same bytes as a narrower or wider
    # dtype (a bit reinterpretation) rescales the offset it starts from.
    start = reinterpreted_offset(self.buf, self.off, self.dtype, view_dtype)
    return Tensor(self.buf, start + (offset or 0), dims, view_dtype)


def _broadcast_to(self, shape):
    return broadcast_to(self, shape)


def _astype(self, dtype):
    return copy(self, dtype=dtype)


def _binary(op):
    def forward(self, o):
        return binary_op(op, self, o)

    def reverse(self, o):
        return binary_op(op, o, self)
    return forward, reverse


def _inplace(op):
    def method(self, o):
        return inplace_op(self, o, op)
    return method


def _iadd(self, o):
    """`self += o`: ops.inplace_op(self, o, "add"), whose commonest case, a fresh matmul result accumulated into a
    PSUM tile (`psum[...] += nisa.nc_matmul(...)`, `acc += nl.matmul(...)`), goes straight to the retarget; a
    result not made yet (matmul_fused.py) is consumed as it is, or made first and retargeted as before."""
    to = type(o)
    if to is FusedResult:
        entry = _open[0]
        if accumulate_fused(o, self):
            if entry[7] == PLUS_EQUALS_STORED:  # inplace_op's ending, answered at the call
                self.inplace = True
            return self
        materialise(o)  # now the Tensor of a fresh matmul's tile, as the call would have returned
        if not accumulate_fresh(o, self):
            retarget(o, self, accumulate=True)
    elif to is Tensor:
        ob = o.buf
        ins = ob.producer
        if ins is None or not ob.temp or not o.root or ob.pinned or ins.op != "nc_matmul":
            if not ob.temp and add_in_place(self, o, sys._getframe(1)):  # two tiles' views: elementwise_fast.py
                return self
            return inplace_op(self, o, "add")
        if not accumulate_fresh(o, self):
            retarget(o, self, accumulate=True)
    else:
        return inplace_op(self, o, "add")
    # inplace_op's ending: whether a STORE_SUBSCR follows (`t[k] += x`), looked up in its cache first.
    f = sys._getframe(1)
    hit = _AUG_STORE.get((id(f.f_code), f.f_lasti))
    if hit is None:
        hit = _augmented_subscript(f)
    if hit:
        self.inplace = True
    return self


# Python operator -> NKI elementwise op; reflected forms where Python has them.
_BINARY = (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "divide"), ("pow", "power"),
           ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"))
_FORWARD_ONLY = (("lshift", "left_shift"), ("rshift", "right_shift"), ("lt", "less"), ("le", "less_equal"),
                 ("gt", "greater"), ("ge", "greater_equal"))
_INPLACE = (("iadd", "add"), ("isub", "subtract"), ("imul", "multiply"), ("itruediv", "divide"))


def _eq(self, o):
    # `t == None` / `t != None` in kernel code is a Python test, not an elementwise compare.
    return False if o is None else binary_op("equal", self, o)


def _ne(self, o):
    return True if o is None else binary_op("not_equal", self, o)


def _neg(self):
    return binary_op("multiply", self, -1.0)


def _abs(self):
    return unary_op("abs", self)


def attach(cls):
    """Bind the recording methods onto `cls` (Tensor); idempotent."""
    for name, op in _BINARY:
        forward, reverse = _binary(op)
        setattr(cls, f"__{name}__", forward)
        setattr(cls, f"__r{name}__", reverse)
    for name, op in _FORWARD_ONLY:
        setattr(cls, f"__{name}__", _binary(op)[0])
    for name, op in _INPLACE:
        setattr(cls, f"__{name}__", _iadd if op == "add" else _inplace(op))
    cls.__eq__ = _eq
    cls.__ne__ = _ne
    cls.__hash__ = object.__hash__  # identity hash, as before __eq__ was overloaded
    cls.__neg__ = _neg
    cls.__abs__ = _abs
    cls.__setitem__ = _setitem
    cls.ap = _ap
    cls.broadcast_to = _broadcast_to
    cls.astype = _astype

