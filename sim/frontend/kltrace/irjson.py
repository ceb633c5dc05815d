"""Writes the Kernel IR (docs/kernel-ir.md) as compact, deterministic JSON.

Written by hand rather than through dicts because traces hold hundreds of thousands of instructions:
operand and location strings are cached per distinct tuple.
"""
import json
import math
import numbers

from . import dtypes, replay

IR_VERSION = 1
_dump = json.dumps


def _pattern(pat, cache):
    s = cache.get(pat)
    if s is None:
        s = cache[pat] = "[" + ",".join(f"[{a},{b}]" for a, b in pat) + "]"
    return s


def _ap(ap, cache, pcache):
    """Text of an operand; the cache is keyed by the AP tuple (its buffer's id is fixed while rendering).
    `pcache` holds the `"pattern":...,"dtype":...}` tail per (pattern, dtype)."""
    b, p0, pc, off, pat, dt = ap
    tail = pcache.get((pat, dt))
    if tail is None:
        tail = pcache[(pat, dt)] = f',"pattern":{_pattern(pat, pcache)},"dtype":"{dt}"}}'
    if p0 >= 0:
        s = cache[ap] = f'{{"buf":{b.id},"part":[{p0},{pc}],"offset":{off}{tail}'
    else:
        s = cache[ap] = f'{{"buf":{b.id},"offset":{off}{tail}'
    return s


def _loc(loc, cache):
    s = cache.get(loc)
    if s is None:
        s = cache[loc] = "[" + ",".join(f'{{"file":{f},"line":{l}}}' for f, l in loc) + "]"
    return s


def _ints(t, cache):
    s = cache.get(t)
    if s is None:
        s = cache[t] = "[" + ",".join(map(str, t)) + "]"
    return s


def _attr_value(v):
    if hasattr(v, "value") and not isinstance(v, (int, float, str)):
        v = v.value
    elif type(v) not in _PLAIN and isinstance(v, numbers.Number) and hasattr(v, "item"):
        v = v.item()  # a NumPy scalar
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)  # JSON has no infinity or NaN: "inf", "-inf", "nan" (docs/kernel-ir.md)
    return v


# Attribute value types whose JSON text depends only on (type, value), so rendered `attrs` objects can
# be shared between instructions with equal attributes. A float 0.0 is never shared: -0.0 == 0.0.
_PLAIN = frozenset((int, str, bool, type(None), float))


def _attrs_text(attrs):
    return _dump({k: _attr_value(v) for k, v in attrs.items()}, separators=(",", ":"), default=str)


def _attr_text(attrs, plain_types, attr_cache):
    vals = tuple(attrs.values())
    types = tuple(map(type, vals))
    plain = plain_types.get(types)
    if plain is None:
        plain = plain_types[types] = all(t in _PLAIN for t in types)
    if plain and (float not in types or 0.0 not in vals):
        key = (tuple(attrs), vals, types)
        at = attr_cache.get(key)
        if at is None:
            at = attr_cache[key] = _attrs_text(attrs)
        return at
    return _attrs_text(attrs)


def render(tracer, kernel_name, api, args):
    """The IR document as a string."""
    replay.materialize(tracer)  # the JSON form is an export: the replicated iterations are made into objects
    live = [b for b in tracer.buffers if not b.dropped]
    for i, b in enumerate(live):
        b.id = i
    out = ['{"ir_version":', str(IR_VERSION), ',"kernel":',
           _dump(dict({"name": kernel_name, "file": 0, "api": api, "grid": list(tracer.grid), "args": args},
                      **({"lnc": tracer.lnc} if tracer.lnc != 1 else {})), separators=(",", ":")),
           ',"files":', _dump(tracer.files, separators=(",", ":")), ',"buffers":[']
    out.append(",".join(_buffers(live)))
    out.append('],"instructions":[')
    out.append(",".join(_instructions(tracer.instrs)))
    out.append('],"diagnostics":[')
    out.append(",".join(f'{{"severity":"{s}","message":{_dump(m)},"file":{f},"line":{l}}}'
                        for s, m, f, l in tracer.diagnostics))
    out.append("]}")
    return "".join(out)


def _buffers(live):
    """One JSON object per buffer; everything after the id repeats for the tiles of one loop line."""
    tails = {}
    names = {}
    shapes = {}
    parts = []
    append = parts.append
    for b in live:
        key = (b.name, b.memory, b.shape, b.dtype, b.role, b.decl)
        tail = tails.get(key)
        if tail is None:
            name = names.get(b.name)
            if name is None:
                name = names[b.name] = _dump(b.name)
            tail = tails[key] = (f',"name":{name},"memory":"{b.memory}","shape":{_ints(b.shape, shapes)},'
                                 f'"dtype":"{b.dtype}","dtype_bytes":{dtypes.SIZES[b.dtype]},"role":"{b.role}",'
                                 f'"decl":{{"file":{b.decl[0]},"line":{b.decl[1]}}}}}')
        append(f'{{"id":{b.id}{tail}')
    return parts


def _instructions(instrs):
    """One JSON object per instruction; the pieces that repeat (operands, attrs, loc, iter) are cached
    as text, so most instructions are one dictionary lookup per field and one format."""
    apc, pc, lc, ic = {}, {}, {}, {}
    attr_cache = {}
    attr_ids = {}  # id(attrs dict) -> text; every dict stays alive in its instruction while rendering
    plain_types = {}
    head_cache = {}
    ap_get = apc.get
    loc_get = lc.get
    int_get = ic.get
    parts = []
    append = parts.append
    last_iter = last_pid = last_tail = None
    for i, ins in enumerate(instrs):
        d = ins.dst
        if len(d) == 1:
            a = d[0]
            dst = ap_get(a) or _ap(a, apc, pc)
        else:
            dst = ",".join([ap_get(a) or _ap(a, apc, pc) for a in d])
        sl = ins.src
        n = len(sl)
        if n == 2:
            a, b = sl
            src = (ap_get(a) or _ap(a, apc, pc)) + "," + (ap_get(b) or _ap(b, apc, pc))
        elif n == 1:
            a = sl[0]
            src = ap_get(a) or _ap(a, apc, pc)
        elif n == 0:
            src = ""
        else:
            src = ",".join([ap_get(a) or _ap(a, apc, pc) for a in sl])
        attrs = ins.attrs
        if attrs:
            at = attr_ids.get(id(attrs))  # matmul attrs dicts are shared (ops.mm_attrs)
            if at is None:
                at = attr_ids[id(attrs)] = _attr_text(attrs, plain_types, attr_cache)
        else:
            at = "{}"
        head = head_cache.get((ins.op, ins.engine))
        if head is None:
            head = head_cache[(ins.op, ins.engine)] = f'"op":"{ins.op}","engine":"{ins.engine}","dst":['
        loc = ins.loc
        it = ins.iter
        if it is last_iter and ins.pid is last_pid:
            tail = last_tail  # consecutive instructions of one loop iteration share the same tuples
        else:
            last_iter = it
            last_pid = pid = ins.pid
            tail = last_tail = (f'"iter":{int_get(it) or _ints(it, ic)},"pid":{int_get(pid) or _ints(pid, ic)}}}')
        append(f'{{"id":{i},{head}{dst}],"src":[{src}],"elements":{ins.elements},"bytes":{ins.nbytes},'
               f'"attrs":{at},"loc":{loc_get(loc) or _loc(loc, lc)},{tail}')
    return parts
