"""Writing the replicated iterations of a loop (replicate.py): buffers and instructions from a template.

A template is one traced iteration: its instructions, the fields of the buffers it made, and per operand
the step of its partition start and offset per iteration. Writing hundreds of thousands of records one
generic loop at a time costs more than tracing them, so each template shape (which operands move, which
name a new buffer, which buffer an instruction produced) gets a small Python function, compiled once and
kept, that makes one iteration's objects in straight-line code; the template's values reach it as one
tuple of constants.
"""
from .tracer import Buffer, Instr

_builders = {}  # template shape -> compiled function(m, it, K, S, instrs_out, bufs_out)


def write_iterations(tmpl, slots, producers, fresh_index, step, prefix, values, instrs_out, bufs_out):
    """Append iterations 1..len(values) after the template (the template's iteration plus m = 1, 2, ...).
    `producers[i]`: None, an index into tmpl, or an instruction made before the loop; `values`: the loop
    variable of each written iteration."""
    shape, consts = _template(tmpl, producers, fresh_index, step)
    build = _builders.get(shape)
    if build is None:
        build = _builders[shape] = _compile(shape, len(slots))
    for m, v in enumerate(values, 1):
        build(m, prefix + (v,), consts, slots, instrs_out, bufs_out)


def _template(tmpl, producers, fresh_index, step):
    """(shape, constants): the shape decides the code, the constants are what it reads, in the same order."""
    shape = []
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
    instr_shape, prods = shape
    lines = ["def build(m, it, K, S, instrs_out, bufs_out):"]
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
                     f"K[{k + 4}], K[{k + 5}], it, K[{k + 6}], K[{k + 7}])")
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
