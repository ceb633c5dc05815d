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
    traced records tracer.instrs[ta:ta + q] and buffers tracer.buffers[bstart - nb:bstart]) with every operand's
    partition start and offset advanced by m times its step. They come before tracer.instrs[start] and
    tracer.buffers[bstart] (the loop's last iteration, traced)."""
    __slots__ = ("start", "ta", "q", "count", "step", "bstart", "nb", "fresh", "prefix", "values", "slots",
                 "producers")

    def __init__(self, start, ta, q, step, bstart, nb, fresh, prefix, values, slots, producers):
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
        self.slots = slots          # the template's new buffers' fields (replicate._buffer_slots)
        self.producers = producers  # per new buffer: None, an index into the template, or an older instruction


def counts(tracer):
    """(instructions, live buffers) of the trace, the blocks' included."""
    n = len(tracer.instrs)
    nb = sum(1 for b in tracer.buffers if not b.dropped)
    for blk in tracer.blocks:
        n += blk.q * blk.count
        nb += blk.count * sum(1 for b in tracer.buffers[blk.bstart - blk.nb:blk.bstart] if not b.dropped)
    return n, nb


def materialize(tracer):
    """Make every block's iterations into objects, in place: afterwards tracer.instrs and tracer.buffers hold
    what plain tracing holds and tracer.blocks is empty."""
    blocks = tracer.blocks
    if not blocks:
        return
    instrs, buffers = [], []
    pos = bpos = 0
    for blk in blocks:
        tmpl = tracer.instrs[blk.ta:blk.ta + blk.q]
        instrs.extend(tracer.instrs[pos:blk.start])
        buffers.extend(tracer.buffers[bpos:blk.bstart])
        pos, bpos = blk.start, blk.bstart
        write_iterations(tmpl, blk.slots, blk.producers, blk.fresh, blk.step, blk.prefix, blk.values, instrs,
                         buffers)
    instrs.extend(tracer.instrs[pos:])
    buffers.extend(tracer.buffers[bpos:])
    tracer.instrs = instrs
    tracer.buffers = buffers
    tracer.blocks = []


def expand(tracer, first, stop, bfirst, bstop, kfirst, kstop, step, slots):
    """Make the blocks tracer.blocks[kfirst:kstop], which lie in one iteration of an outer loop (its records
    [first, stop) and buffers [bfirst, bstop)), into objects in place, so that the iteration is a flat template
    (replicate.py: an inner loop replicated inside the iteration of an outer one). `step` holds the outer loop's
    step per operand of the records [first, stop) and `slots` the fields of the buffers [bfirst, bstop)
    (replicate._buffer_slots); returns (both for the records and buffers after, the records added, the buffers
    added): a record made from an inner template's record steps with the outer loop as that one does, a buffer
    made from an inner template's has its fields. The blocks after the iteration's move by as much."""
    instrs, buffers, blocks = tracer.instrs, tracer.buffers, tracer.blocks
    at = [0]  # per record of the iteration: where its operands begin in `step`
    for ins in instrs[first:stop]:
        at.append(at[-1] + 2 * (len(ins.dst) + len(ins.src)))
    out, bufs, steps, fields = [], [], [], []
    pos, bpos = first, bfirst
    for blk in blocks[kfirst:kstop]:
        out.extend(instrs[pos:blk.start])
        bufs.extend(buffers[bpos:blk.bstart])
        steps.extend(step[at[pos - first]:at[blk.start - first]])
        fields.extend(slots[bpos - bfirst:blk.bstart - bfirst])
        write_iterations(instrs[blk.ta:blk.start], blk.slots, blk.producers, blk.fresh, blk.step, blk.prefix,
                         blk.values, out, bufs)
        steps.extend(step[at[blk.ta - first]:at[blk.start - first]] * blk.count)
        fields.extend(blk.slots * blk.count)
        pos, bpos = blk.start, blk.bstart
    out.extend(instrs[pos:stop])
    bufs.extend(buffers[bpos:bstop])
    steps.extend(step[at[pos - first]:])
    fields.extend(slots[bpos - bfirst:])
    dq, db = len(out) - (stop - first), len(bufs) - (bstop - bfirst)
    instrs[first:stop] = out
    buffers[bfirst:bstop] = bufs
    del blocks[kfirst:kstop]
    for blk in blocks[kfirst:]:
        blk.start += dq
        blk.ta += dq
        blk.bstart += db
    return steps, fields, dq, db


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
    """A buffer from replicate._buffer_slots (producer None, id -1)."""
    b = _new(Buffer)
    (b.name, b.memory, b.shape, b.dtype, b.role, b.decl, b.pstride, b.written, b.zeroed, mm_keys, b.temp, b.pinned,
     b.dropped, b.producer, b.kind, b.rdims, rap) = slots
    b.mm_keys = None if mm_keys is None else set(mm_keys)
    b.rap = None if rap is None else ((b,) + rap[0], rap[1])
    b.id = -1
    return b
