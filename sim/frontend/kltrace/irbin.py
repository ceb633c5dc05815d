"""Writes the Kernel IR in its compact binary form (docs/kernel-ir.md, "Binary form").

The binary form carries exactly what the JSON form carries, but every repeated part is pooled once:
operands, operand lists, source locations, loop indices and attribute objects. An instruction is one
fixed-size record of indices into those pools, so neither side builds a dictionary per instruction and the
C++ reader needs no parser on the hot path.
"""
import json
import struct
from array import array
from itertools import chain, islice

from . import dtypes, irblock, replay
from .irjson import IR_VERSION, _attr_text
from .irrecords import (_BUFFER, _HEADER, _INSTR, _MEMORY, _OPERAND, _ROLE, _SECTION, FORMAT_VERSION, MAGIC, NONE,
                        little_endian)


class _Strings:
    """The string table: index per distinct string, in first-use order (deterministic output)."""

    def __init__(self):
        self.index = {}
        self.items = []

    def get(self, s):
        i = self.index.get(s)
        if i is None:
            i = self.index[s] = len(self.items)
            self.items.append(s)
        return i

    def payload(self):
        blobs = [s.encode("utf-8") for s in self.items]
        offsets = [0]
        for b in blobs:
            offsets.append(offsets[-1] + len(b))
        return struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blobs)


def _section(tag, record_size, count, payload):
    """The section as a list of bytes objects (header, payload pieces, padding), joined once by render: copying a
    payload of megabytes into a section and the sections into the file touches fresh memory each time, and the
    page faults of those copies cost as much as writing the records."""
    parts = payload if type(payload) is list else [payload]
    size = sum(map(len, parts))
    pad = (-size) % 8
    return [_SECTION.pack(tag, record_size, count, size + pad), *parts, b"\0" * pad]


def render(tracer, kernel_name, api, args):
    """The IR as bytes."""
    return b"".join(render_parts(tracer, kernel_name, api, args))


