"""Tests of the shortcuts replication takes at the loops around an inner loop's agreed iterations (round 7: the
pre-loop buffers found without reading those iterations' records, their buffers' fields not read at iteration ends).
test_replication.py imports the class, so that its test run and CTest's frontend.replication run them; each traces
inside.py's nested kernels in this process, the shortcut against the full reading it replaces."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
INSIDE = os.path.join(HERE, "inside.py")
ADVERSARIAL = os.path.join(HERE, "adversarial.py")
NESTED = (("two_levels", 20480), ("inner_decides_late", 20480), ("inner_result_kept_after", 20480),
          ("three_levels", 128 * 16 * 6 * 10))


def trace_inside(kernel, rows, kernel_file=INSIDE):
    """Trace an inside.py kernel (or one of kernel_file) in this process with replication on; returns the tracer."""
    import argparse
    from kltrace import cli, irbin, runner
    from kltrace.tracer import T
    ns = argparse.Namespace(task=None, kernel=kernel, kernel_file=kernel_file, arg=[f"a={rows}x64:float32"], grid=None,
                            scalar=None)
    spec = cli.build_spec(ns)
    spec.binary = True
    runner.prepare_imports()
    T.reset()  # runner.trace does not: a process traces once
    render = irbin.render
    irbin.render = lambda *args: b""
    try:
        runner.trace(spec)
    finally:
        irbin.render = render
    return T


class AgreedShortcuts(unittest.TestCase):
    """Each shortcut gives what reading every record and buffer of the iteration gives."""

    @classmethod
    def setUpClass(cls):
        front = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "sim", "frontend")
        if front not in sys.path:
            sys.path.insert(0, front)

    def test_pre_loop_buffers_without_the_agreed_records_are_the_full_scan_in_order(self):
        # _pre_loop reads the operands of every record but the inner loops' agreed iterations'
        # (loopstate.unagreed_records): the list (its order too: _state compares it as a tuple) must be what the scan
        # of every record gives.
        from kltrace import replicate
        from kltrace.tracer import T
        rep_cls = replicate._Replicator
        fast = rep_cls._pre_loop
        unagreed = replicate.unagreed_records
        seen = {"calls": 0, "skipped": 0}

        def both(rep, i):
            if i in rep.pre:
                return fast(rep, i)
            a, _, kb = rep.marks[i]
            e, _, ke = rep.ends[i] if i < len(rep.ends) else (len(T.instrs), 0, len(T.blocks))
            got = fast(rep, i)
            rep.pre.pop(i, None)
            replicate.unagreed_records = lambda instrs, a, e, blocks: instrs[a:e]
            try:
                whole = fast(rep, i)
            finally:
                replicate.unagreed_records = unagreed
            if i < len(rep.ends):
                rep.pre[i] = got
            self.assertEqual([id(b) for b in got], [id(b) for b in whole])
            seen["calls"] += 1
            seen["skipped"] += (e - a) - len(list(unagreed(T.instrs, a, e, T.blocks[kb:ke])))
            return got

        rep_cls._pre_loop = both
        try:
            for kernel, rows in NESTED:
                trace_inside(kernel, rows)
        finally:
            rep_cls._pre_loop = fast
        self.assertGreater(seen["calls"], 20)
        self.assertGreater(seen["skipped"], 100)  # the shortcut was taken

    def test_fields_read_but_the_agreed_buffers_decide_and_write_as_every_buffer_read(self):
        # An iteration's end reads the fields of its new buffers but the agreed iterations' (loopstate.unagreed_slots)
        # and the decision completes the template's (every_slot): the loops replicated, and every block's template
        # fields, must be what reading every buffer at each end gives.
        from kltrace import loopstate, replicate
        from kltrace.tracer import T

        def blocks():
            return [(b.start, b.ta, b.q, b.count, b.bstart, b.nb, tuple(b.slots)) for b in T.blocks]

        for kernel, rows in NESTED:
            replicate.STATS.update(dict.fromkeys(replicate.STATS, 0))
            trace_inside(kernel, rows)
            fast = (dict(replicate.STATS), blocks())
            read = [0]
            unagreed, every = replicate.unagreed_slots, replicate.every_slot

            def whole(buffers, c, d, spans):
                read[0] += d - c - len(unagreed(buffers, c, d, spans))
                return list(map(loopstate.buffer_slots, buffers[c:d]))

            replicate.unagreed_slots = whole
            replicate.every_slot = lambda buffers, c, d, spans, slots: slots
            try:
                replicate.STATS.update(dict.fromkeys(replicate.STATS, 0))
                trace_inside(kernel, rows)
            finally:
                replicate.unagreed_slots, replicate.every_slot = unagreed, every
            self.assertEqual(fast, (dict(replicate.STATS), blocks()), kernel)
            self.assertGreater(fast[0]["loops"], 1, kernel)
            self.assertGreater(read[0], 0, kernel)  # buffers were left out

    def test_every_slot_reads_only_what_unagreed_slots_left_out(self):
        # every_slot merges the unagreed list with the agreed buffers' fields at their places.
        from kltrace import loopstate
        from kltrace.tracer import T
        trace_inside("three_levels", 128 * 16 * 6 * 10)
        checked = 0
        for outer in T.blocks:
            if not outer.inner:
                continue
            spans = loopstate.agreed_spans(outer.inner, outer.ta)
            c, d = outer.bstart - outer.nb, outer.bstart
            part = loopstate.unagreed_slots(T.buffers, c, d, spans)
            whole = list(map(loopstate.buffer_slots, T.buffers[c:d]))
            self.assertEqual(loopstate.every_slot(T.buffers, c, d, spans, part), whole)
            checked += len(whole) - len(part)
        self.assertGreater(checked, 0)


class DroppedTemporaries(unittest.TestCase):
    """A temporary whose instruction an assignment retargets is dropped; replicated tracing removes it from
    T.buffers as plain tracing does, but only past the latest iteration mark (T.marked), which counts buffers."""

    setUpClass = AgreedShortcuts.setUpClass

    def test_a_tile_made_before_the_loop_keeps_its_place(self):
        t = trace_inside("temporary_made_before_the_loop", 2560, ADVERSARIAL)
        names = [(b.name, b.dropped) for b in t.buffers]
        self.assertIn(("first", True), names)  # dropped by iteration 0, below the loop's first mark: kept
        self.assertEqual(len(t.blocks), 1)

    def test_an_inner_loops_last_result_keeps_its_place(self):
        # inner_result_kept_after assigns the inner loop's last result `y` after that loop, below its last mark: in
        # each traced outer iteration that tile is dropped and stays.
        t = trace_inside("inner_result_kept_after", 20480)
        dropped = [b.name for b in t.buffers if b.dropped]
        self.assertTrue(dropped and set(dropped) == {"y"}, dropped)
