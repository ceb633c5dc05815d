"""Writes a replicated loop's block (irblock.py) column by column, when each operand that moves is either new in
every iteration or pooled already in every iteration: the usual case, in which every index the block's records
hold is known by arithmetic or by one look-up per operand.

Then an iteration's new operands take consecutive indices in first-use order, its operand lists that hold one
of them are new lists at fixed places after the lists before, and only the fields that step differ from one
iteration to the next. Each field of every record of the block is made as one column (a range, a repeated value
or a list of look-ups) and the records are packed from the columns in one pass of C code, so the cost per record
is a few machine words, not a Python loop body. If a moving operand (or a list of pooled operands) is pooled in
some iterations only, or two meet, or a partition start changes sign, write() returns False before it changes
anything and irblock writes the block its other way.
"""
from array import array
from itertools import repeat
from operator import add

from . import replay
from .irrecords import _INSTR, _OPERAND, little_endian

assert array("I").itemsize == 4 and _OPERAND.size % 4 == 0 and _INSTR.size % 4 == 0


def write(pools, buffers, blk, plan, first_id):
    """Append the block's records to `pools` (its first record has id `first_id`); False when the columns
    cannot be vouched for (see the module comment)."""
    _, classes, slot_of, heads = plan
    count = blk.count
    cols = [None] * len(classes)  # per class: its operand index in each iteration
    new = []                      # the classes whose operands are new in every iteration, in first-use order
    new_keys = {}                 # pool key -> None, of the new operands on buffers made before the loop
    pending = []                  # (keys, class) to pool once the block is written
    get = pools.operand_at.get
    for c, (kind, ref, p0, dp, pc, off, do, pat, dt) in enumerate(classes):
        if (dp != 0 if p0 < 0 else not _fits(p0, dp, count, 1 << 16)) or not _fits(off, do, count, 1 << 32):
            return False  # whether the operand has a partition start would change, or a field would not fit its word
        if kind == "f":
            new.append(c)
            continue
        keys = list(zip(repeat(ref, count), _column(p0 + dp, dp, count), repeat(pc, count),
                        _column(off + do, do, count), repeat(pat, count), repeat(dt, count)))
        hits = list(map(get, keys))
        missing = hits.count(None)
        if missing == 0:
            cols[c] = hits
        elif missing == count:
            new.append(c)
            new_keys.update(zip(keys, repeat(None)))
            pending.append((keys, c))
        else:
            return False
    if len(new_keys) != count * len(pending):
        return False  # two moving operands meet in some iterations
    n0 = pools.n_operands
    nn = len(new)
    for rank, c in enumerate(new):
        cols[c] = range(n0 + rank, n0 + rank + nn * count, nn)
    lists = _lists(pools, slot_of, heads, cols, frozenset(-1 - c for c in new), count)
    if lists is None:
        return False
    for keys, c in pending:
        pools.operand_at.update(zip(keys, cols[c]))
    _operands(pools, buffers, blk, [classes[c] for c in new], n0)
    _records(pools, blk, heads, lists, classes, cols, first_id)
    return True


def _fits(start, step, count, limit):
    """Whether start + m * step stays in [0, limit) for m = 1..count."""
    return 0 <= start + step <= limit - 1 and 0 <= start + step * count <= limit - 1


def _column(start, step, count):
    """start + step, start + 2 step, ... (count values) as a sequence."""
    return [start] * count if step == 0 else range(start, start + step * count, step)


def _slot_column(s, cols, count):
    return [s] * count if s >= 0 else cols[-1 - s]


def _lists(pools, slot_of, heads, cols, new, count):
    """`new`: the slots (-1 - class) of the classes new in every iteration. Returns (per record ("c", index) for a
    list pooled already in every iteration, ("h", indices) for one pooled in each, ("n", place) for a new list at
    that place among the iteration's new lists; the slots of those new lists in order), or None when a list of
    pooled operands is pooled in some iterations only, or two such lists meet. Records with the same slots share
    one new list in each iteration."""
    out = []
    at = {}
    layout = []
    width = 0
    pooled = {}
    n_pooled = 0
    k = 0
    list_at = pools.list_at
    for h in heads:
        n = h[6] + h[7]
        slots = tuple(slot_of[k:k + n])
        k += n
        u = at.get(slots)
        if u is None:
            if not slots or min(slots) >= 0:  # constant operands only (all(), in C code)
                lb = list_at.get(slots)
                if lb is None:
                    return None
                out.append(("c", lb))
                continue
            if new.isdisjoint(slots):
                keys = list(zip(*[_slot_column(s, cols, count) for s in slots]))
                found = list(map(list_at.get, keys))
                missing = found.count(None)
                if missing == 0:
                    out.append(("h", found))
                    continue
                if missing != count:
                    return None
                pooled.update(zip(keys, repeat(None)))  # lists of pooled operands, new in every iteration
                n_pooled += count
            u = at[slots] = width
            width += len(slots)
            layout.append(slots)
        out.append(("n", u))
    if len(pooled) != n_pooled:
        return None  # two of them meet
    return out, layout


