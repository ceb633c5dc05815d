"""The value layer's shortcuts (issue 20, per-instruction cost of plain tracing) give what the general paths give.

index_view has unrolled paths for the two commonest expression keys (`hbm[r + i.p, c + i.x]` and
`blocks[b, i.p, i.x]`) that reuse a template the general path stored, and one for keys of integers and unit-step
slices (`tile[:, j, :]`); a view made from a template checks its bounds at once (views._EAGER_BOUNDS) and keeps its
checks for the op's mask only when it reaches out of bounds; _make_ap checks an unmasked operand's
expression bounds inline. Each test builds the same view both ways, or crosses a bound, in process.

The recording shortcuts of plain tracing are checked the same way (RecordingShortcuts): emit_fresh against
new_tile + emit_new, _source_operands' inlined operands against _make_ap's, attributes shared by content,
retargeted temporaries leaving a plain trace, the shared set of regions a fresh matmul result accumulates into, and
the attributes and destination an accumulating matmul takes."""
import importlib
import os
import sys
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

importlib.import_module("kltrace.api")  # binds the operators onto Tensor; nothing in it is used by name
from kltrace import emit, ops, tensor_engine, views  # noqa: E402
from kltrace.errors import TraceError  # noqa: E402
from kltrace.indexing import mgrid  # noqa: E402
from kltrace.tracer import T  # noqa: E402


def _fields(v):
    checks = tuple((id(e), count, axis) for e, count, axis in v.checks or ())
    return v.off, v.dims, v.shape, v.dtype, checks


