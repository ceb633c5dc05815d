"""A fresh matmul whose result the statement's `+=` consumes at once, without a result tile (issue 20).

In `acc += nl.matmul(a, b, transpose_x=True)` and `part[...] += nisa.nc_matmul(a, b)` the front end used to make
the result's PSUM tile (Buffer, operand, Tensor) only for the `+=` to retarget the instruction onto the left
operand and drop the tile again. When the call is followed at once by the `+=` (the bytecode says so, see
plus_equals_follows) and fresh_matmul's checks passed, fresh_matmul records the instruction and returns a
`FusedResult` instead: a Tensor whose `buf` is not set yet. operators._iadd (Tensor.__iadd__) consumes it with
accumulate_fused when the left operand is a whole PSUM tile, as matmul_fast.accumulate_fresh would.

Every other use makes the tile first, exactly as fresh_matmul would have at the call (`materialise`: the same
Buffer at the same place in T.buffers, the instruction's destination, the Tensor's fields; the object becomes a
plain Tensor): a left operand that accumulate_fused refuses (then the general `+=` runs, with its warnings), a
left operand that is not a Tensor (`x += nl.matmul(...)` with a number: Python calls `__radd__`), or any code
that reads the object's `buf` (an unset slot: `__getattr__` runs). Nothing runs between the call and the `+=`,
so making the tile there gives the state the call would have left.
"""
from .bytecode import following
from .dtypes import SIZES as _SIZES
from .ops import FRESH_MM_KEYS, _MM_SHARED, _augmented_subscript, mm_attrs
from .tracer import CODES, T, Buffer
from .views import Tensor

# (id(code), offset of a call) -> plus_equals_follows' answer
_PLUS_EQUALS = {}
PLUS_EQUALS = 1  # the next instruction is `+=` (BINARY_OP), which consumes the call's result
PLUS_EQUALS_STORED = 2  # the same in `t[k] += <call>`: a STORE_SUBSCR follows the `+=` (ops._augmented_subscript)


class _At:
    """The two fields of a frame that ops._augmented_subscript reads, at another instruction."""
    __slots__ = ("f_code", "f_lasti")

    def __init__(self, code, offset):
        self.f_code = code
        self.f_lasti = offset


def plus_equals_follows(frame):
    """PLUS_EQUALS or PLUS_EQUALS_STORED when the call at frame's current instruction is the right operand of a `+=`
    evaluated at once, else 0."""
    code = frame.f_code
    key = (id(code), frame.f_lasti)  # by id: see tracer.CODES
    hit = _PLUS_EQUALS.get(key)
    if hit is None:
        CODES[key[0]] = code
        hit = 0
        after = following(code, frame.f_lasti)
        if after and after[0].opname == "BINARY_OP" and after[0].argrepr == "+=":
            hit = PLUS_EQUALS_STORED if _augmented_subscript(_At(code, after[0].offset)) else PLUS_EQUALS
        _PLUS_EQUALS[key] = hit
    return hit


class FusedResult(Tensor):
    """A fresh matmul's result tile not made yet (see the module docstring): made by `new_fused` with no slot set
    (reading any runs __getattr__, which makes the tile); the open entry below holds what making it needs. The
    layout is Tensor's (no slots of its own), so materialise can turn the object into a plain Tensor."""
    __slots__ = ()

    def __getattr__(self, name):  # reached only for an unset slot
        materialise(self)
        return getattr(self, name)

    def __radd__(self, other):  # `x += matmul` where x is not a tile: the tile as the call made it
        materialise(self)
        return self.__radd__(other)


# The one result not made yet: (FusedResult, instruction, buffer name, declaration, emit._fresh entry, shape, the
# length of T.buffers at the call, plus_equals_follows' answer, T.buffers itself), or None. fresh_matmul opens it
# (the instruction is recorded, its destination not), after making any result of the same trace left open before
# (not expected: the `+=` follows the call at once; a kernel error between them can leave one).
_open = [None]
new_fused = object.__new__  # new_fused(FusedResult): an instance without __init__, every slot unset


def materialise(res):
    """Make `res`'s tile as fresh_matmul makes it at the call, and turn res into a plain Tensor of it."""
    entry = _open[0]
    if entry is None or entry[0] is not res:
        raise AssertionError("a fused matmul result used after its += consumed it")
    _open[0] = None
    _, ins, name, decl, hit, shape, n_buffers, _, _ = entry
    buf = Buffer(name, "psum", shape, "float32", "tile", decl, "", hit[1])
    if len(T.buffers) == n_buffers:
        T.buffers.append(buf)
    else:
        T.buffers.insert(n_buffers, buf)
    buf.temp = True
    buf.rdims = hit[0]
    buf.rap = rap = ((buf,) + hit[2], hit[3])
    buf.written = True
    buf.producer = ins
    ins.dst = (rap[0],)
    buf.mm_keys = FRESH_MM_KEYS
    res.buf = buf
    res.off = 0
    res.dims = hit[0]
    res.dtype = "float32"
    res.shape = shape
    res.checks = None
    res.root = True
    res.inplace = False
    res.__class__ = Tensor


_WHOLE_PSUM = ("psum", 0, False)  # accumulate_fused's destination: memory, offset; not value mode


def accumulate_fused(value, dst):
    """`dst += value` for an open FusedResult when dst is a whole PSUM tile with its cached operand and the sum's
    start needs no warning (matmul_fast.accumulate_fresh's conditions); False (nothing changed) otherwise."""
    entry = _open[0]
    if entry is None or entry[0] is not value:
        return False
    db = dst.buf
    apn = db.rap
    if (apn is None or dst.dims is not db.rdims or (db.memory, dst.off, T.values) != _WHOLE_PSUM
            or dst.dtype != db.dtype or entry[5] != dst.shape):
        return False
    ap = into_sum(entry[1], db, apn, dst.dtype)
    if ap is None:
        return False
    _open[0] = None
    entry[1].dst = (ap,)
    return True


def into_sum(ins, db, apn, dtype):
    """Points the matmul `ins` at the whole PSUM tile `db` (its cached operand `apn`) as one more step of that
    region's sum, or its first: ops._matmul_acc_ap with accumulate=True. Returns the destination operand for the
    caller to place; None (nothing changed) when the sum's start would warn (nothing written yet): the general path
    says so."""
    ap = apn[0]
    key = (ap[1], ap[3])
    keys = db.mm_keys
    if keys is not None and key in keys:
        acc = True  # the region's sum goes on (a loop's later steps); the key is there already
    else:
        if db.zeroed:
            acc = False
        elif db.written:
            acc = True
        else:
            return None
        if keys is None or keys is FRESH_MM_KEYS:
            keys = db.mm_keys = set(keys or ())  # the shared empty set is never written
        keys.add(key)
    attrs = ins.attrs
    pair = _MM_SHARED.get(id(attrs))
    ins.attrs = mm_attrs(attrs, acc) if pair is None else pair[acc]
    n = apn[1]
    nbytes = n * _SIZES[dtype]
    if nbytes != ins.nbytes:
        ins.nbytes = nbytes
    ins.elements = n
    db.written = True
    return ap
