"""Writes the Kernel IR (docs/kernel-ir.md) as compact, deterministic JSON.

Written by hand rather than through dicts because traces hold hundreds of thousands of instructions:
operand and location strings are cached per distinct tuple.
"""
import json

from . import dtypes

IR_VERSION = 1
_dump = json.dumps


def _pattern(pat, cache):
    s = cache.get(pat)
    if s is None:
        s = cache[pat] = "[" + ",".join(f"[{a},{b}]" for a, b in pat) + "]"
    return s


def _ap(ap, cache, pcache):
    key = (ap[0].id,) + ap[1:]
    s = cache.get(key)
    if s is None:
        b, p0, pc, off, pat, dt = ap
        part = f'"part":[{p0},{pc}],' if p0 >= 0 else ""
        s = cache[key] = f'{{"buf":{b.id},{part}"offset":{off},"pattern":{_pattern(pat, pcache)},"dtype":"{dt}"}}'
    return s


def _loc(loc, cache):
    s = cache.get(loc)
    if s is None:
        s = cache[loc] = "[" + ",".join(f'{{"file":{f},"line":{l}}}' for f, l in loc) + "]"
    return s


def _ints(t, cache):
    s = cache.get(t)
    if s is None:
        s = cache[t] = "[" + ",".join(str(v) for v in t) + "]"
    return s


def _attr_value(v):
    if hasattr(v, "value") and not isinstance(v, (int, float, str)):
        v = v.value
    return v


def render(tracer, kernel_name, api, args):
    """The IR document as a string."""
    live = [b for b in tracer.buffers if not b.dropped]
    for i, b in enumerate(live):
        b.id = i
    out = ['{"ir_version":', str(IR_VERSION), ',"kernel":',
           _dump({"name": kernel_name, "file": 0, "api": api, "grid": list(tracer.grid), "args": args},
                 separators=(",", ":")),
           ',"files":', _dump(tracer.files, separators=(",", ":")), ',"buffers":[']
    parts = []
    for b in live:
        parts.append(f'{{"id":{b.id},"name":{_dump(b.name)},"memory":"{b.memory}","shape":{_ints(b.shape, {})},'
                     f'"dtype":"{b.dtype}","dtype_bytes":{dtypes.SIZES[b.dtype]},"role":"{b.role}",'
                     f'"decl":{{"file":{b.decl[0]},"line":{b.decl[1]}}}}}')
    out.append(",".join(parts))
    out.append('],"instructions":[')
    apc, pc, lc, ic = {}, {}, {}, {}
    attr_cache = {}
    parts = []
    for i, ins in enumerate(tracer.instrs):
        dst = ",".join([_ap(a, apc, pc) for a in ins.dst])
        src = ",".join([_ap(a, apc, pc) for a in ins.src])
        attrs = ins.attrs
        if attrs:
            key = tuple((k, type(v), v) for k, v in attrs.items()) if all(isinstance(v, (int, float, str, bool)) for v in attrs.values()) else None
            a = attr_cache.get(key) if key is not None else None
            if a is None:
                a = _dump({k: _attr_value(v) for k, v in attrs.items()}, separators=(",", ":"), default=str)
                if key is not None:
                    attr_cache[key] = a
        else:
            a = "{}"
        parts.append(f'{{"id":{i},"op":"{ins.op}","engine":"{ins.engine}","dst":[{dst}],"src":[{src}],'
                     f'"elements":{ins.elements},"bytes":{ins.nbytes},"attrs":{a},"loc":{_loc(ins.loc, lc)},'
                     f'"iter":{_ints(ins.iter, ic)},"pid":{_ints(ins.pid, ic)}}}')
    out.append(",".join(parts))
    out.append('],"diagnostics":[')
    out.append(",".join(f'{{"severity":"{s}","message":{_dump(m)},"file":{f},"line":{l}}}'
                        for s, m, f, l in tracer.diagnostics))
    out.append("]}")
    return "".join(out)