class ViewShortcuts(unittest.TestCase):
    def setUp(self):
        T.reset()
        self.hbm = emit.new_tile((1024, 2048), "bfloat16", "hbm", (), "a", temp=False, role="input")
        self.blocks = emit.new_tile((8, 128, 512), "float32", "hbm", (), "b", temp=False, role="input")
        self.i = mgrid[0:128, 0:512]

    def general(self, view, key):
        return views._index_general(view, key, view.dims, len(key))

    def assertSameView(self, fast, general):
        """The fast path's view is the general path's, except that one in bounds over its whole grid has already
        dropped its checks (views._EAGER_BOUNDS): the general view's checks then pass (run_checks raises if not)."""
        if fast.checks is None and general.checks is not None:
            views.run_checks(general, None)
        self.assertEqual(_fields(fast), _fields(general))

    def test_expression_pair_matches_the_general_path(self):
        i = self.i
        for r, c in ((0, 0), (256, 512), (896, 1536)):
            key = (r + i.p, c + i.x)
            self.assertSameView(views.index_view(self.hbm, key), self.general(self.hbm, key))  # stores the template
            self.assertSameView(views.index_view(self.hbm, key), self.general(self.hbm, key))  # the unrolled path
        self.assertEqual(views.index_view(self.hbm, (256 + i.p, 512 + i.x)).off, 256 * 2048 + 512)

    def test_block_key_matches_the_general_path(self):
        i = self.i
        for b in (0, 3, 7, -1, -8):
            key = (b, i.p, i.x)
            self.assertSameView(views.index_view(self.blocks, key), self.general(self.blocks, key))
            self.assertSameView(views.index_view(self.blocks, key), self.general(self.blocks, key))
        self.assertEqual(views.index_view(self.blocks, (-1, i.p, i.x)).off, 7 * 128 * 512)

    def test_block_index_out_of_bounds_is_the_kernels_error(self):
        i = self.i
        views.index_view(self.blocks, (0, i.p, i.x))  # the template exists: the unrolled path is tried first
        for b in (8, -9):
            with self.assertRaisesRegex(TraceError, f"index {b} is out of bounds for a dimension of size 8"):
                views.index_view(self.blocks, (b, i.p, i.x))

    def test_integer_and_slice_keys_match_the_general_path(self):
        for key in ((slice(None), 3, slice(None)), (2, slice(0, 64), slice(128, 512)), (slice(4, 8), 0, 7),
                    (-1, slice(None), slice(0, 256)), (1, slice(-64, None), slice(None, -1))):
            want = _fields(self.general(self.blocks, key))
            self.assertEqual(_fields(views.index_view(self.blocks, key)), want, key)
        self.assertEqual(views.index_view(self.blocks, (slice(None), 3, slice(None))).dims, ((65536, 8), (1, 512)))

    def test_integer_and_slice_keys_out_of_bounds_are_the_kernels_error(self):
        with self.assertRaisesRegex(TraceError, "index 128 is out of bounds for a dimension of size 128"):
            views.index_view(self.blocks, (slice(None), 128, slice(None)))
        with self.assertRaisesRegex(TraceError, "slice 0:513 is out of bounds for a dimension of size 512"):
            views.index_view(self.blocks, (0, slice(None), slice(0, 513)))

    def test_expression_bounds_wait_for_the_operand_and_fail_there(self):
        i = self.i
        view = views.index_view(self.hbm, (1000 + i.p, i.x))  # rows 1000..1127 of 1024: not an error yet
        self.assertIsNotNone(view.checks)
        with self.assertRaisesRegex(TraceError, r"index expression reaches \[1000, 1127\] .* has size 1024"):
            emit._make_ap(view, None, view.dims, view.off, view.buf)

    def test_template_views_in_bounds_carry_no_checks_and_the_others_keep_theirs(self):
        i = self.i
        wide = emit.new_tile((4, 2, 8, 128, 512), "float32", "hbm", (), "w", temp=False, role="input")
        # (base, key of an offset r, an r in bounds, one out of bounds, its error, the axis (from the end) and the
        # range of a mask that keeps the access within the dimension)
        cases = ((self.hbm, lambda r: (r + i.p, i.x), 896, 897, "has size 1024", 2, (0, 127)),
                 (self.hbm, lambda r: (i.p, r + i.x), 1536, 1537, "has size 2048", 1, (0, 511)),
                 (self.hbm, lambda r: (r - i.p, i.x), 1023, 1024, "reaches \\[897, 1024\\]", 2, (1, 128)),
                 (self.hbm, lambda r: (r - i.p, i.x), 127, 126, "reaches \\[-1, 126\\]", 2, (0, 127)),
                 (self.blocks, lambda r: (3, r + i.p, i.x), 0, 1, "has size 128", 2, (0, 127)),
                 (self.blocks, lambda r: (3, i.p, r + i.x), 0, -1, "has size 512", 1, (1, 512)),
                 (wide, lambda r: (1, 0, 2, r + i.p, i.x), 0, -1, "reaches \\[-1, 126\\]", 2, (1, 128)))
        for base, key, inside, outside, error, axis, keep in cases:
            views.index_view(base, key(0))  # stores the template: the calls below take the fast path
            k = key(inside)
            view = views.index_view(base, k)
            self.assertIsNone(view.checks)
            self.assertSameView(view, self.general(base, k))
            k = key(outside)
            view = views.index_view(base, k)
            self.assertIsNotNone(view.checks)  # out of bounds over the whole grid: waits for the op's mask
            self.assertSameView(view, self.general(base, k))
            with self.assertRaisesRegex(TraceError, "index expression .*" + error):
                emit._make_ap(view, None, view.dims, view.off, view.buf)
            view = views.index_view(base, key(outside))
            ranges = [(0, d) for _, d in view.dims]
            ranges[-axis] = keep
            emit._make_ap(view, ranges, view.dims, view.off, view.buf)
            self.assertIsNone(view.checks)

    def test_operand_in_bounds_drops_its_checks(self):
        i = self.i
        view = views.index_view(self.hbm, (896 + i.p, 1536 + i.x))
        ap, n = emit._make_ap(view, None, view.dims, view.off, view.buf)
        self.assertIsNone(view.checks)
        self.assertEqual((ap[3], ap[4], n), (896 * 2048 + 1536, ((2048, 128), (1, 512)), 128 * 512))


def _buffer_fields(b):
    return (b.name, b.memory, b.shape, b.dtype, b.role, b.decl, b.pstride, b.written, b.temp, b.rdims, b.rap[1],
            b.rap[0][1:])


def _instr_fields(ins, buffers):
    def operand(ap):
        return (buffers.index(ap[0]),) + ap[1:]
    return (ins.op, ins.engine, [operand(a) for a in ins.dst], [operand(a) for a in ins.src], ins.elements,
            ins.nbytes, ins.attrs, ins.loc, ins.iter, ins.pid, ins.ranges)


