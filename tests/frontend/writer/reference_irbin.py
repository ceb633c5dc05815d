"""A plain reference for the binary IR writer (kltrace/irbin.py): every record built one by one from its
instruction, every pooled value looked up by value, no caches and no blocks. Slow; only for comparing bytes."""
import json
import struct

from kltrace import dtypes
from kltrace.irbin import _BUFFER, _HEADER, _INSTR, _MEMORY, _OPERAND, _ROLE, FORMAT_VERSION, MAGIC, NONE
from kltrace.irjson import IR_VERSION, _attr_text


class _Pool:
    """Distinct values in first-use order; `add` returns the index of the value's first element."""

    def __init__(self, width=1):
        self.at = {}
        self.items = []
        self.width = width

    def add(self, key, values):
        i = self.at.get(key)
        if i is None:
            i = self.at[key] = len(self.items) // self.width
            self.items.extend(values)
        return i


def _section(tag, size, count, payload):
    pad = (-len(payload)) % 8
    return struct.pack("<4sIQQ", tag, size, count, len(payload) + pad) + payload + b"\0" * pad


def render(tracer, kernel_name, api, args):
    live = [b for b in tracer.buffers if not b.dropped]
    for i, b in enumerate(live):
        b.id = i
    strings = _Pool()
    kernel = {"name": kernel_name, "file": 0, "api": api, "grid": list(tracer.grid), "args": args}
    if tracer.lnc != 1:
        kernel["lnc"] = tracer.lnc
    meta = json.dumps({"kernel": kernel, "files": tracer.files,
                       "diagnostics": [{"severity": s, "message": m, "file": f, "line": l}
                                       for s, m, f, l in tracer.diagnostics]}, separators=(",", ":")).encode("utf-8")
    text = lambda s: strings.add(s, [s])  # noqa: E731
    shapes, bufs = _Pool(), []
    for b in live:
        bufs.append(_BUFFER.pack(text(b.name), text(b.dtype), shapes.add(b.shape, b.shape), dtypes.SIZES[b.dtype],
                                 b.decl[0], b.decl[1], _MEMORY[b.memory], _ROLE[b.role], len(b.shape)))
    dims, operands, lists, locs, ints = _Pool(2), _Pool(), _Pool(), _Pool(2), _Pool()
    records = []
    for i, ins in enumerate(tracer.instrs):
        a = text(_attr_text(ins.attrs, {}, {})) if ins.attrs else NONE
        op, engine = text(ins.op), text(ins.engine)
        index = []
        for b, p0, pc, off, pat, dt in ins.dst + ins.src:
            key = (id(b), p0, pc, off, pat, dt)
            if key not in operands.at:
                begin = dims.add(pat, [x for d in pat for x in d])
                has = p0 >= 0
                operands.add(key, [_OPERAND.pack(off, b.id, begin, text(dt), p0 if has else 0, pc if has else 1,
                                                 len(pat), has)])
            index.append(operands.at[key])
        lb = lists.add(tuple(index), index)
        lc = locs.add(ins.loc, [x for fl in ins.loc for x in fl])
        ib = ints.add((ins.iter, ins.pid), list(ins.iter) + list(ins.pid))
        records.append(_INSTR.pack(ins.elements, ins.nbytes, i, op, engine, a, lb, lc, ib, len(ins.dst),
                                   len(ins.src), len(ins.loc), len(ins.iter), len(ins.pid)))
    blobs = [s.encode("utf-8") for s in strings.items]
    offsets = [0]
    for blob in blobs:
        offsets.append(offsets[-1] + len(blob))
    sections = [
        _section(b"META", 0, 1, meta),
        _section(b"BUFS", _BUFFER.size, len(live), b"".join(bufs)),
        _section(b"SHPE", 8, len(shapes.items), struct.pack(f"<{len(shapes.items)}q", *shapes.items)),
        _section(b"DIMS", 16, len(dims.items) // 2, struct.pack(f"<{len(dims.items)}q", *dims.items)),
        _section(b"OPND", _OPERAND.size, len(operands.items), b"".join(operands.items)),
        _section(b"OPLS", 4, len(lists.items), struct.pack(f"<{len(lists.items)}I", *lists.items)),
        _section(b"LOCS", 8, len(locs.items) // 2, struct.pack(f"<{len(locs.items)}I", *locs.items)),
        _section(b"INTS", 4, len(ints.items), struct.pack(f"<{len(ints.items)}i", *ints.items)),
        _section(b"INST", _INSTR.size, len(records), b"".join(records)),
        _section(b"STRS", 0, len(strings.items), struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blobs)),
    ]
    return _HEADER.pack(MAGIC, FORMAT_VERSION, IR_VERSION, len(sections)) + b"".join(sections)