def render_parts(tracer, kernel_name, api, args):
    """The IR as a list of bytes-like pieces in file order. The front end writes them one after another
    (cli.write_output): joining them first would copy the whole file into memory touched for the first time."""
    blocks = tracer.blocks
    firsts = _number(tracer.buffers, blocks)
    strings = _Strings()
    kernel = {"name": kernel_name, "file": 0, "api": api, "grid": list(tracer.grid), "args": args}
    if tracer.lnc != 1:  # absent for one core: a single-core IR stays byte-identical
        kernel["lnc"] = tracer.lnc
    meta = json.dumps({"kernel": kernel,
                       "files": tracer.files,
                       "diagnostics": [{"severity": s, "message": m, "file": f, "line": l}
                                       for s, m, f, l in tracer.diagnostics]},
                      separators=(",", ":")).encode("utf-8")
    buffers, nbufs, shapes = _buffers(tracer.buffers, blocks, strings)
    pools = _Pools(strings)
    instrs, ninstrs = pools.instructions(tracer, firsts)
    sections = [
        _section(b"META", 0, 1, meta),
        _section(b"BUFS", _BUFFER.size, nbufs, buffers),
        _section(b"SHPE", 8, len(shapes), struct.pack(f"<{len(shapes)}q", *shapes)),
        _section(b"DIMS", 16, len(pools.dims) // 2, struct.pack(f"<{len(pools.dims)}q", *pools.dims)),
        _section(b"OPND", _OPERAND.size, pools.n_operands, pools.operands),
        _section(b"OPLS", 4, len(pools.lists), little_endian(pools.lists)),
        _section(b"LOCS", 8, len(pools.locs) // 2, struct.pack(f"<{len(pools.locs)}I", *pools.locs)),
        _section(b"INTS", 4, len(pools.ints), little_endian(pools.ints)),
        _section(b"INST", _INSTR.size, ninstrs, instrs),
        _section(b"STRS", 0, len(strings.items), strings.payload()),
    ]
    return list(chain([_HEADER.pack(MAGIC, FORMAT_VERSION, IR_VERSION, len(sections))], *sections))


def _number(buffers, blocks):
    """Give every live buffer its id in the order plain tracing makes them: a block's buffers (which exist only
    as their template's) take the ids between the buffers before and after it. Returns per block the id of its
    first written buffer."""
    n = 0
    pos = 0
    firsts = []
    for blk in blocks:
        for b in buffers[pos:blk.bstart]:
            if not b.dropped:
                b.id = n
                n += 1
        pos = blk.bstart
        firsts.append(n)
        n += blk.count * replay.live(buffers, blk)
    for b in buffers[pos:]:
        if not b.dropped:
            b.id = n
            n += 1
    return firsts


def _buffers(buffers, blocks, strings):
    """(BUFS payload, record count, SHPE values); a block's buffers repeat its template's records."""
    shapes = []
    shape_at = {}
    out = bytearray()
    pack = _BUFFER.pack
    size = _BUFFER.size
    # A record holds no buffer id: the many tiles a loop makes with one name, shape and line share it.
    records = {}
    n = 0
    pos = 0
    ends = [(blk.bstart, blk) for blk in blocks] + [(len(buffers), None)]
    for stop, blk in ends:
        for b in buffers[pos:stop]:
            if b.dropped:
                continue
            key = (b.name, b.dtype, b.shape, b.decl, b.memory, b.role)
            rec = records.get(key)
            if rec is None:
                begin = shape_at.get(b.shape)
                if begin is None:
                    begin = shape_at[b.shape] = len(shapes)
                    shapes.extend(b.shape)
                rec = records[key] = pack(strings.get(b.name), strings.get(b.dtype), begin, dtypes.SIZES[b.dtype],
                                          b.decl[0], b.decl[1], _MEMORY[b.memory], _ROLE[b.role], len(b.shape))
            out += rec
            n += 1
        pos = stop
        if blk is not None:
            # The template iteration's buffers, its inner blocks' included, are the last ones written.
            live = replay.live(buffers, blk)
            out += out[len(out) - live * size:] * blk.count
            n += live * blk.count
    return out, n, shapes


def _number_made(bufs, n):
    """Number the buffers replay.flatten made (id -1) among the tracer's in a flat template whose first live buffer
    has id n, as _number numbered the iterations they stand for."""
    for b in bufs:
        if not b.dropped:
            if b.id == -1:
                b.id = n
            n = b.id + 1


class _Pools:
    """The pooled parts of instructions, each distinct value stored once and referred to by index."""

    def __init__(self, strings):
        self.strings = strings
        self.dims = []       # stride, count, stride, count, ...
        self.operands = []   # packed operand records (a block adds several in one bytes object)
        self.n_operands = 0
        self.lists = array("I")  # operand indices; an instruction's dsts then srcs are consecutive
        self.locs = []       # file, line, file, line, ...
        self.ints = array("i")   # iteration values then pid values
        self.records = []    # packed instruction records (a block adds several in one bytes object)
        self.pattern_at = {}
        self.operand_at = {}
        self.list_at = {}
        self._loc_at = {}
        self._ints_at = {}
        # Identity caches: attribute dicts and location tuples are mostly shared objects (every one stays alive in
        # its instruction while rendering), and hashing them by value is what costs. Operands are not: most are
        # made for one instruction, so they are looked up by value only.
        self.attr_ids = {}
        self.heads = {}
        self.loc_ids = {}
        self._attr_cache = {}
        self._plain_types = {}
        self._made = []

    def operand(self, ap):
        i = self.operand_at.get(ap)
        if i is None:
            b, p0, pc, off, pat, dt = ap
            has_part = p0 >= 0
            i = self.operand_at[ap] = self.n_operands
            self.n_operands += 1
            self.operands.append(_OPERAND.pack(off, b.id, self.pattern(pat), self.strings.get(dt),
                                               p0 if has_part else 0, pc if has_part else 1, len(pat), has_part))
        return i

    def pattern(self, pat):
        begin = self.pattern_at.get(pat)
        if begin is None:
            begin = self.pattern_at[pat] = len(self.dims) // 2
            for s, c in pat:
                self.dims.append(s)
                self.dims.append(c)
        return begin

    def loc(self, loc):
        lb = self.loc_ids.get(id(loc))
        if lb is None:
            lb = self._loc_at.get(loc)
            if lb is None:
                lb = self._loc_at[loc] = len(self.locs) // 2
                for f, l in loc:
                    self.locs.append(f)
                    self.locs.append(l)
            self.loc_ids[id(loc)] = lb
        return lb

    def iter_pid(self, it, pid):
        key = (it, pid)
        begin = self._ints_at.get(key)
        if begin is None:
            begin = self._ints_at[key] = len(self.ints)
            self.ints.extend(it)
            self.ints.extend(pid)
        return begin

    def iter_pids(self, prefix, values, pid, suffixes=((),)):
        """iter_pid of (prefix + (v,) + x, pid) for every v in values and, per v, every x in suffixes (the values of
        a nested loop's inner loops), in that order; when none was used before (the usual case) they are added in
        one piece."""
        keys = [(prefix + (v,) + x, pid) for v in values for x in suffixes]
        n = len(keys)
        if list(map(self._ints_at.get, keys)).count(None) != n or len(set(keys)) != n:
            return [self.iter_pid(it, p) for it, p in keys]
        if len(suffixes) != 1:
            flat = []
            for it, p in keys:
                flat.extend(it)
                flat.extend(p)
            begins = []
            at = len(self.ints)
            for it, p in keys:
                begins.append(at)
                at += len(it) + len(p)
        else:
            x = suffixes[0]
            w = len(prefix) + 1 + len(x) + len(pid)
            flat = [0] * (w * n)
            for k, v in enumerate(prefix):
                flat[k::w] = [v] * n
            flat[len(prefix)::w] = values
            for k, v in enumerate(x + pid):
                flat[len(prefix) + 1 + k::w] = [v] * n
            begins = range(len(self.ints), len(self.ints) + w * n, w)
        self.ints.extend(flat)
        self._ints_at.update(zip(keys, begins))
        return begins

    def head(self, ins):
        """(op, engine, attrs) string indices of an instruction."""
        attrs = ins.attrs
        if attrs:
            a = self.attr_ids.get(id(attrs))  # matmul attrs dicts are shared (ops.mm_attrs)
            if a is None:
                a = self.attr_ids[id(attrs)] = self.strings.get(_attr_text(attrs, self._plain_types,
                                                                            self._attr_cache))
        else:
            a = NONE
        h = self.heads.get((ins.op, ins.engine))
        if h is None:
            h = self.heads[(ins.op, ins.engine)] = (self.strings.get(ins.op), self.strings.get(ins.engine))
        return h[0], h[1], a

    def instructions(self, tracer, firsts):
        """(INST payload as a list of bytes objects, record count); the replicated iterations of tracer.blocks
        (replicate.py) are written from their template as blocks when irblock can vouch for them, made into objects
        and written record by record otherwise (the bytes are the same either way). `firsts`: per block the id of
        its first written buffer (_number)."""
        instrs, buffers = tracer.instrs, tracer.buffers
        pos = 0
        shift = 0  # records of blocks written so far: a traced record's id is its index plus this
        for blk, first in zip(tracer.blocks, firsts):
            self._records(instrs, pos, blk.start, shift)
            pos = blk.start
            tmpl, bufs, flat = replay.flatten(tracer, blk) if blk.inner else (instrs, buffers, blk)
            if blk.inner:
                _number_made(bufs, first - replay.live(buffers, blk))
                self._made.append(tmpl)
            if not irblock.write(self, tmpl, bufs, flat, blk.start + shift):
                self._replay(tmpl, bufs, flat, blk.start + shift)
            shift += flat.q * blk.count
        self._records(instrs, pos, len(instrs), shift)
        return self.records, len(instrs) + shift

    def _replay(self, instrs, buffers, blk, first_id):
        """A block written from objects made for it, its buffers numbered as _number numbered them."""
        made, bufs = [], []
        replay.write_iterations(instrs[blk.ta:blk.ta + blk.q], blk.slots, blk.producers, blk.fresh, blk.step,
                                blk.prefix, blk.values, made, bufs)
        ids = [b.id for b in buffers[blk.bstart - blk.nb:blk.bstart] if not b.dropped]
        n = ids[-1] + 1 if ids else -1
        for b in bufs:
            if not b.dropped:
                b.id = n
                n += 1
        self._made.append(made)  # alive while rendering: the identity caches hold id()s of its operands
        self._records(made, 0, len(made), first_id)

    def _records(self, instrs, first, stop, shift):
        pack = _INSTR.pack
        append = self.records.append
        list_get = self.list_at.get
        list_at = self.list_at
        lists = self.lists
        operand = self.operand
        operand_get = self.operand_at.get
        loc_get = self.loc_ids.get
        attr_get = self.attr_ids.get
        head_get = self.heads.get
        ints_at = self._ints_at
        ints_get = ints_at.get
        ints = self.ints
        last_it = last_pid = None
        ib = 0
        for i, ins in enumerate(islice(instrs, first, stop), first + shift):
            attrs = ins.attrs
            a = attr_get(id(attrs), NONE) if attrs else NONE
            head = head_get((ins.op, ins.engine))
            if head is None or a is NONE and attrs:
                o, e, a = self.head(ins)
            else:
                o, e = head
            dst, src = ins.dst, ins.src
            # Operand indices by value: most operands are new objects (views made for one instruction), so an
            # identity cache in front of the pool missed for nearly all of them on the matmul examples.
            key = []
            for ap in dst:
                k = operand_get(ap)
                key.append(operand(ap) if k is None else k)
            for ap in src:
                k = operand_get(ap)
                key.append(operand(ap) if k is None else k)
            key = tuple(key)
            lb = list_get(key)
            if lb is None:
                lb = list_at[key] = len(lists)
                lists.extend(key)
            loc = ins.loc
            locb = loc_get(id(loc))
            if locb is None:
                locb = self.loc(loc)
            it, pid = ins.iter, ins.pid
            if it is not last_it or pid is not last_pid:
                last_it, last_pid = it, pid
                ints_key = (it, pid)
                ib = ints_get(ints_key)
                if ib is None:  # iter_pid, inlined: a loop's every iteration has new values
                    ib = ints_at[ints_key] = len(ints)
                    ints.extend(it)
                    ints.extend(pid)
            append(pack(ins.elements, ins.nbytes, i, o, e, a, lb, locb, ib, len(dst), len(src), len(loc), len(it),
                        len(pid)))
