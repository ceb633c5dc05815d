"""Loop replication: trace a few iterations of a kernel loop and write the others from them.

The IR of a replicated loop is exactly what plain tracing gives, or the loop is traced plainly. A loop is a
candidate when its body passes the static reading of loopcheck.py (straight-line, affine integer arithmetic
only, inner loops with fixed ranges) and it has at least MIN_TRIPS iterations (MIN_NESTED with inner loops,
which then replicate inside its iterations, or run plainly there: see _Replicator.holds). Then:

  iterations 0..3   run normally; unless every call of the body was resolved to front-end code when the loop
                    started (loopcalls.py), in iteration 1 a profile hook watches that only front-end code is
                    called (no kernel helper, no builtin called by the kernel: list.append, min, ...), and at each
                    iteration's end the run-time conditions are checked: carried names keep their object, subscripted
                    names hold tensors, no inner loop it does not hold started, no placement arena;
  decide            iterations 1, 2 and 3 must record the same instructions and new buffers up to operand
                    partition starts and offsets that grow by a constant step, reference only buffers made
                    before the loop or in the same iteration, and leave the tracer's state and the flags of
                    the buffers they touch unchanged (iteration 0 may differ: first-use effects);
  decide early      (EARLY) already after iteration 2, with iterations 0, 1 and 2 in the roles of 1, 2 and 3, when
                    iteration 0 passes the same checks: its records on the line of the others', the tracer's
                    state at its end as at theirs. That is as much evidence as the later decision: three
                    iterations that agree, two of them starting and ending in the same state (so every later one
                    starts there), and the last one checked against the prediction. A first-use effect of
                    iteration 0 (a PSUM tile's zeros written, a buffer's flag set) fails it, and the decision
                    waits for iteration 3 as before;
  last iteration    runs next, out of order (watched by the hook if iteration 1 was), and must match the prediction;
                    only then are iterations w..n-2 (w = 4, or 3 when decided early) kept as a block (replay.Block:
                    iteration w-1 plus their steps, not made into objects) placed before it; the blocks of inner loops
                    replicated in iteration w-1 become its inner blocks (nested: no inner iteration is made into
                    objects while tracing; the writers repeat them, replay.flatten).
                    Running the last one for real leaves the kernel's Python state (the loop variable, the tiles
                    bound in the body) exactly as plain execution leaves it.
  otherwise         the last iteration's records are rolled back (the front end's state is restored from a
                    snapshot) and iterations w..n-1 run in order, plainly.

An exception raised by the out-of-order last iteration ends the trace as it would have in plain tracing,
although plain tracing may have met it in an earlier iteration (the same statement; index values in the
message may differ; an access past the buffer's end is foreseen and such loops are traced plainly). A loop
that a `try` or `with` encloses, in its frame or a caller's, is traced plainly: a handled exception would
otherwise leave out the iterations plain tracing records before it. KL_TRACE_REPLICATE=0 (or the CLI's
--no-replicate) turns replication off.
"""
import dis
import os
import sys
from itertools import chain, compress, count, repeat
from operator import add, attrgetter, itemgetter, mul, or_, sub

from .loopcalls import FRONTEND, calls_checked, spellings
from .loopcheck import loop_shape
from .loopstate import (TENSOR_SLOTS, agreed_spans, before_template, block_key, buffer_slots, describe_buffers,
                        every_slot, places, restore, restore_buffer, same_fields, tensor_slots, unagreed_records,
                        unagreed_slots, value_key)
from .replay import Block, records
from .tracer import T
from .views import INDIRECT_SEEN, Tensor, _pending

