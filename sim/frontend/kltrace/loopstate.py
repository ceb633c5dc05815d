"""What loop replication (replicate.py) compares of an iteration's buffers, values and inner blocks, and how it sets
them back: a buffer's fields as one comparable value (buffer_slots, read back by replay.new_buffer and
restore_buffer), a tensor's, a key for attribute values that renders equal only when they write the same IR
(value_key), an inner block's key (block_key), the inner iterations the loops around need not describe
(agreed_spans) and what the loops around take from them instead of reading them (unagreed_records, unagreed_slots,
every_slot, before_template), and the new buffers' part of an iteration's description (describe_buffers).
"""
from itertools import chain, count
from operator import attrgetter, sub

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
_chain_all = chain.from_iterable


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


def _outer_first(span):
    return span[0], -span[1]


def agreed_spans(blocks, a):
    """(start, end, block) of the record spans, relative to `a`, of the inner loops' iterations that their decision
    found equal to their template up to the steps (Block.agreed to Block.ta), in order; a span inside another one
    (an inner block's in its outer block's agreed iterations) is left out.

    Why the loop around need not describe those records: iteration k of the span is, record by record, the
    template (which it describes) with the loop variable's value and, for the inner iteration's new buffers,
    places shifted by whole iterations (the block's key has the values, the buffers per iteration and the
    template's place), and its integers that may step are the template's plus whole steps (Block.base,
    Block.step); its new buffers lie just before the template's, their producers the template's records'
    counterparts. The last iteration of an inner loop is described: a statement after that loop may still
    retarget its records (ops.retarget); an agreed iteration's temporaries are bound to names that the next
    iteration assigns before reading them (loopcheck's carried names keep their object), so nothing changes its
    records after the decision."""
    if not blocks:
        return ()  # the usual case of an innermost replicating loop: asked at each iteration's end and description
    # By start, the longest first: an outer block's span may begin where its first inner loop's does.
    spans = sorted(((b.agreed - a, b.ta - a, b) for b in blocks if b.agreed is not None and b.agreed < b.ta),
                   key=_outer_first)
    out = []
    for s, t, b in spans:
        if out and s < out[-1][1]:
            assert t <= out[-1][1], "inner loops' spans nest"
            continue  # an inner block's span in an outer one's
        out.append((s, t, b))
    return out


def block_key(blk, a, c, depth, value, index):
    """What must be equal of an inner loop's block in two iterations of the loop at `depth` (which has `value` in
    this one, whose records begin at a and buffers at c; `index`: id(record) -> its place in the iteration), or
    None when the block does not belong to this iteration."""
    prefix = blk.prefix
    if len(prefix) <= depth or prefix[depth] != value:
        return None
    prods = []
    for p in blk.producers:
        if p is not None and type(p) is not int:
            k = index.get(id(p))
            p = ("o", id(p)) if k is None else ("i", k)
        prods.append(p)
    return ("block", blk.start - a, blk.ta - a, blk.q, blk.count, tuple(blk.step), blk.bstart - c, blk.nb,
            prefix[:depth] + prefix[depth + 1:], tuple(blk.values), tuple(blk.slots), tuple(prods),
            tuple((b.start - a, b.bstart - c) for b in blk.inner))  # the inner blocks are keyed on their own


def _agreed_buffers(spans):
    """(first, end) of the new buffers of each agreed span's iterations (they lie just before the template's, as
    replicate._describe finds them), for spans from agreed_spans."""
    return [(blk.bstart - blk.nb * (1 + (t - s) // blk.q), blk.bstart - blk.nb) for s, t, blk in spans]


def unagreed_slots(buffers, c, d, spans):
    """buffer_slots of an iteration's new buffers, buffers[c:d], but those of its inner loops' agreed iterations
    (`spans`: agreed_spans of the iteration), in order.

    A loop compares these lists only between iterations whose descriptions are equal, so the buffers left out lie at
    the same places in each. Why they need not be read: their inner loop's decision found their fields equal, up to
    `rap`, to its template's buffers' (Block.slots, which the inner block's key holds), and, as their records are
    (agreed_spans), they are out of reach once their inner iteration has ended: the names bound to them are assigned
    by the next inner iteration before it reads them, so no later statement sets a field of theirs."""
    if not spans:
        return list(map(buffer_slots, buffers[c:d]))
    out = []
    done = c
    for first, end in _agreed_buffers(spans):
        out += map(buffer_slots, buffers[done:first])
        done = end
    out += map(buffer_slots, buffers[done:d])
    return out


def every_slot(buffers, c, d, spans, unagreed):
    """buffer_slots of every new buffer of the iteration, given what unagreed_slots returned for it in the same state
    (the block's template needs them all): only the buffers it left out are read."""
    if not spans:
        return unagreed
    out = []
    done = c
    kept = 0
    for first, end in _agreed_buffers(spans):
        out += unagreed[kept:kept + first - done]
        kept += first - done
        out += map(buffer_slots, buffers[first:end])
        done = end
    out += unagreed[kept:]
    assert len(out) == d - c, "the same iteration's buffers"
    return out


def unagreed_records(instrs, a, e, blocks):
    """instrs[a:e] without the records of the inner loops' agreed iterations (agreed_spans of `blocks`), for
    replicate._pre_loop: the buffers made before the loop that those records use are, in the same order, the ones
    their template's records use (the inner decision found them equal up to the new buffers of the inner iteration,
    which the loop made), and the template follows them, so the first use of each comes in the same order without
    them."""
    spans = agreed_spans(blocks, a)
    if not spans:
        return instrs[a:e]
    parts = []
    done = a
    for s, t, _ in spans:
        parts.append(instrs[done:a + s])
        done = a + t
    parts.append(instrs[done:e])
    return _chain_all(parts)


def before_template(base, step, agreed):
    """The integers that may step of an inner block's `agreed` iterations before its template, in order: the template's
    (`base`) minus m steps for m = agreed .. 1; each list one pass from the next (base - m * step, exactly)."""
    lists = []
    prev = base
    for _ in range(agreed):
        prev = list(map(sub, prev, step))
        lists.append(prev)
    lists.reverse()
    return _chain_all(lists)


def describe_buffers(bufs, index, static):
    """replicate._describe's per-buffer part: appends each new buffer's producer, relative to the iteration's records
    (`index`: id(record) -> its place), to `static`; False when a buffer's `rap` is another buffer's."""
    for b in bufs:
        p = b.producer
        if p is None:
            static.append(None)
        elif id(p) in index:
            static.append(("i", index[id(p)]))
        else:
            static.append(("o", id(p)))
        rap = b.rap
        if rap is not None and rap[0][0] is not b:
            return False
    return True