class ExpressionShortcuts(unittest.TestCase):
    def test_integer_plus_expression_sets_every_slot_as_the_class_does(self):
        # IndexExpr.__add__ makes `offset + i.p` field by field: each slot as IndexExpr(...) sets it, and the span
        # (computed when missing) that the class's full_span gives.
        from kltrace.indexing import IndexExpr
        i = mgrid[0:128, 0:512]
        for expr in (i.p, i.x, i.p * 3, IndexExpr((128, 1), (1, 0), 5)):
            for offset in (0, 7, -2):
                for made in (offset + expr, expr + offset):
                    expected = IndexExpr(expr.shape, expr.coefs, expr.const + offset)
                    expected.full_span()
                    self.assertEqual([getattr(made, name, "unset") for name in IndexExpr.__slots__],
                                     [getattr(expected, name, "unset") for name in IndexExpr.__slots__])
                    self.assertIs(made.memo, expr.memo)  # one template memo for `expr + n` (same coefficients)


class RecordingShortcuts(unittest.TestCase):
    LOC = ()  # no kernel frame: tiles take their fallback names

    def setUp(self):
        T.reset()
        T.replicate = False
        self.hbm = emit.new_tile((1024, 2048), "bfloat16", "hbm", (), "a", temp=False, role="input")
        self.i = mgrid[0:128, 0:512]

    def both_ways(self, shape):
        """(buffer fields, instruction fields) of an nl.load of hbm[0:128, 0:512] recorded by emit_fresh and by
        new_tile + emit_new."""
        out = []
        for fresh in (True, False):
            T.reset()
            T.replicate = False
            src = views.index_view(self.hbm, (self.i.p, self.i.x))
            if fresh:
                res = emit.emit_fresh("dma_copy", "dma", shape, "bfloat16", "sbuf", [src], None, self.LOC, "load")
            else:
                res = emit.new_tile(shape, "bfloat16", "sbuf", self.LOC, "load")
                res.buf.producer = emit.emit_new("dma_copy", "dma", res, [src], None, self.LOC)
            self.assertIs(res.buf.producer, T.instrs[-1])
            buffers = [self.hbm.buf] + T.buffers
            out.append((_buffer_fields(res.buf), _instr_fields(T.instrs[-1], buffers), res.dims, res.shape))
        return out

    def test_emit_fresh_records_what_new_tile_and_emit_new_record(self):
        first = self.both_ways((128, 512))  # may be the first tile of its kind (the general path)
        self.assertEqual(first[0], first[1])
        again = self.both_ways([128, 512])  # a kind seen before (the cached path), shape given as a list
        self.assertEqual(again[0], again[1])
        self.assertEqual(again[0], first[0])

    def test_emit_fresh_sets_every_slot_as_the_classes_do(self):
        # _seen_tile and emit_fresh make the buffer, the instruction and the result view field by field: each slot
        # (an unset one said so) as Buffer(...), Instr(...) and Tensor(...) via new_tile + emit_new set it.
        from kltrace.tracer import Buffer, Instr
        from kltrace.tensor import Tensor

        def slots(obj, buffers):
            def plain(x):
                if isinstance(x, Buffer):
                    return ("buffer", buffers.index(x))
                if isinstance(x, Instr):
                    return ("instruction", T.instrs.index(x))
                if isinstance(x, tuple):
                    return tuple(plain(y) for y in x)
                return x
            return [(name, plain(getattr(obj, name, "unset"))) for name in type(obj).__slots__ if name != "__weakref__"]

        for shape in ((128, 512), (128, 256)):
            out = []
            for fresh in (False, True):  # the classes' objects first: new_tile's general path, then the cached path
                T.reset()
                T.replicate = False
                if not fresh:
                    emit._fresh.clear()
                src = views.index_view(self.hbm, (slice(0, 128), slice(0, shape[1])))
                if fresh:
                    res = emit.emit_fresh("dma_copy", "dma", shape, "bfloat16", "sbuf", [src], None, self.LOC, "load")
                else:
                    res = emit.new_tile(shape, "bfloat16", "sbuf", self.LOC, "load")
                    res.buf.producer = emit.emit_new("dma_copy", "dma", res, [src], None, self.LOC)
                buffers = [self.hbm.buf] + T.buffers
                out.append((slots(res.buf, buffers), slots(T.instrs[-1], buffers), slots(res, buffers)))
            self.assertEqual(out[0], out[1])
        self.assertIsInstance(res, Tensor)
        self.assertIsInstance(T.instrs[-1], Instr)

    def test_source_operands_match_make_ap(self):
        # _source_operands inlines _make_ap's tail for unmasked views without pending checks: the same operand,
        # whether the layout is new (the first round: _make_ap caches it) or cached (the second: the inlined path).
        i = self.i
        tile = emit.new_tile((4, 128, 512), "bfloat16", "sbuf", self.LOC, "t", temp=False)
        tile.buf.written = True
        makers = (lambda: views.index_view(self.hbm, (slice(128, 256), slice(512, 1024))),
                  lambda: views.index_view(self.hbm, (256 + i.p, 512 + i.x)),
                  lambda: views.index_view(tile, (2, i.p, i.x)),
                  lambda: views.index_view(tile, (3, slice(64, 128), slice(128, 384))),
                  lambda: views.index_view(tile, (1, i.p, i.x)).view("float32"))  # another dtype: _make_ap's way
        views.index_view(self.hbm, (i.p, i.x))  # the templates exist, so the expression views are checked at once
        views.index_view(tile, (0, i.p, i.x))
        for _ in range(2):
            for make in makers:
                fast, general = make(), make()
                self.assertIsNone(fast.checks)
                want = emit._make_ap(general, None, general.dims, general.off, general.buf)[0]
                self.assertEqual(emit._source_operands("tensor_copy", [fast], None, self.LOC), [want])

    def test_emit_fresh_reading_an_unwritten_tile_is_the_kernels_error(self):
        emit.new_tile((128, 512), "float32", "psum", self.LOC, "seen")  # the cached path is taken below
        for _ in range(2):
            empty = emit.new_tile((128, 128), "bfloat16", "sbuf", self.LOC, "empty", temp=False)
            with self.assertRaisesRegex(TraceError, "nc_matmul reads tile 'empty' before anything was written"):
                emit.emit_fresh("nc_matmul", "tensor", (128, 512), "float32", "psum", [empty, empty], None, self.LOC,
                                "matmul")

    def test_shared_attrs_are_one_dict_per_content_and_type(self):
        a = ops.shared_attrs(("op0", "add"), ("operand0", 2), ("reverse0", False))
        self.assertEqual(a, {"op0": "add", "operand0": 2, "reverse0": False})
        self.assertIs(ops.shared_attrs(("op0", "add"), ("operand0", 2), ("reverse0", False)), a)
        for other in (1.0, True, 1):  # equal as keys, different in the IR's JSON text
            b = ops.shared_attrs(("op0", "add"), ("operand0", other))
            self.assertIs(type(b["operand0"]), type(other))
        self.assertIsNot(ops.shared_attrs(("op0", "add"), ("operand0", 0.5)), a)
        for unshared in (0.0, -0.0, float("nan"), [1]):
            b = ops.shared_attrs(("operand0", unshared))
            self.assertIsNot(ops.shared_attrs(("operand0", unshared)), b, unshared)
            self.assertIs(b["operand0"], unshared)

    def retargeted_load(self, marked):
        T.reset()
        tile = emit.new_tile((4, 128, 512), "bfloat16", "sbuf", self.LOC, "t", temp=False)
        src = views.index_view(self.hbm, (self.i.p, self.i.x))
        value = emit.emit_fresh("dma_copy", "dma", (128, 512), "bfloat16", "sbuf", [src], None, self.LOC, "load")
        temp = value.buf
        if marked:  # a replication mark (an iteration's start or end) after the temporary was made
            T.marked = len(T.buffers)
        dst = views.index_view(tile, (2, self.i.p, self.i.x))
        ops.retarget(value, dst, False)
        self.assertTrue(temp.dropped)
        self.assertIs(T.instrs[-1].dst[0][0], tile.buf)
        return temp, _instr_fields(T.instrs[-1], [self.hbm.buf, tile.buf])

    def test_a_retargeted_temporary_leaves_the_trace_past_the_latest_mark_only(self):
        temp, free = self.retargeted_load(False)
        self.assertNotIn(temp, T.buffers)  # nothing refers to it by position
        self.assertIsNone(temp.rap)
        temp, marked = self.retargeted_load(True)
        self.assertIs(T.buffers[-1], temp)  # the mark counts it
        self.assertEqual(free, marked)

    def test_retarget_rewrites_the_destination_of_operand_tuples_and_lists(self):
        # emit_new and emit_fresh record operand tuples (less memory per instruction), emit records lists; retarget
        # must rewrite either, and replication concatenates an instruction's destinations and sources.
        tile = emit.new_tile((4, 128, 512), "bfloat16", "sbuf", self.LOC, "t", temp=False)
        src = views.index_view(self.hbm, (self.i.p, self.i.x))
        fresh = emit.emit_fresh("dma_copy", "dma", (128, 512), "bfloat16", "sbuf", [src], None, self.LOC, "load")
        listed = emit.new_tile((128, 512), "bfloat16", "sbuf", self.LOC, "copy")
        listed.buf.producer = emit.emit("dma_copy", "dma", [listed], [src], None, loc=self.LOC)
        kinds = []
        for value, k in ((fresh, 1), (listed, 3)):
            ins = value.buf.producer
            kinds.append(type(ins.dst))
            self.assertIs(type(ins.dst), type(ins.src))
            dst = views.index_view(tile, (k, self.i.p, self.i.x))
            want = emit.make_ap(views.index_view(tile, (k, self.i.p, self.i.x)), None)[0]
            ops.retarget(value, dst, False)
            self.assertEqual(len(ins.dst), 1)
            self.assertIs(ins.dst[0][0], tile.buf)
            self.assertEqual(ins.dst[0], want)
            self.assertEqual([ap[0] for ap in ins.dst + ins.src], [tile.buf, self.hbm.buf])
        self.assertEqual(kinds, [tuple, list])

    def test_accumulating_into_a_fresh_matmul_result_gives_it_its_own_regions(self):
        a = emit.new_tile((128, 128), "bfloat16", "sbuf", self.LOC, "a", temp=False)
        b = emit.new_tile((128, 512), "bfloat16", "sbuf", self.LOC, "b", temp=False)
        a.buf.written = b.buf.written = True
        # The first one checks, the others are cached.
        results = [tensor_engine.matmul_fresh(a, b, self.LOC) for _ in range(3)]
        for r in results:
            self.assertEqual(r.buf.mm_keys, {(0, 0)})
        acc, _ = ops._matmul_acc_ap(results[2], True)
        self.assertTrue(acc)
        self.assertIsInstance(results[2].buf.mm_keys, set)
        self.assertEqual(ops.FRESH_MM_KEYS, frozenset({(0, 0)}))
        self.assertIs(results[1].buf.mm_keys, ops.FRESH_MM_KEYS)

    def test_accumulating_a_fresh_matmul_takes_the_shared_attrs_and_the_destination_operand(self):
        # retarget inlines mm_attrs' lookup of the shared attrs, _matmul_acc_ap the whole tile's cached operand.
        a = emit.new_tile((128, 128), "bfloat16", "sbuf", self.LOC, "a", temp=False)
        b = emit.new_tile((128, 512), "bfloat16", "sbuf", self.LOC, "b", temp=False)
        a.buf.written = b.buf.written = True
        whole = emit.new_tile((128, 512), "float32", "psum", self.LOC, "acc", temp=False)
        whole.buf.zeroed = whole.buf.written = True  # nl.zeros(..., buffer=nl.psum)
        pair = emit.new_tile((128, 2, 512), "float32", "psum", self.LOC, "pair", temp=False)
        pair.buf.written = True
        for dst, first in ((lambda: whole[...], False), (lambda: whole[...], True), (lambda: pair[:, 1, :], True)):
            value = tensor_engine.matmul_fresh(a, b, self.LOC)
            ins = value.buf.producer
            view = dst()
            want = emit.make_ap(dst(), None)
            ops.retarget(value, view, True)
            self.assertIs(ins.attrs["accumulate"], first)
            self.assertIs(ins.attrs, ops.mm_attrs(ins.attrs, first))  # the one shared dict of that content
            self.assertEqual(ins.dst, (want[0],))
            self.assertEqual(ins.elements, want[1])
        self.assertIs(T.instrs[0].dst[0], whole.buf.rap[0])


if __name__ == "__main__":
    unittest.main()
