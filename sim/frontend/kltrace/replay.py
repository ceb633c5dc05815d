"""The replicated iterations of a loop (replicate.py): kept as blocks, and made into buffers and instructions
from their template only when a writer needs the objects (the JSON form; the binary writer writes most blocks
straight from the template, irblock.py).

A template is one traced iteration: its instructions, the fields of the buffers it made, and per operand
the step of its partition start and offset per iteration. Writing hundreds of thousands of records one
generic loop at a time costs more than tracing them, so each template shape (which operands move, which
name a new buffer, which buffer an instruction produced) gets a small Python function, compiled once and
kept, that makes one iteration's objects in straight-line code; the template's values reach it as one
tuple of constants.
"""
from .tracer import Buffer, Instr

_builders = {}  # template shape -> compiled function(m, it, K, S, instrs_out, bufs_out)


class Block:
    """The iterations a loop replicated, not made into objects: iteration m (1..count) is the template (the
    traced records tracer.instrs[ta:ta + q] and buffers tracer.buffers[bstart - nb:bstart], with the iterations of
    the blocks `inner` among them) with every operand's partition start and offset advanced by m times its step.
    They come before tracer.instrs[start] and tracer.buffers[bstart] (the loop's last iteration, traced).

    `inner` holds the blocks of inner loops replicated inside the template iteration (nested replication): they
    stay in tracer.blocks, where they write that iteration, and this block's iterations repeat them (flatten), so
    that no iteration of an inner loop is made into objects while tracing."""
    __slots__ = ("start", "ta", "q", "count", "step", "bstart", "nb", "fresh", "prefix", "values", "slots",
                 "producers", "inner", "agreed", "base")

    def __init__(self, start, ta, q, step, bstart, nb, fresh, prefix, values, slots, producers, inner=(), agreed=None,
                 base=None):
        self.start = start
        self.ta = ta
        self.q = q
        self.count = len(values)
        self.step = step
        self.bstart = bstart
        self.nb = nb
        self.fresh = fresh          # id(template buffer) -> its index among the template's new buffers
        self.prefix = prefix        # the enclosing loops' values
        self.values = values        # this loop's value in each written iteration
        self.slots = slots          # the template's new buffers' fields (loopstate.buffer_slots)
        self.producers = producers  # per new buffer: None, an index into the template, or an older instruction
        self.inner = inner          # the blocks in the template iteration, in tracer.blocks order
        # Where the traced iterations the loop's decision found equal to the template (up to the steps) begin:
        # tracer.instrs[agreed:ta] (replicate.py describes them no more at the loops around; None: not known).
        self.agreed = agreed
        self.base = base            # the template's integers that may step, as replicate._describe lists them


def records(blk):
    """The records of one of the block's iterations, its inner blocks' iterations included."""
    return blk.q + sum(records(b) * b.count for b in blk.inner)


def live(buffers, blk):
    """The live buffers of one of the block's iterations, its inner blocks' iterations included."""
    n = sum(1 for b in buffers[blk.bstart - blk.nb:blk.bstart] if not b.dropped)
    return n + sum(live(buffers, b) * b.count for b in blk.inner)


def counts(tracer):
    """(instructions, live buffers) of the trace, the blocks' included."""
    n = len(tracer.instrs)
    nb = sum(1 for b in tracer.buffers if not b.dropped)
    for blk in tracer.blocks:
        n += records(blk) * blk.count
        nb += live(tracer.buffers, blk) * blk.count
    return n, nb


def materialize(tracer):
    """Make every block's iterations into objects, in place: afterwards tracer.instrs and tracer.buffers hold
    what plain tracing holds and tracer.blocks is empty."""
    blocks = tracer.blocks
    if not blocks:
        return
    flats = [flatten(tracer, blk) for blk in blocks]  # before the lists are replaced: templates are read by place
    instrs, buffers = [], []
    pos = bpos = 0
    for blk, (tmpl, _, flat) in zip(blocks, flats):
        instrs.extend(tracer.instrs[pos:blk.start])
        buffers.extend(tracer.buffers[bpos:blk.bstart])
        pos, bpos = blk.start, blk.bstart
        write_iterations(tmpl, flat.slots, flat.producers, flat.fresh, flat.step, flat.prefix, flat.values, instrs,
                         buffers)
    instrs.extend(tracer.instrs[pos:])
    buffers.extend(tracer.buffers[bpos:])
    tracer.instrs = instrs
    tracer.buffers = buffers
    tracer.blocks = []


def flatten(tracer, blk):
    """(records, buffers, flat block) of one iteration of `blk` as a flat template: the inner blocks' iterations
    made into objects among the template's traced records and buffers (which stay the tracer's objects); the flat
    block's positions are into those two lists. For a block without inner blocks, its own template and itself."""
    if not blk.inner:
        return tracer.instrs[blk.ta:blk.start], tracer.buffers[blk.bstart - blk.nb:blk.bstart], blk
    out, bufs, (step,), slots, producers, fresh = _flat_template(tracer, blk, [])
    return out, bufs, Block(len(out), 0, len(out), step, len(bufs), len(bufs), fresh, blk.prefix, blk.values, slots,
                            producers)


