"""What loop replication (replicate.py) compares of an iteration's buffers and values, and how it sets them back:
a buffer's fields as one comparable value (buffer_slots, read back by replay.new_buffer and restore_buffer), a
tensor's, and a key for attribute values that renders equal only when they write the same IR (value_key).
"""
from itertools import count
from operator import attrgetter

from .tracer import Buffer

BUF_SLOTS = tuple(s for s in Buffer.__slots__ if s != "id")
assert BUF_SLOTS == ("name", "memory", "shape", "dtype", "role", "decl", "pstride", "written", "zeroed", "mm_keys",
                      "temp", "pinned", "dropped", "producer", "kind", "rdims", "rap"), "update PLAIN_SLOTS"
TENSOR_SLOTS = ("buf", "off", "dims", "dtype", "shape", "checks", "root", "inplace")

# A buffer's fields but `mm_keys` (a set), `producer` (compared relative to the iteration by _describe) and `rap`
# (which holds the buffer itself): the plain part of buffer_slots, read in one C call.
PLAIN_SLOTS = tuple(x for x in BUF_SLOTS if x not in ("mm_keys", "producer", "rap"))
_get_plain = attrgetter(*PLAIN_SLOTS)
assert PLAIN_SLOTS == ("name", "memory", "shape", "dtype", "role", "decl", "pstride", "written", "zeroed", "temp",
                        "pinned", "dropped", "kind", "rdims"), "update replay.new_buffer"


def places(bufs):
    """id(buffer) -> its place in `bufs`."""
    return dict(zip(map(id, bufs), count()))


def buffer_slots(b):
    """A buffer's fields as (the PLAIN_SLOTS fields, `mm_keys` frozen, `rap` without the buffer itself); `producer`
    is left out (compared relative to the iteration by _describe). Three parts, not one flat tuple: this runs for
    every new buffer of every traced iteration at every replicating level, and slicing a flat tuple cost twice as
    much. replay.new_buffer and restore_buffer read it back."""
    mm_keys = b.mm_keys
    rap = b.rap
    return (_get_plain(b), None if mm_keys is None else frozenset(mm_keys),
            None if rap is None else (rap[0][1:], rap[1]))


def same_fields(*lists):
    """Whether the lists of buffers' fields agree as fields() says; compared whole first (the usual case: `rap` agrees
    too), which makes no copy of them."""
    first = lists[0]
    if all(x == first for x in lists[1:]):
        return True
    first = fields(first)
    return all(fields(x) == first for x in lists[1:])


def fields(slots):
    """The buffers' fields (buffer_slots) as the iterations must agree on them: all but `rap`, which caches the
    access pattern of the whole buffer (emit._source_operands), a function of the other fields set on the first
    read of the whole tile. Whether a read has set it yet changes no record: iteration 0 may read a tile's whole
    view through a view the front end has not cached yet, and leave it unset where later iterations set it."""
    return [sl[:2] for sl in slots]


def restore(obj, names, slots):
    for s, v in zip(names, slots):
        if s != "checks":  # restored by the caller
            setattr(obj, s, v)


def restore_buffer(b, slots):
    """Set a buffer's fields back from buffer_slots (its producer is restored by the caller)."""
    plain, mm_keys, rap = slots
    for s, v in zip(PLAIN_SLOTS, plain):
        setattr(b, s, v)
    b.mm_keys = None if mm_keys is None else set(mm_keys)
    b.rap = None if rap is None else ((b,) + rap[0], rap[1])


def tensor_slots(v):
    """A tensor's fields; `checks` (index expressions, whose `==` builds a mask) by identity."""
    return tuple(id(v.checks) if s == "checks" else getattr(v, s) for s in TENSOR_SLOTS)


_PLAIN = (int, str, bool, type(None))


def value_key(v):
    """A key equal for two values only if they render the same (floats by repr: 0.0 and -0.0 differ), or
    None for a value this cannot vouch for."""
    tv = type(v)
    if tv in _PLAIN:
        return (tv, v)
    if tv is float:
        return (tv, repr(v))
    if tv is dict:
        out = []
        for k, x in v.items():
            kx = value_key(x)
            if kx is None or type(k) is not str:
                return None
            out.append((k, kx))
        return (tv, tuple(out))
    if tv is tuple or tv is list:
        out = []
        for x in v:
            kx = value_key(x)
            if kx is None:
                return None
            out.append(kx)
        return (tv, tuple(out))
    return ("id", id(v))  # the same object renders the same