def _operands(pools, buffers, blk, classes, n0):
    """The new operands of every iteration: iteration m's new class r takes index n0 + (m - 1) * len(classes) + r.
    Only the offset, buffer and partition start differ from the first iteration's records."""
    count = blk.count
    nc = len(classes)
    tmpl = buffers[blk.bstart - blk.nb:blk.bstart]
    live = sum(1 for b in tmpl if not b.dropped)
    sget = pools.strings.get
    total = nc * count
    ys, ids, xs = [0] * total, [0] * total, [0] * total
    first = []
    for c, (kind, ref, p0, dp, pc, off, do, pat, dt) in enumerate(classes):
        part = p0 >= 0
        ys[c::nc] = _column(off + do, do, count)
        ids[c::nc] = _column(tmpl[ref].id + live, live, count) if kind == "f" else [ref.id] * count
        # The partition start and count share one word (two 16-bit fields).
        xs[c::nc] = _column(p0 + dp + (pc << 16), dp, count) if part else [1 << 16] * count
        first.append(_OPERAND.pack(0, 0, pools.pattern_at[pat], sget(dt), 0, 0, len(pat), part))
    pools.operands.append(_words(b"".join(first), count, _OPERAND.size // 4, ((0, ys), (2, ids), (5, xs))))
    pools.n_operands = n0 + total


def _words(first, count, width, fields):
    """`count` times the records `first` (bytes of records of `width` 32-bit words, the fields below zero) with field
    (word, values) set: word of record r is values[r]. Little-endian words are the bytes struct.pack("<...") gives.
    The array is repeated, not the bytes: one copy of the block's records fewer."""
    arr = array("I", first)
    arr *= count
    for word, values in fields:
        arr[word::width] = array("I", values)
    return little_endian(arr)


def _new_lists(pools, layout, classes, cols, count):
    """Append every iteration's new operand lists; (where the first begins, the entries per iteration). A list
    with no operand of the iteration's own buffers is pooled too: a later record may name the same operands."""
    slots = [s for x in layout for s in x]
    width = len(slots)
    l0 = len(pools.lists)
    if not width:
        return l0, 0
    starts, steps, explicit = [], [], []
    for p, s in enumerate(slots):
        if s >= 0:  # a constant operand
            starts.append(s)
            steps.append(0)
            continue
        col = cols[-1 - s]
        if type(col) is range:
            starts.append(col.start)
            steps.append(col.step)
        else:
            starts.append(col[0])
            steps.append(0)
            explicit.append((p, col))  # a pooled operand: its index in each iteration
    flat = _matrix(count, starts, steps, explicit)
    pooled = []  # (place in the iteration's entries, entries) of the lists to pool
    p = 0
    for x in layout:
        if all(s >= 0 or classes[-1 - s][0] == "p" for s in x):
            pooled.append((p, len(x)))
        p += len(x)
    list_at = pools.list_at
    if count >= len(pooled):
        for p, n in pooled:
            keys = zip(*[flat[p + i::width] for i in range(n)])
            list_at.update(zip(keys, range(l0 + p, l0 + p + width * count, width)))
    else:
        # Few iterations of many lists (a nested loop's block): by rows, one slice of a row per list. Only lists of
        # the same iteration can be equal (each holds an operand new in that iteration, or they are distinct,
        # _lists), so pooling row by row leaves list_at as pooling list by list does.
        cuts = [slice(p, p + n) for p, n in pooled]
        places = [p for p, _ in pooled]
        for m in range(count):
            row = tuple(flat[m * width:(m + 1) * width])
            at = l0 + m * width
            list_at.update(zip(map(row.__getitem__, cuts), [at + p for p in places]))
    pools.lists.extend(array("I", flat))
    return l0, width


def _matrix(count, starts, steps, explicit=()):
    """Row by row, `count` rows of len(starts) entries: entry j of row m is starts[j] + m * steps[j], except in
    the columns `explicit` lists as (j, its values). Filled by whole columns or whole rows, whichever are fewer.
    An array of machine words, not a list: most entries are indices above 256, and a list would hold a new int
    object for each (their allocation was the largest single cost of writing the N-block loop's block)."""
    q = len(starts)
    if q <= count:
        flat = array("q", bytes(8 * q * count))
        for j in range(q):
            flat[j::q] = (array("q", (starts[j],)) * count if steps[j] == 0
                          else array("q", range(starts[j], starts[j] + steps[j] * count, steps[j])))
    else:
        flat = array("q")
        row = array("q", starts)
        for _ in range(count):
            flat += row
            row = array("q", map(add, row, steps))
    for j, col in explicit:
        flat[j::q] = array("q", col)
    return flat


def _records(pools, blk, heads, lists, classes, cols, first_id):
    """The operand lists and instruction records of every iteration."""
    count = blk.count
    q = len(heads)
    per_record, layout = lists
    l0, width = _new_lists(pools, layout, classes, cols, count)
    prefix = blk.prefix
    order, per = replay.inner_suffixes([h[-1] for h in heads], len(prefix) + 1)
    pid = heads[0][-1].pid
    starts, steps, explicit = [], [], []
    for j, (kind, v) in enumerate(per_record):
        if kind == "h":
            starts.append(0)
            steps.append(0)
            explicit.append((j, v))
        else:
            starts.append(v if kind == "c" else l0 + v)
            steps.append(0 if kind == "c" else width)
    lbs = _matrix(count, starts, steps, explicit)
    ibs, step = _iter_pids(pools, prefix, blk.values, pid, order)
    if step is not None:
        ib = _matrix(count, [ibs[x] for x in per], [step] * q)
    elif q <= count:
        ib = [0] * (q * count)
        for j, x in enumerate(per):
            ib[j::q] = ibs[x::len(order)]
    else:
        ib = []
        ns = len(order)
        for m in range(count):
            ib += map(ibs[m * ns:(m + 1) * ns].__getitem__, per)
    first = b"".join(_INSTR.pack(h[0], h[1], 0, h[2], h[3], h[4], 0, h[5], 0, h[6], h[7], h[8], len(h[-1].iter),
                                  len(pid)) for h in heads)
    pools.records.append(_words(first, count, _INSTR.size // 4,
                                ((4, range(first_id, first_id + q * count)), (8, lbs), (10, ib))))


def _iter_pids(pools, prefix, values, pid, suffixes):
    """pools.iter_pids (where the ints of iteration v's records with inner values x begin: prefix, v, x, pid, for
    every v and x in that order), made from one iteration's ints when none is pooled yet, and from the pool when
    all are: (the first iteration's begins, the step from one iteration to the next) in the first case, (all of
    them, None) otherwise."""
    keys = []
    for v in values:
        keys += zip(map((prefix + (v,)).__add__, suffixes), repeat(pid))
    at = pools._ints_at
    ints = pools.ints
    first = []
    places = []  # where the loop value is in one iteration's ints, and where each suffix's ints begin
    begins = []
    base = len(ints)
    for x in suffixes:
        begins.append(base + len(first))
        places.append(len(first) + len(prefix))
        first.extend(prefix + (0,) + x + pid)
    width = len(first)
    count = len(values)
    # Registered before it is known whether any key was pooled already: the keys (about 20,000 for the N-block loop
    # of matmul_optimized) are hashed once, not twice (a look-up, then an insertion). They are distinct (the
    # suffixes are, replay.inner_suffixes, and so are the values), so all are new if the pool grew by their number;
    # otherwise the ones setdefault added are taken out again: those it answered with this block's begin (at or
    # past the pool's end, unlike every pooled one), and the block is pooled as before.
    fresh = _matrix(count, begins, [width] * len(begins))
    size = len(at)
    found = list(map(at.setdefault, keys, fresh))
    if len(at) != size + len(keys):
        if len(at) == size:
            return found, None  # every key was pooled already
        for key, begin, new in zip(keys, found, fresh):
            if begin == new:
                del at[key]
        return pools.iter_pids(prefix, values, pid, suffixes), None
    ns = len(places)
    # Built as an array of the pool's type, not a list: extending the pool from a list converts each of its ints
    # one at a time (about 100,000 for the N-block loop of matmul_optimized), from an array it is one copy.
    if ns > count and len(set(map(len, suffixes))) == 1:
        # Every suffix has the same length (the usual case): the loop value sits every width / ns ints, so each
        # iteration's ints are the first one's with one strided slice set.
        flat = array(ints.typecode)
        row = array(ints.typecode, first)
        every = width // ns
        for v in values:
            row[places[0]::every] = array(ints.typecode, repeat(v, ns))
            flat += row
    else:
        # Few iterations, or suffixes of several lengths (a nested loop's records at several depths): the loop
        # value is set place by place, one strided slice of all iterations each (not a store per place and
        # iteration: the N-block loop of matmul_optimized has 4,873 places and 4 iterations).
        flat = array(ints.typecode, first) * count
        column = array(ints.typecode, values)
        for p in places:
            flat[p::width] = column
    ints.extend(flat)
    return begins, width
