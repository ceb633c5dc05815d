"""Writes the replicated iterations of a loop (replicate.py) into the binary IR as one block.

The iterations a replicated loop writes from its template are known before the writer looks at them: every
record is the template's with the operands' partition starts and offsets advanced by a fixed step and the
buffers of the iteration in place of the template's. Pooling them record by record (hashing each operand and
operand list) is what made the writer cost more than the tracing; here the pools' answers are worked out
once per template and only the parts that move are computed per iteration.

The bytes must be exactly what irbin's record-by-record path writes: new operands and operand lists take
their indices in first-use order, a moving operand on a buffer made before the loop is looked up in the
pool (the same tile may have been loaded before), and a block is written only when that can be vouched
for: operands on the iteration's own buffers keep their equalities from one iteration to the next (equal
steps) and the first and last written iterations hold the objects the template predicts. Otherwise
write() returns None and the caller writes the records one by one.
"""


def write(pools, instrs, buffers, block):
    """Append the block's operand, list and instruction records to `pools`; the index after the block, or
    None when it must be written record by record."""
    start, ta, q, count, step, bstart, nb, fresh = block
    stop = start + q * count
    if q == 0 or count <= 0 or ta + q != start or stop > len(instrs) or bstart + nb * count > len(buffers):
        return None
    plan = _plan(pools, instrs[ta:start], step, fresh)
    if plan is None or not _predicted(instrs, buffers, block, plan, 1) or \
            not _predicted(instrs, buffers, block, plan, count):
        return None
    _commit(pools, instrs, buffers, block, plan)
    return stop


def _plan(pools, tmpl, step, fresh):
    """What does not change from one iteration to the next: (constant operand indices by slot, the classes of
    the moving operands in first-use order, per slot its constant index or class, per instruction its fixed
    record fields), or None."""
    consts = []
    classes = []
    class_at = {}
    slot_of = []
    heads = []
    fresh_step = {}
    k = 0
    for ins in tmpl:
        for ap in ins.dst + ins.src:
            dp, do = step[k], step[k + 1]
            k += 2
            b, p0, pc, off, pat, dt = ap
            f = fresh.get(id(b))
            if f is None and dp == 0 and do == 0:
                i = pools.operand_at.get(ap)
                if i is None:
                    return None  # the template is written first: its operands are pooled
                slot_of.append(i)
                consts.append(i)
                continue
            if f is not None:
                if b.dropped or fresh_step.setdefault(f, (dp, do)) != (dp, do):
                    return None  # equal operands of one new buffer could part (or meet) in a later iteration
                key = ("f", f, p0, dp, pc, off, do, pat, dt)
            else:
                key = ("p", b, p0, dp, pc, off, do, pat, dt)
            c = class_at.get(key)
            if c is None:
                c = class_at[key] = len(classes)
                classes.append(key)
            slot_of.append(-1 - c)
        o, e, a = pools.head(ins)
        own = any(s < 0 and classes[-1 - s][0] == "f" for s in slot_of[len(slot_of) - len(ins.dst) - len(ins.src):])
        heads.append((ins.elements, ins.nbytes, o, e, a, pools.loc(ins.loc), len(ins.dst), len(ins.src),
                      len(ins.loc), own, ins))
    for key in classes:
        if pools.pattern_at.get(key[7]) is None:
            return None
    return consts, classes, slot_of, heads


def _predicted(instrs, buffers, block, plan, m):
    """Whether written iteration m holds the objects and values the template predicts."""
    start, ta, q, count, step, bstart, nb, fresh = block
    _, classes, slot_of, heads = plan
    bufs = buffers[bstart + (m - 1) * nb:bstart + m * nb]
    first = instrs[start + (m - 1) * q]
    it, pid = first.iter, first.pid
    k = 0
    for j, h in enumerate(heads):
        t = h[-1]
        ins = instrs[start + (m - 1) * q + j]
        if (ins.op, ins.engine, ins.elements, ins.nbytes, ins.pid) != (t.op, t.engine, t.elements, t.nbytes, t.pid):
            return False
        if ins.attrs is not t.attrs or ins.loc is not t.loc or ins.iter is not it or ins.pid is not pid:
            return False
        if len(ins.dst) != len(t.dst) or len(ins.src) != len(t.src) or len(it) != len(t.iter):
            return False
        for ap, tp in zip(ins.dst + ins.src, t.dst + t.src):
            s = slot_of[k]
            dp, do = step[2 * k], step[2 * k + 1]
            k += 1
            if s >= 0:
                if ap != tp:
                    return False
                continue
            kind, ref = classes[-1 - s][:2]
            b = bufs[ref] if kind == "f" else ref
            if ap[0] is not b or ap[1:] != (tp[1] + m * dp, tp[2], tp[3] + m * do, tp[4], tp[5]):
                return False
    return True


def _commit(pools, instrs, buffers, block, plan):
    from .irbin import _INSTR, _OPERAND  # irbin imports this module
    start, ta, q, count, step, bstart, nb, fresh = block
    consts, classes, slot_of, heads = plan
    sget = pools.strings.get
    pattern_at = pools.pattern_at
    # Per class the fields of its operand record that do not move; a buffer made before the loop by object,
    # one of the iteration's own by its index among them.
    fixed = [(cls[0] == "f", cls[1], cls[2], cls[3], cls[4], cls[5], cls[6], cls[7], cls[8], pattern_at[cls[7]],
              sget(cls[8]), len(cls[7])) for cls in classes]
    opack = _OPERAND.pack
    ipack = _INSTR.pack
    operand_at = pools.operand_at
    list_at = pools.list_at
    lists = pools.lists
    ops_out = []
    recs_out = []
    n = pools.n_operands
    index = [0] * len(classes)
    ident = start
    for m in range(1, count + 1):
        bufs = buffers[bstart + (m - 1) * nb:bstart + m * nb]
        first = instrs[start + (m - 1) * q]
        ib = pools.iter_pid(first.iter, first.pid)
        nit, npid = len(first.iter), len(first.pid)
        # New operands take indices in first-use order, as record by record; an operand of the iteration's own
        # buffer is always new, one of an earlier buffer may be pooled already (the same tile loaded again).
        for c, (own, ref, p0, dp, pc, off, do, pat, dt, patb, dts, dims) in enumerate(fixed):
            p0 += m * dp
            off += m * do
            if own:
                bid = bufs[ref].id
            else:
                key = (ref, p0, pc, off, pat, dt)
                i = operand_at.get(key)
                if i is not None:
                    index[c] = i
                    continue
                operand_at[key] = n
                bid = ref.id
            index[c] = n
            n += 1
            has_part = p0 >= 0
            ops_out.append(opack(off, bid, patb, dts, p0 if has_part else 0, pc if has_part else 1, dims, has_part))
        row = [s if s >= 0 else index[-1 - s] for s in slot_of]
        k = 0
        # A list holding an operand of the iteration's own buffers is new and no later instruction can repeat it
        # (nothing outside the block refers to these buffers): pooled within the iteration only.
        local = {}
        for elements, nbytes, o, e, a, locb, nd, ns, nl, own, _ in heads:
            key = tuple(row[k:k + nd + ns])
            k += nd + ns
            pool = local if own else list_at
            lb = pool.get(key)
            if lb is None:
                lb = pool[key] = len(lists)
                lists.extend(key)
            recs_out.append(ipack(elements, nbytes, ident, o, e, a, lb, locb, ib, nd, ns, nl, nit, npid))
            ident += 1
    pools.n_operands = n
    pools.operands.append(b"".join(ops_out))
    pools.records.append(b"".join(recs_out))
