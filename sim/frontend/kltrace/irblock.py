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
steps) and the template's constant operands and patterns are pooled already. Otherwise write() returns False
and the caller makes the iterations into objects (replay.py) and writes them record by record. The written
iterations exist nowhere but here (replicate.py keeps them as a replay.Block): buffer ids and iteration values
are worked out by arithmetic from the template's.
"""
import struct
from itertools import chain

from . import ircolumns, replay
from .irrecords import _INSTR, _OPERAND, NONE


# A template of more records (a nested loop's iteration) is written record by record: compiling straight-line
# code for it costs more than the few iterations such a loop writes.
MAX_RECORDS = 64


def write(pools, instrs, buffers, blk, first_id):
    """Append the block's operand, list and instruction records to `pools` (its first record has id
    `first_id`); False when it must be written record by record."""
    if blk.q == 0 or blk.count <= 0 or blk.ta + blk.q != blk.start or blk.nb > blk.bstart:
        return False
    plan = _plan(pools, instrs[blk.ta:blk.start], blk.step, blk.fresh)
    if plan is None:
        return False
    if ircolumns.write(pools, buffers, blk, plan, first_id):
        return True
    if blk.q > MAX_RECORDS:
        return False
    _commit(pools, buffers, blk, plan, first_id)
    return True


def _plan(pools, tmpl, step, fresh):
    """What does not change from one iteration to the next: (constant operand indices by slot, the classes of
    the moving operands in first-use order, per slot its constant index or class, per instruction its fixed
    record fields), or None. (One pass over the template's records, a nested loop's inner iterations included:
    pools.head and pools.loc are asked only on a miss of their identity caches, as irbin's record loop does.)"""
    consts = []
    classes = []
    class_at = {}
    class_get = class_at.get
    slot_of = []
    add_slot = slot_of.append
    heads = []
    fresh_step = {}
    operand_get = pools.operand_at.get
    fresh_get = fresh.get
    attr_get = pools.attr_ids.get
    head_get = pools.heads.get
    loc_get = pools.loc_ids.get
    steps = iter(step)  # partition start and offset steps per operand, in the records' dsts-then-srcs order
    for ins in tmpl:
        own = False  # whether the record names a new buffer of the iteration
        dst, src = ins.dst, ins.src
        for ap, dp, do in zip(chain(dst, src), steps, steps):
            b = ap[0]
            f = fresh_get(id(b))
            if f is None and dp == 0 and do == 0:
                i = operand_get(ap)
                if i is None:
                    return None  # the template is written first: its operands are pooled
                add_slot(i)
                consts.append(i)
                continue
            _, p0, pc, off, pat, dt = ap
            if f is not None:
                if b.dropped or fresh_step.setdefault(f, (dp, do)) != (dp, do):
                    return None  # equal operands of one new buffer could part (or meet) in a later iteration
                key = ("f", f, p0, dp, pc, off, do, pat, dt)
                own = True
            else:
                key = ("p", b, p0, dp, pc, off, do, pat, dt)
            c = class_get(key)
            if c is None:
                c = class_at[key] = len(classes)
                classes.append(key)
            add_slot(-1 - c)
        attrs = ins.attrs
        a = attr_get(id(attrs), NONE) if attrs else NONE
        head = head_get((ins.op, ins.engine))
        if head is None or a is NONE and attrs:
            o, e, a = pools.head(ins)
        else:
            o, e = head
        loc = ins.loc
        lb = loc_get(id(loc))
        if lb is None:
            lb = pools.loc(loc)
        heads.append((ins.elements, ins.nbytes, o, e, a, lb, len(dst), len(src), len(loc), own, ins))
    for key in classes:
        if pools.pattern_at.get(key[7]) is None:
            return None
    return consts, classes, slot_of, heads


def _commit(pools, buffers, blk, plan, first_id):
    """Write the block with a function made for its template's shape (see _compile); the values of this
    template reach it as one tuple."""
    consts, classes, slot_of, heads = plan
    q = blk.q
    prefix = blk.prefix
    order, per = replay.inner_suffixes([h[-1] for h in heads], len(prefix) + 1)
    shape = (tuple(c[0] for c in classes), tuple(s if s < 0 else None for s in slot_of),
             tuple((h[6], h[7], h[9]) for h in heads), per, tuple(len(x) for x in order))
    build = _compiled.get(shape)
    if build is None:
        build = _compiled[shape] = _compile(shape)
    ipack = _packers.get(q)
    if ipack is None:
        ipack = _packers[q] = struct.Struct("<" + _INSTR.format[1:] * q).pack
    sget = pools.strings.get
    fields = []
    for _, ref, p0, dp, pc, off, do, pat, dt in classes:
        fields.extend((ref, p0, dp, pc, off, do, pat, dt, pools.pattern_at[pat], sget(dt), len(pat)))
    fields.extend(consts)
    for h in heads:
        fields.extend((h[0], h[1], h[2], h[3], h[4], h[5], h[8]))  # elements, bytes, op, engine, attrs, loc, locs
    ops_out = []
    recs_out = []
    pid = heads[0][-1].pid
    # The template's new buffers come just before the block: iteration m's are theirs plus m times the live ones.
    tmpl = buffers[blk.bstart - blk.nb:blk.bstart]
    live = sum(1 for b in tmpl if not b.dropped)
    ids = [b.id + live for b in tmpl]
    pools.n_operands = build(tuple(fields), blk.count, first_id, prefix, blk.values, pid, len(prefix) + 1, len(pid),
                             ids, live, pools.iter_pids(prefix, blk.values, pid, order), pools.operand_at,
                             pools.list_at, pools.lists, pools.n_operands,
                             ops_out.append, recs_out.append, _OPERAND.pack, ipack)
    pools.operands.append(b"".join(ops_out))
    pools.records.append(b"".join(recs_out))


_compiled = {}  # template shape -> function writing a block of that shape
_packers = {}   # instructions per iteration -> pack of that many instruction records


def _compile(shape):
    """Straight-line code for one iteration of a template of this shape (a loop over iterations around it):
    per operand class its index (new, or looked up in the pool), per instruction its list and record. New
    operands and lists take indices in first-use order, as irbin's record-by-record path gives them."""
    kinds, slots, lens, per, slen = shape
    names = []
    for c in range(len(kinds)):
        names += [f"r{c}", f"p{c}", f"dp{c}", f"pc{c}", f"f{c}", f"do{c}", f"pat{c}", f"dt{c}", f"pb{c}", f"ds{c}",
                  f"dm{c}"]
    nconst = sum(1 for s in slots if s is None)
    names += [f"c{k}" for k in range(nconst)]
    for j in range(len(lens)):
        names += [f"el{j}", f"nb{j}", f"o{j}", f"e{j}", f"a{j}", f"lc{j}", f"nl{j}"]
    body = ["def build(K, count, start, prefix, values, pid, nit, npid, ids, live, ibs, operand_at, list_at,",
            "          lists, n, oa, ra, opack, ipack):",
            "    (" + ", ".join(names) + ",) = K",
            "    oget = operand_at.get",
            "    lget = list_at.get",
            "    ident = start",
            "    for m in range(1, count + 1):",
            "        b = (m - 1) * live",
            f"        ib = (m - 1) * {len(slen)}"]
    body += [f"        ib{s} = ibs[ib + {s}]" for s in range(len(slen))]
    for c, kind in enumerate(kinds):
        body += [f"        x = p{c} + m * dp{c}", f"        y = f{c} + m * do{c}"]
        record = f"oa(opack(y, {{}}, pb{c}, ds{c}, x if x >= 0 else 0, pc{c} if x >= 0 else 1, dm{c}, x >= 0))"
        if kind == "f":
            body += [f"        i{c} = n", "        n += 1", "        " + record.format(f"ids[r{c}] + b")]
        else:
            body += [f"        key = (r{c}, x, pc{c}, y, pat{c}, dt{c})", f"        i{c} = oget(key)",
                     f"        if i{c} is None:", f"            i{c} = operand_at[key] = n", "            n += 1",
                     "            " + record.format(f"r{c}.id")]
    local = _may_meet(kinds, slots, lens)
    if local:
        body.append("        local = {}")
    k = 0
    const = iter(range(nconst))
    fields = []
    for j, (nd, ns, own) in enumerate(lens):
        items = []
        for s in slots[k:k + nd + ns]:
            items.append(f"i{-1 - s}" if s is not None else f"c{next(const)}")
        k += nd + ns
        body.append("        key = (" + "".join(x + ", " for x in items) + ")")
        if own and not local:
            body += [f"        l{j} = len(lists)", "        lists.extend(key)"]
        else:
            get, pool = ("local.get", "local") if own else ("lget", "list_at")
            body += [f"        l{j} = {get}(key)", f"        if l{j} is None:",
                     f"            l{j} = {pool}[key] = len(lists)", "            lists.extend(key)"]
        fields.append(f"el{j}, nb{j}, ident + {j}, o{j}, e{j}, a{j}, l{j}, lc{j}, ib{per[j]}, {nd}, {ns}, nl{j}, "
                      f"nit + {slen[per[j]]}, npid")
    body += ["        ra(ipack(" + ", ".join(fields) + "))", f"        ident += {len(lens)}", "    return n"]
    scope = {}
    exec(compile("\n".join(body) + "\n", "<kltrace block writer>", "exec"), scope)
    return scope["build"]


def _may_meet(kinds, slots, lens):
    """Whether two operand lists of the iteration's own operands may be equal in some iteration, so that they
    must be pooled within it. An operand of a new buffer has an index no other operand of the iteration has,
    so two lists with such an operand at a place where the other list has anything else never meet."""
    own = []
    k = 0
    for nd, ns, is_own in lens:
        if is_own:
            own.append(tuple(s if s is not None and kinds[-1 - s] == "f" else None for s in slots[k:k + nd + ns]))
        k += nd + ns
    return len(set(own)) != len(own)