def _flat_template(tracer, blk, outer):
    """(records, buffers, [blk.step] + `outer` (arrays aligned with the operands of blk's traced template), each
    aligned with the records, the buffers' fields, their producers, id(buffer) -> its place) of blk's template
    with its inner blocks' iterations made into objects."""
    ta, start, bfirst = blk.ta, blk.start, blk.bstart - blk.nb
    instrs = tracer.instrs
    if not blk.inner:
        return instrs[ta:start], tracer.buffers[bfirst:blk.bstart], [blk.step] + outer, blk.slots, blk.producers, \
            blk.fresh
    out, bufs, arrays, slots, traced = _flat_range(tracer, ta, start, bfirst, blk.bstart, blk.inner,
                                                   [blk.step] + outer, blk.slots)
    index = {id(ins): k for k, ins in enumerate(out)}
    own = iter(blk.producers)  # the traced buffers' producers, as replicate._splice took them
    producers = []
    for b, is_traced in zip(bufs, traced):
        p = next(own) if is_traced else b.producer
        if type(p) is int:
            p = index[id(instrs[ta + p])]
        elif p is not None:
            p = index.get(id(p), p)
        producers.append(p)
    return out, bufs, arrays, slots, producers, {id(b): k for k, b in enumerate(bufs)}


def _flat_range(tracer, first, stop, bfirst, bstop, inner, steps, slots):
    """The records [first, stop) and buffers [bfirst, bstop) of the tracer with the iterations of the blocks
    `inner` (which lie among them) made into objects in their places: (records, buffers, each array of `steps`
    (aligned with the operands of the records [first, stop)) made for the flat records, the buffers' fields
    (`slots`: those of the buffers [bfirst, bstop)), per buffer whether it is the tracer's). A record made from an
    inner template's record has that record's entries in every array: it steps with the outer loops as it does."""
    instrs, buffers = tracer.instrs, tracer.buffers
    at = [0]  # per record of the range: where its operands begin in each array of `steps`
    for ins in instrs[first:stop]:
        at.append(at[-1] + 2 * (len(ins.dst) + len(ins.src)))
    out, bufs, fields, traced = [], [], [], []
    flat = [[] for _ in steps]
    pos, bpos = first, bfirst
    for blk in inner:
        out.extend(instrs[pos:blk.start])
        bufs.extend(buffers[bpos:blk.bstart])
        lo, hi = at[pos - first], at[blk.start - first]
        for f, s in zip(flat, steps):
            f.extend(s[lo:hi])
        fields.extend(slots[bpos - bfirst:blk.bstart - bfirst])
        lo = at[blk.ta - first]
        tmpl, _, (istep, *sub), isl, prods, fresh = _flat_template(tracer, blk, [s[lo:hi] for s in steps])
        write_iterations(tmpl, isl, prods, fresh, istep, blk.prefix, blk.values, out, bufs)
        for f, s in zip(flat, sub):
            f.extend(s * blk.count)
        fields.extend(isl * blk.count)
        traced.extend([True] * (blk.bstart - bpos))
        traced.extend([False] * (len(bufs) - len(traced)))
        pos, bpos = blk.start, blk.bstart
    out.extend(instrs[pos:stop])
    bufs.extend(buffers[bpos:bstop])
    traced.extend([True] * (bstop - bpos))
    for f, s in zip(flat, steps):
        f.extend(s[at[pos - first]:])
    fields.extend(slots[bpos - bfirst:])
    return out, bufs, flat, fields, traced


def write_iterations(tmpl, slots, producers, fresh_index, step, prefix, values, instrs_out, bufs_out):
    """Append iterations 1..len(values) after the template (the template's iteration plus m = 1, 2, ...).
    `producers[i]`: None, an index into tmpl, or an instruction made before the loop; `values`: the loop
    variable of each written iteration."""
    suffixes = inner_suffixes(tmpl, len(prefix) + 1)
    if len(tmpl) > MAX_COMPILED:
        _write_plainly(tmpl, slots, producers, fresh_index, step, prefix, values, suffixes, instrs_out, bufs_out)
        return
    shape, consts = _template(tmpl, producers, fresh_index, step, suffixes)
    build = _builders.get(shape)
    if build is None:
        build = _builders[shape] = _compile(shape, len(slots))
    order = suffixes[0]
    for m, v in enumerate(values, 1):
        base = prefix + (v,)
        build(m, tuple(base + x for x in order), consts, slots, instrs_out, bufs_out)


# Templates of more records (a nested loop's iteration) are written by one generic loop: compiling code for them
# costs more than the few iterations such a loop has.
MAX_COMPILED = 64