WARMUP = 4
# Iterations traced before the decision when iteration 0 is already like the ones after it (no first-use effect:
# the same records up to the steps, and the tracer's state at its end as at theirs): iterations 0, 1 and 2 then
# serve as iterations 1, 2 and 3 do otherwise, and a loop of 8 trips traces 4 of them, not 5. KL_TRACE_REPLICATE_EARLY=0
# turns it off (tests show what it saves).
EARLY = 3 if os.environ.get("KL_TRACE_REPLICATE_EARLY", "1") != "0" else WARMUP
# The checks of one loop cost about as much as a dozen plain iterations: shorter loops are traced plainly.
# KL_TRACE_REPLICATE_MIN_TRIPS lowers it for tests, so that small kernels exercise replication too.
MIN_TRIPS = max(WARMUP + 2, int(os.environ.get("KL_TRACE_REPLICATE_MIN_TRIPS", "16") or 16))
# A loop whose body holds inner loops (loopcheck: nested) has many records per iteration, so the checks pay off
# from fewer iterations. Its inner loops replicate inside its iterations (their blocks are part of the iteration),
# unless the outer loop is watched by the profile hook: then they run plainly inside it, unless one has INNER_OWN
# iterations or more (that one is replicated on its own and the outer loop traced plainly, as the inner loop
# saves more). Past NESTED_MAX traced records in one outer iteration the outer loop is traced plainly (a template
# that large costs more to check than the iterations it saves).
MIN_NESTED = WARMUP + 2
INNER_OWN = 32
NESTED_MAX = 8192
# Iterations watched by the profile hook (the last one too). The body is straight-line code, so every
# iteration makes the same calls; watching each one would cost more than replication saves.
WATCHED = 1
# How an inner loop runs in a replicating loop's iteration (_Replicator.holds). KL_TRACE_REPLICATE_INNER=0 keeps
# inner loops from replicating inside one (tests measure what the inner replication saves).
ABORT, PLAIN, INSIDE = 0, 1, 2
INNER = os.environ.get("KL_TRACE_REPLICATE_INNER", "1") != "0"


_FRONTEND = FRONTEND
_MISSING = object()
_BUF_OF = itemgetter(0)
_OPERAND_LISTS = attrgetter("dst", "src")
_chain_all = chain.from_iterable
_PRODUCER_OF = attrgetter("producer")
# Figures for benchmarks and tests (not in the IR): loops replicated, iterations written, roll-backs.
# records: instructions written from templates (not traced).
# early: loops decided after EARLY iterations.
STATS = {"loops": 0, "iterations": 0, "rolled_back": 0, "nested": 0, "records": 0, "early": 0}


def iterate(r, depth, frame):
    """The loop values of range r at loop depth `depth` (a generator, as TracedRange.__iter__ is), or None
    when this loop is not a candidate."""
    if len(r) < MIN_NESTED or not T.replicate or T.values or T.arenas or sys.getprofile() is not None:
        return None
    if not _kernel_file(frame.f_code.co_filename):
        return None  # a loop inside the front end itself (fori_loop) or a library
    shape = loop_shape(frame)
    if shape is None or (len(r) < MIN_TRIPS and not shape.nested) or _may_be_caught(frame):
        return None
    return _run(_Replicator(frame, shape, r, depth), r, depth)


def _may_be_caught(frame):
    """Whether an exception leaving the loop could be handled by a `try` (or `with`) around it in this frame or a
    caller's: the out-of-order last iteration could then raise where plain tracing would have recorded the
    iterations before the failing one and carried on."""
    f = frame
    stop = T.stop_code
    while f is not None and f.f_code is not stop and f.f_code.co_filename not in _RUNNER:
        code = f.f_code
        spans = _handlers.get(code)
        if spans is None:
            spans = _handlers[code] = tuple((e.start, e.end) for e in dis._parse_exception_table(code))
        lasti = f.f_lasti
        for start, end in spans:
            if start <= lasti < end:
                return True
        f = f.f_back
    return False


_handlers = {}  # code -> (start, end) byte offsets its exception handlers cover
_RUNNER = spellings(os.path.join(os.path.dirname(__file__), "runner.py"))


def _kernel_file(filename):
    """T.file_id(filename) >= 0 without registering the file: `files` must list only what plain tracing lists,
    in its order."""
    fid = T._file_ids.get(filename)
    if fid is not None:
        return fid >= 0
    kd = T.kernel_dir
    return bool(kd) and filename.startswith(kd) and filename.endswith(".py")