def _write_plainly(tmpl, slots, producers, fresh_index, step, prefix, values, suffixes, instrs_out, bufs_out):
    order, per = suffixes
    rows = []  # per record: its operands as (template AP, index of its new buffer or -1, partition step, offset step)
    k = 0
    for ins in tmpl:
        ops = []
        for ap in ins.dst + ins.src:
            ops.append((ap, fresh_index.get(id(ap[0]), -1), step[k], step[k + 1]))
            k += 2
        rows.append((ins, len(ins.dst), ops))
    for m, v in enumerate(values, 1):
        base = prefix + (v,)
        its = [base + x for x in order]
        bufs = [new_buffer(sl) for sl in slots]
        made = []
        for (ins, nd, ops), s in zip(rows, per):
            aps = []
            for ap, f, dp, do in ops:
                if f < 0 and dp == 0 and do == 0:
                    aps.append(ap)
                else:
                    aps.append((ap[0] if f < 0 else bufs[f], ap[1] + m * dp, ap[2], ap[3] + m * do, ap[4], ap[5]))
            made.append(Instr(ins.op, ins.engine, aps[:nd], aps[nd:], ins.elements, ins.nbytes, ins.attrs, ins.loc,
                              its[s], ins.pid, ins.ranges))
        for b, p in zip(bufs, producers):
            if p is not None:
                b.producer = made[p] if type(p) is int else p
        instrs_out.extend(made)
        bufs_out.extend(bufs)


def inner_suffixes(tmpl, n):
    """(the distinct values of inner loops in the template's records, first seen first; per record the index of
    its own): a nested loop's records carry its inner loops' values after its own (`iter`[n:])."""
    index = {}
    per = []
    for ins in tmpl:
        x = ins.iter[n:]
        k = index.get(x)
        if k is None:
            k = index[x] = len(index)
        per.append(k)
    return tuple(index), tuple(per)


def _template(tmpl, producers, fresh_index, step, suffixes):
    """(shape, constants): the shape decides the code, the constants are what it reads, in the same order."""
    shape = [suffixes[1]]
    consts = []
    k = 0
    for ins in tmpl:
        kinds = []
        for aps in (ins.dst, ins.src):
            row = []
            for ap in aps:
                dp, do = step[k], step[k + 1]
                k += 2
                b = ap[0]
                f = fresh_index.get(id(b))
                if f is None and dp == 0 and do == 0:
                    row.append("c")
                    consts.append(ap)
                else:
                    row.append("p" if f is None else f)
                    consts.extend((b, ap[1], dp, ap[2], ap[3], do, ap[4], ap[5]))
            kinds.append(tuple(row))
        shape.append(tuple(kinds))
        consts.extend((ins.op, ins.engine, ins.elements, ins.nbytes, ins.attrs, ins.loc, ins.pid, ins.ranges))
    prods = []
    for p in producers:
        if p is None:
            prods.append(None)
        elif type(p) is int:
            prods.append(p)
        else:
            prods.append("o")
            consts.append(p)
    return (tuple(shape), tuple(prods)), tuple(consts)


def _compile(shape, nbufs):
    per, *instr_shape = shape[0]  # per record: which of the iteration's `iter` tuples it carries
    prods = shape[1]
    lines = ["def build(m, its, K, S, instrs_out, bufs_out):"]
    for b in range(nbufs):
        lines.append(f"    b{b} = nb(S[{b}])")
    k = 0
    for q, kinds in enumerate(instr_shape):
        lists = []
        for row in kinds:
            parts = []
            for kind in row:
                if kind == "c":
                    parts.append(f"K[{k}]")
                    k += 1
                else:
                    buf = f"K[{k}]" if kind == "p" else f"b{kind}"
                    parts.append(f"({buf}, K[{k + 1}] + m * K[{k + 2}], K[{k + 3}], K[{k + 4}] + m * K[{k + 5}], "
                                 f"K[{k + 6}], K[{k + 7}])")
                    k += 8
            lists.append("[" + ", ".join(parts) + "]")
        lines.append(f"    i{q} = Instr(K[{k}], K[{k + 1}], {lists[0]}, {lists[1]}, K[{k + 2}], K[{k + 3}], "
                     f"K[{k + 4}], K[{k + 5}], its[{per[q]}], K[{k + 6}], K[{k + 7}])")
        k += 8
    for b, p in enumerate(prods):
        if p == "o":
            lines.append(f"    b{b}.producer = K[{k}]")
            k += 1
        elif p is not None:
            lines.append(f"    b{b}.producer = i{p}")
    if nbufs:
        lines.append("    bufs_out.extend((" + "".join(f"b{b}, " for b in range(nbufs)) + "))")
    if instr_shape:
        lines.append("    instrs_out.extend((" + "".join(f"i{q}, " for q in range(len(instr_shape))) + "))")
    scope = {"nb": new_buffer, "Instr": Instr}
    exec(compile("\n".join(lines) + "\n", "<kltrace replay>", "exec"), scope)
    return scope["build"]


_new = object.__new__


def new_buffer(slots):
    """A buffer from loopstate.buffer_slots (producer None, id -1)."""
    b = _new(Buffer)
    plain, mm_keys, rap = slots
    (b.name, b.memory, b.shape, b.dtype, b.role, b.decl, b.pstride, b.written, b.zeroed, b.temp, b.pinned, b.dropped,
     b.kind, b.rdims) = plain
    b.mm_keys = None if mm_keys is None else set(mm_keys)
    b.producer = None
    b.rap = None if rap is None else ((b,) + rap[0], rap[1])
    b.id = -1
    return b