def _run(rep, r, depth):
    t = T
    iters = t.iters
    n = len(r)
    t.replicator = rep
    i = 0
    try:
        while i < n:
            v = r[i]
            iters[depth] = v
            t.iter_tuple = tuple(iters)
            if not rep.active:
                yield v
                i += 1
                continue
            rep.begin(i)
            if i == WATCHED and rep.watch:
                sys.setprofile(rep.hook)
                yield v
                sys.setprofile(None)
            else:
                yield v
            rep.end(i)
            if rep.active and (i == EARLY - 1 or i == WARMUP - 1):
                if rep.decide(i + 1):
                    v = r[n - 1]
                    iters[depth] = v
                    t.iter_tuple = tuple(iters)
                    rep.begin_last()
                    if rep.watch:
                        sys.setprofile(rep.hook)
                    yield v
                    if rep.watch:
                        sys.setprofile(None)
                    if rep.finish_last():
                        STATS["loops"] += 1
                        STATS["nested"] += rep.shape.nested
                        STATS["iterations"] += n - 1 - rep.warm
                        STATS["early"] += rep.warm < WARMUP
                        return
                    STATS["rolled_back"] += 1
                    rep.rollback()
                    rep.give_up()
                elif i == WARMUP - 1:
                    rep.give_up()
            i += 1
    finally:
        if sys.getprofile() == rep.hook:
            sys.setprofile(None)
        if t.replicator is rep:
            t.replicator = rep.parent


class _Replicator:
    """The records, snapshots and decision for one run of one loop (see the module comment)."""

    def __init__(self, frame, shape, r, depth):
        self.frame = frame
        self.parent = T.replicator  # the replicating loop this one runs in (an iteration of it), or None
        self.shape = shape
        self.r = r
        self.depth = depth
        self.active = True
        self.bad = False
        self.local = None
        self.marks = []      # (instruction start, buffer start, block start) per iteration, then of the last one
        self.ends = []       # (instruction end, buffer end, block end) per iteration
        self.carried0 = None
        self.loop_ids = set()
        self.fresh = []      # per iteration: {id(buffer): index among the iteration's new buffers}
        self.states = []     # per iteration: the steady-state snapshot at its end
        self.buf_slots = []  # per iteration: the slots of its new buffers at its end
        # id(attrs or ranges) -> (it, value_key of it), shared with the replicating loops around this one (the same
        # attribute objects recur in every inner loop's run: matmul_optimized's 64 M-tile loops)
        self.keys = self.parent.keys if self.parent is not None else {}
        self.pre = {}        # iteration -> _pre_loop of it, once it has ended
        self.descs = {}      # iteration -> _describe of it, once decide has asked
        self.watch = not calls_checked(frame, shape)  # whether the profile hook watches iteration 1 and the last

    def hook(self, frame, event, arg):
        if event == "call" or event == "c_call":
            if not frame.f_code.co_filename.startswith(_FRONTEND):
                self.bad = True  # kernel code called (a helper, a builtin): anything may happen there

    def holds(self, frame, trips):
        """How an inner loop starting in `frame` with `trips` iterations runs in this loop's iteration: INSIDE
        (replicated on its own if it can, as a top-level loop would be: the iteration then holds its block),
        PLAIN, or ABORT (the caller aborts this loop: see INNER_OWN and NESTED_MAX). A watched loop holds inner
        loops only plainly: the profile hook cannot watch an inner replication (iteration 1 would differ)."""
        if not (self.active and self.shape.nested and frame is self.frame
                and len(T.instrs) - self.marks[-1][0] <= NESTED_MAX):
            return ABORT
        if INNER and not self.watch:
            return INSIDE
        return PLAIN if trips < INNER_OWN else ABORT

    def abort(self):
        """An inner loop this loop does not hold starts in the body: this loop is traced plainly (the inner one
        may replicate, inside the loop around this one if that one is replicating)."""
        self.bad = True
        if sys.getprofile() == self.hook:
            sys.setprofile(None)
        T.replicator = self.parent

    def give_up(self):
        self.active = False
        self.frame = self.local = None
        self.fresh = self.states = self.buf_slots = self.descs = None

    # ------------------------------------------------------------------ per iteration
    def begin(self, i):
        if i == 0:
            self._sync()
            self.carried0 = tuple(self._lookup(n) for n in self.shape.carried)
            if any(v is _MISSING for v in self.carried0):  # not `in`: `==` on a tensor records an op
                self.give_up()
        self.marks.append((len(T.instrs), len(T.buffers), len(T.blocks)))
        T.marked = len(T.buffers)

    def end(self, i):
        if not self.active:
            return
        self._sync()
        if self.bad or not self._names_ok():
            self.give_up()
            return
        a, c, _ = self.marks[i]
        e, d = len(T.instrs), len(T.buffers)
        self.ends.append((e, d, len(T.blocks)))
        T.marked = d
        bufs = T.buffers[c:d]
        self.fresh.append(places(bufs))
        self.loop_ids.update(map(id, bufs))
        # Iteration 0 may differ from the others (first-use effects): without EARLY only its new buffers are needed.
        keep = i or EARLY < WARMUP
        # The inner loops' agreed iterations' buffers are left out (unagreed_slots); the template's are filled in at
        # the decision, which runs right after its end.
        if not keep:
            self.buf_slots.append(None)
        elif self.ends[i][2] == self.marks[i][2]:  # no inner block: no agreed iteration
            self.buf_slots.append(list(map(buffer_slots, bufs)))
        else:
            kb, ke = self.marks[i][2], self.ends[i][2]
            self.buf_slots.append(unagreed_slots(T.buffers, c, d, agreed_spans(T.blocks[kb:ke], a)))
        self.states.append(self._state(i) if keep else None)

    def _sync(self):
        """Read the loop frame's variables once per check (f_locals rebuilds its dict on every access)."""
        self.local = self.frame.f_locals

    def _lookup(self, name, local=None):
        v = (local if local is not None else self.local).get(name, _MISSING)
        if v is _MISSING:
            v = self.frame.f_globals.get(name, _MISSING)
        return v

    def _names_ok(self):
        """Carried names still hold their objects (identity: `==` on tensors would record an operation),
        subscripted names hold tensors, and no `t[...] = nl.load(...)` is half done."""
        if _pending[0] is not None:
            return False
        local = self.local
        for name, was in zip(self.shape.carried, self.carried0):
            if self._lookup(name, local) is not was:
                return False
        return all(isinstance(self._lookup(n, local), Tensor) for n in self.shape.tensor_names)

    def _pre_loop(self, i):
        """Buffers made before the loop that iteration i touches, in a deterministic order. Kept once the
        iteration has ended: later iterations cannot add to it, and the carried tensors keep their objects."""
        done = self.pre.get(i)
        if done is not None:
            return done
        a, _, kb = self.marks[i]
        e, _, ke = self.ends[i] if i < len(self.ends) else (len(T.instrs), 0, len(T.blocks))
        loop_ids = self.loop_ids
        # Every operand's buffer in record order (dsts, then srcs), each once, in C code: a nested loop's iteration
        # holds its inner loops' records, so this runs over every traced record once per level around it. Buffers
        # hash by identity, so the dict keeps the first use of each as the per-operand loop did.
        instrs = unagreed_records(T.instrs, a, e, T.blocks[kb:ke]) if kb != ke else T.instrs[a:e]
        used = dict.fromkeys(map(_BUF_OF, _chain_all(_chain_all(map(_OPERAND_LISTS, instrs)))))
        if self.shape.carried:
            used.update(dict.fromkeys(v.buf for v in self._tensors()))
        out = [b for b in used if id(b) not in loop_ids]
        if i < len(self.ends):
            self.pre[i] = out
        return out

    def _tensors(self):
        return [v for v in map(self._lookup, self.shape.carried) if isinstance(v, Tensor)]

    def _state(self, i):
        """What must not change from one iteration to the next: the tracer's counters and the touched
        buffers made before the loop (and the tensors the body carries)."""
        t = T
        pre = self._pre_loop(i)
        return ((len(t.diagnostics), len(t._warned), len(t.api_seen), t.shared_ordinal, len(t.shared_allocs),
                 len(t.arenas), len(t.stand_ins), INDIRECT_SEEN[0], t.nc_version),
                tuple(map(id, pre)), tuple(map(buffer_slots, pre)), tuple(map(id, map(_PRODUCER_OF, pre))),
                tuple(map(tensor_slots, self._tensors())))

    # ------------------------------------------------------------------ the decision
    def decide(self, warm):
        """Whether the last `warm` - 3 .. `warm` - 1 iterations traced (1, 2, 3, or 0, 1, 2 when EARLY) agree, so
        that the last iteration runs next and the ones between are written from iteration `warm` - 1."""
        f = warm - 3
        d1 = self._described(f)
        if d1 is None:
            return False
        d2 = self._described(f + 1)
        d3 = self._described(f + 2)
        if d2 is None or d3 is None:
            return False
        states = self.states
        if not (d1[0] == d2[0] == d3[0]) or not (states[f] == states[f + 1] == states[f + 2]):
            return False
        slots = self.buf_slots
        if not same_fields(slots[f], slots[f + 1], slots[f + 2]):
            return False
        step = list(map(sub, d3[1], d2[1]))
        if step != list(map(sub, d2[1], d1[1])):
            return False
        self.static = d3[0]
        self.base = d3[1]
        self.step = step
        self.warm = warm
        if not self._last_in_bounds():
            return False
        a, c, kb = self.marks[warm - 1]
        _, d, ke = self.ends[warm - 1]
        if kb == ke:  # no inner block: every buffer was read
            self.template_slots = slots[warm - 1]
        else:
            self.template_slots = every_slot(T.buffers, c, d, agreed_spans(T.blocks[kb:ke], a), slots[warm - 1])
        return True

    def _described(self, i):
        """_describe(i), kept: when the early decision fails, iterations 1 and 2 are compared again with 3 (a later
        iteration cannot change what an earlier one referenced)."""
        d = self.descs.get(i, _MISSING)
        if d is _MISSING:
            d = self.descs[i] = self._describe(i)
        return d

    def _last_in_bounds(self):
        """Whether every operand that moves stays inside its buffer in the last iteration. The last iteration
        runs before the ones between, so an access it makes out of bounds would be reported with its own
        indices where plain tracing reports an earlier iteration's: such loops are traced plainly. (An
        access that leaves an inner dimension but stays inside the buffer is not caught here.)"""
        a = self.marks[self.warm - 1][0]
        e = self.ends[self.warm - 1][0]
        m = len(self.r) - self.warm
        step = self.step
        aps = _chain_all(_chain_all(map(_OPERAND_LISTS, T.instrs[a:e])))  # dsts then srcs, as the steps are
        dps, dos = step[0::2], step[1::2]
        for ap, dp, do in compress(zip(aps, dps, dos), map(or_, dps, dos)):  # the operands that move
            b, p0, pc, off, pat = ap[0], ap[1] + m * dp, ap[2], ap[3] + m * do, ap[4]
            span = 0
            for st, c in pat:
                span += (c - 1) * st
            if off < 0 or p0 < -1:
                return False
            if b.memory == "hbm":
                n = 1
                for d in b.shape:
                    n *= d
                if off + span >= n:
                    return False
            elif (b.shape and p0 + pc > b.shape[0]) or off + span >= b.pstride * max(1, b.shape[0] if b.shape else 1):
                return False
        return True

    def _describe(self, i, last=False):
        """(everything that must be equal, the integers that may step) of iteration i's records.

        The records of inner loops' iterations that their own decision found equal to their template, up to the
        steps (replay.Block.agreed), are described by the template and the block's key here (loopstate.agreed_spans),
        and their integers that may step are the template's plus whole steps (Block.base, Block.step): their records
        are not read. matmul_optimized's records were otherwise described once per replicating loop around them
        (3 levels); this reads 4,800 of its 7,900."""
        a, c, kb = self.marks[i]
        e, d, ke = self.ends[i] if not last else (len(T.instrs), len(T.buffers), len(T.blocks))
        fresh = self.fresh[i] if not last else places(T.buffers[c:d])
        value = self.r[i if not last else len(self.r) - 1]
        instrs = T.instrs[a:e]
        blocks = T.blocks[kb:ke]
        spans = agreed_spans(blocks, a) if blocks else ()
        static = [d - c, e - a, tuple(sp[:2] for sp in spans) if spans else ()]
        dyn = []
        done = 0
        for s, t, blk in spans:
            if not self._describe_records(instrs[done:s], value, fresh, static, dyn):
                return None
            dyn += before_template(blk.base, blk.step, (t - s) // blk.q)
            done = t
        if not self._describe_records(instrs[done:], value, fresh, static, dyn):
            return None
        index = dict(zip(map(id, instrs), count()))
        # The new buffers of the agreed iterations are described by the template's, as their records are: their
        # producers are the template's records' counterparts (or the same older record) and their inner decision
        # checked their `rap`. They lie just before the template's (Block: bstart - nb .. bstart).
        done = c
        bufs = T.buffers
        for s, t, blk in spans:
            first = blk.bstart - blk.nb * (1 + (t - s) // blk.q)
            if not describe_buffers(bufs[done:first], index, static):
                return None
            static.append(("agreed", first - c))
            done = blk.bstart - blk.nb
        if not describe_buffers(bufs[done:d], index, static):
            return None
        for blk in blocks:  # inner loops replicated inside the iteration (their templates are in `instrs`)
            key = block_key(blk, a, c, self.depth, value, index)
            if key is None:
                return None
            static.append(key)
        return static, dyn

    def _describe_records(self, instrs, value, fresh, static, dyn):
        """_describe's per-record part: appends each record's description to `static` and its integers that may step
        to `dyn`; False when the records cannot be compared (see _describe)."""
        depth = self.depth
        loop_ids = self.loop_ids
        keys = self.keys
        fget = fresh.get
        for ins in instrs:
            it = ins.iter
            if len(it) <= depth or it[depth] != value:
                return False
            attrs = ins.attrs
            if attrs is not None:
                got = keys.get(id(attrs))
                if got is None or got[0] is not attrs:  # held in the entry, so its id is not reused
                    got = keys[id(attrs)] = (attrs, value_key(attrs))
                attrs = got[1]
            ranges = ins.ranges
            if ranges is not None:
                got = keys.get(id(ranges))
                if got is None or got[0] is not ranges:
                    got = keys[id(ranges)] = (ranges, value_key(ranges))
                ranges = got[1]
            if attrs is None and ins.attrs is not None or ranges is None and ins.ranges is not None:
                return False
            ops = []
            for aps in (ins.dst, ins.src):
                for ap in aps:
                    b = id(ap[0])
                    k = fget(b)
                    if k is None:
                        if b in loop_ids:
                            return False  # a buffer of another iteration
                    else:
                        b = -1 - k  # a new buffer of the iteration, by its place (ids are positive)
                    ops += (b, ap[2], ap[4], ap[5])
                    dyn += (ap[1], ap[3])
            static.append((ins.op, ins.engine, attrs, ins.elements, ins.nbytes, ins.loc, it[:depth], it[depth + 1:],
                           ins.pid, ranges, len(ins.dst), tuple(ops)))
        return True

    # ------------------------------------------------------------------ the last iteration
    def begin_last(self):
        t = T
        self._sync()
        self.marks.append((len(t.instrs), len(t.buffers), len(t.blocks)))
        t.marked = len(t.buffers)
        self.saved = (len(t.diagnostics), set(t._warned), set(t.api_seen), t.shared_ordinal, len(t.shared_allocs),
                      set(t.stand_ins), INDIRECT_SEEN[0])
        keep = {}
        for i in range(self.warm):
            for b in self._pre_loop(i):
                keep[id(b)] = b
        self.saved_bufs = [(b, buffer_slots(b), b.producer) for b in keep.values()]
        self.saved_tensors = [(v, tensor_slots(v), v.checks) for v in self._tensors()]

    def finish_last(self):
        self._sync()
        if self.bad or not self._names_ok():
            return False
        last = self.warm
        desc = self._describe(last, last=True)
        if desc is None or desc[0] != self.static:
            return False
        m = len(self.r) - last
        if desc[1] != list(map(add, self.base, map(mul, self.step, repeat(m)))):
            return False
        a, c, kb = self.marks[last]
        self.ends.append((len(T.instrs), len(T.buffers), len(T.blocks)))
        T.marked = len(T.buffers)
        self.fresh.append(places(T.buffers[c:]))
        self.loop_ids.update(map(id, T.buffers[c:]))
        # Its description equals the template's, so the agreed spans' buffers lie at the same places in both.
        if kb == len(T.blocks):
            unagreed = list(map(buffer_slots, T.buffers[c:]))
        else:
            unagreed = unagreed_slots(T.buffers, c, len(T.buffers), agreed_spans(T.blocks[kb:], a))
        if not same_fields(unagreed, self.buf_slots[last - 1]):
            return False
        if self._state(last) != self.states[last - 1]:
            return False
        self._splice()
        return True

    def rollback(self):
        t = T
        a, c, _ = self.marks[self.warm]
        loop_ids = self.loop_ids | set(map(id, t.buffers[c:]))
        kept = {id(b) for b, _, _ in self.saved_bufs}
        for ins in t.instrs[a:]:
            for ap in ins.dst + ins.src:
                if id(ap[0]) not in loop_ids and id(ap[0]) not in kept:
                    from .errors import TraceError
                    raise TraceError("internal", "loop replication touched a buffer it cannot restore",
                                     "trace again with KL_TRACE_REPLICATE=0 (and please report this kernel)")
        del t.instrs[a:]
        del t.buffers[c:]
        while t.blocks and t.blocks[-1].start >= a:
            t.blocks.pop()
        nd, warned, api, ordinal, nshared, stand_ins, indirect = self.saved
        del t.diagnostics[nd:]
        t._warned = warned
        t.api_seen = api
        t.shared_ordinal = ordinal
        del t.shared_allocs[nshared:]
        t.stand_ins = stand_ins
        INDIRECT_SEEN[0] = indirect
        for b, slots, producer in self.saved_bufs:
            restore_buffer(b, slots)
            b.producer = producer
        for v, slots, checks in self.saved_tensors:
            restore(v, TENSOR_SLOTS, slots)
            v.checks = checks

    # ------------------------------------------------------------------ writing iterations 4..n-2
    def _splice(self):
        """Put iterations w..n-2 before the last one's records, as a block written from iteration w - 1 (not as
        objects: replay.Block). Inner loops that iteration w - 1 replicated keep their blocks, which the new block
        holds as its inner ones: its iterations repeat them (replay.flatten), stepping with this loop as their
        templates' records do."""
        t = T
        w = self.warm
        a, c, _ = self.marks[w]
        ta, tc, tk = self.marks[w - 1]
        te, td, tke = self.ends[w - 1]
        assert (te, td) == (a, c), "the template iteration ends where the last one begins"
        tmpl = t.instrs[ta:te]
        index = dict(zip(map(id, tmpl), count()))
        producers = [None if b.producer is None else index.get(id(b.producer), b.producer) for b in t.buffers[tc:td]]
        r = self.r
        values = [r[j] for j in range(w, len(r) - 1)]
        blk = Block(a, ta, te - ta, self.step, c, td - tc, self.fresh[w - 1], tuple(t.iters[:self.depth]), values,
                    self.template_slots, producers, tuple(t.blocks[tk:tke]), self.marks[w - 3][0], self.base)
        t.blocks.insert(tke, blk)
        STATS["records"] += records(blk) * len(values)
