"""The fast paths of plain tracing's hottest statements (issue 20) give what the general paths give.

- matmul_fast.matmul_fresh: the memo of operand layouts against tensor_engine.matmul_fresh (instruction, result buffer,
  operand state), and the cases it must hand to the general path (an operand not written, a pending nl.zeros,
  pending bounds checks, another dtype).
- matmul_fast.accumulate_fresh (`psum[...] += matmul`) against ops.retarget(..., accumulate=True), and the case it
  leaves to it (the warning of a sum started in an unwritten tile).
- Tensor.__getitem__'s inlined template paths (2, 3 and 4 keys) against views.index_view's general path.
- `t[key] = nl.load(src)` without a temporary tile (pending.pending_indexed_load) against the temporary tile's
  path: the same IR, also when the key records an instruction (tile arithmetic) or fails.
Each compares the two ways in process, or traces a kernel both ways in a subprocess."""
import importlib
import os
import sys
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

importlib.import_module("kltrace.api")  # binds the operators onto Tensor; nothing in it is used by name
from kltrace import emit, matmul_fast, ops, tensor_engine, views  # noqa: E402
from kltrace.errors import TraceError  # noqa: E402
from kltrace.indexing import arange, mgrid  # noqa: E402
from kltrace.tracer import T  # noqa: E402
from kltrace.tensor import Tensor  # noqa: E402

LOC = ()  # no kernel frame: tiles take their fallback names


def _buffer_state(b):
    return (b.name, b.memory, b.shape, b.dtype, b.role, b.decl, b.pstride, b.written, b.zeroed, b.temp, b.pinned,
            b.dropped, b.rdims, None if b.rap is None else (b.rap[0][1:], b.rap[1]),
            None if b.mm_keys is None else (type(b.mm_keys), sorted(b.mm_keys)))


def _instr_state(ins):
    def operand(ap):
        return (T.buffers.index(ap[0]) if ap[0] in T.buffers else ap[0].name,) + tuple(ap[1:])
    return (ins.op, ins.engine, type(ins.dst), [operand(a) for a in ins.dst], [operand(a) for a in ins.src],
            ins.elements, ins.nbytes, id(ins.attrs), ins.attrs, ins.loc, ins.iter, ins.pid, ins.ranges)


def _state():
    return [_buffer_state(b) for b in T.buffers], [_instr_state(i) for i in T.instrs]


class FreshMatmul(unittest.TestCase):
    """Operands: [128, 128] and [128, 512] bfloat16 views of wider SBUF tiles (a template view each) or whole
    tiles."""

    def setUp(self):
        T.reset()
        matmul_fast._PAIRS.clear()
        matmul_fast._last[0] = matmul_fast._NONE

    def operands(self, whole=False, written=True):
        i, j = mgrid[0:128, 0:128], mgrid[0:128, 0:512]
        if whole:
            a = emit.new_tile((128, 128), "bfloat16", "sbuf", LOC, "a", temp=False)
            b = emit.new_tile((128, 512), "bfloat16", "sbuf", LOC, "b", temp=False)
        else:
            wide_a = emit.new_tile((128, 512), "bfloat16", "sbuf", LOC, "ba", temp=False)
            wide_b = emit.new_tile((128, 2048), "bfloat16", "sbuf", LOC, "bb", temp=False)
            a = wide_a[i.p, 256 + i.x]
            b = wide_b[j.p, 1024 + j.x]
        a.buf.written = b.buf.written = written
        return a, b

    def both_ways(self, make, step):
        """The trace's state after `step(*make())` on the fast path (the memo filled first) and on the general one."""
        states = []
        for fast in (True, False):
            T.reset()
            args = make()
            if fast:
                matmul_fast.matmul_fresh(*args, LOC)  # the general path, which fills the memo
            else:
                tensor_engine.matmul_fresh(*args, LOC)
            step(make(), fast)
            states.append(_state())
        self.assertEqual(states[0], states[1])

    def test_memo_gives_the_general_paths_instruction_and_buffers(self):
        for whole in (False, True):
            with self.subTest(whole=whole):
                used = []

                def step(args, fast):
                    if fast:
                        res = matmul_fast.fresh_matmul(*args, LOC)
                        self.assertIsNotNone(res)  # the memo holds this pair
                    else:
                        res = tensor_engine.matmul_fresh(*args, LOC)
                    used.append((res.shape, res.dims, res.root, res.buf.mm_keys is ops.FRESH_MM_KEYS))
                self.both_ways(lambda: self.operands(whole), step)
                self.assertEqual(used[0], used[1])

    def test_memo_is_keyed_by_layout_not_by_buffer(self):
        a, b = self.operands()
        matmul_fast.matmul_fresh(a, b, LOC)
        c, d = self.operands()  # other buffers, the same layouts
        self.assertIsNotNone(matmul_fast.fresh_matmul(c, d, LOC))
        e = emit.new_tile((128, 128), "bfloat16", "sbuf", LOC, "e", temp=False)  # same shape, other dims object
        e.buf.written = True
        self.assertIsNone(matmul_fast.fresh_matmul(e, d, LOC))

    def test_operands_the_general_path_must_see(self):
        a, b = self.operands()
        matmul_fast.matmul_fresh(a, b, LOC)
        a, b = self.operands(written=False)
        self.assertIsNone(matmul_fast.fresh_matmul(a, b, LOC))
        with self.assertRaisesRegex(TraceError, "nc_matmul reads tile 'ba' before anything was written"):
            matmul_fast.matmul_fresh(a, b, LOC)
        a, b = self.operands()
        a.buf.zeroed = True  # a pending nl.zeros: the general path writes it first
        self.assertIsNone(matmul_fast.fresh_matmul(a, b, LOC))
        a, b = self.operands()
        a.checks = ((mgrid[0:128, 0:128].p, 128, 0),)  # bounds still to check
        self.assertIsNone(matmul_fast.fresh_matmul(a, b, LOC))
        a, b = self.operands()
        a.dtype = "float16"  # a view reading the bytes as another dtype
        self.assertIsNone(matmul_fast.fresh_matmul(a, b, LOC))
        a, b = self.operands()
        T.values = True
        try:
            self.assertIsNone(matmul_fast.fresh_matmul(a, b, LOC))
        finally:
            T.values = False
        a, b = self.operands()
        self.assertIsNotNone(matmul_fast.fresh_matmul(a, b, LOC))


    def test_same_buffers_again_are_checked_again(self):
        """fresh_matmul compares what a buffer fixes once per pair of buffers (matmul_fast._fixed): what changes
        (written, a pending nl.zeros, checks, the view's dtype, value mode) is still compared at every matmul."""
        a, b = self.operands()
        matmul_fast.matmul_fresh(a, b, LOC)
        self.assertIsNotNone(matmul_fast.fresh_matmul(a, b, LOC))  # the pair is now known
        for name, spoil, undo in (
                ("written", lambda: setattr(a.buf, "written", False), lambda: setattr(a.buf, "written", True)),
                ("zeroed", lambda: setattr(b.buf, "zeroed", True), lambda: setattr(b.buf, "zeroed", False)),
                ("checks", lambda: setattr(b, "checks", ((mgrid[0:128, 0:512].p, 128, 0),)),
                 lambda: setattr(b, "checks", None)),
                ("dtype", lambda: setattr(a, "dtype", "float16"), lambda: setattr(a, "dtype", "bfloat16")),
                ("values", lambda: setattr(T, "values", True), lambda: setattr(T, "values", False))):
            with self.subTest(name):
                spoil()
                try:
                    self.assertIsNone(matmul_fast.fresh_matmul(a, b, LOC))
                finally:
                    undo()
                self.assertIsNotNone(matmul_fast.fresh_matmul(a, b, LOC))

    def test_a_buffer_of_another_dtype_with_the_same_layout(self):
        """Equal dims on a float32 tile find the bfloat16 pair's memo entry: the buffer's own fields reject it."""
        a, b = self.operands()
        matmul_fast.matmul_fresh(a, b, LOC)
        self.assertIsNotNone(matmul_fast.fresh_matmul(a, b, LOC))
        wide = emit.new_tile((128, 512), "float32", "sbuf", LOC, "wf", temp=False)
        wide.buf.written = True
        i = mgrid[0:128, 0:128]
        c = wide[i.p, 256 + i.x]
        self.assertEqual(c.dims, a.dims)
        self.assertIsNone(matmul_fast.fresh_matmul(c, b, LOC))
        c.dtype = "bfloat16"  # the view's dtype alone does not make it the pair's
        self.assertIsNone(matmul_fast.fresh_matmul(c, b, LOC))


class AccumulateFresh(unittest.TestCase):
    def setUp(self):
        T.reset()

    def run_both(self, make_dst, prepare, shape=(128, 512)):
        """The state after `dst += fresh matmul` through accumulate_fresh and through ops.retarget."""
        states, taken = [], []
        for fast in (True, False):
            T.reset()
            a = emit.new_tile((128, 128), "bfloat16", "sbuf", LOC, "a", temp=False)
            b = emit.new_tile((128, 512), "bfloat16", "sbuf", LOC, "b", temp=False)
            a.buf.written = b.buf.written = True
            dst_tile = emit.new_tile(shape, "float32", "psum", LOC, "acc", temp=False)
            prepare(dst_tile.buf)
            for _ in range(3):  # the first starts the sum (or not), the others accumulate
                value = tensor_engine.matmul_fresh(a, b, LOC)
                dst = make_dst(dst_tile)
                if fast:
                    taken.append(matmul_fast.accumulate_fresh(value, dst))
                    if not taken[-1]:
                        ops.retarget(value, dst, accumulate=True)
                else:
                    ops.retarget(value, dst, accumulate=True)
                self.assertIs(value.buf, dst_tile.buf)
            states.append((_state(), T.diagnostics[:]))
        self.assertEqual(states[0], states[1])
        return taken

    def test_whole_psum_tile(self):
        def zeroed(b):
            b.zeroed = b.written = True  # nl.zeros(..., buffer=nl.psum)
        self.assertEqual(self.run_both(lambda t: t[...], zeroed), [True, True, True])

        def written(b):
            b.written = True
        self.assertEqual(self.run_both(lambda t: t, written), [True, True, True])

    def test_the_sum_started_in_an_unwritten_tile_warns_on_the_general_path(self):
        taken = self.run_both(lambda t: t[...], lambda b: None)
        self.assertEqual(taken, [False, True, True])
        self.assertIn("accumulates into PSUM tile", T.diagnostics[0][1])

    def test_part_of_a_tile_goes_to_the_general_path(self):
        taken = self.run_both(lambda t: t[:, 1, :], lambda b: setattr(b, "written", True), (128, 2, 512))
        self.assertEqual(taken, [False, False, False])


class InlinedTemplateViews(unittest.TestCase):
    """Tensor.__getitem__ against index_view's general path, the template stored first."""

    def setUp(self):
        T.reset()

    def assertSame(self, base, key):
        general = views._index_general(base, key, base.dims, len(key))
        if general.checks is not None:
            views.run_checks(general, None)
        got = base[key]
        self.assertIsNone(got.checks)
        self.assertEqual((got.off, got.dims, got.shape, got.dtype), (general.off, general.dims, general.shape,
                                                                    general.dtype))

    @staticmethod
    def keyed_tensors():
        """An HBM tensor indexed by two expressions, one by an integer then two, one by two integers then two: each
        with a key of the iteration `r` (nl.mgrid's i)."""
        i = mgrid[0:128, 0:512]
        hbm = emit.new_tile((1024, 2048), "bfloat16", "hbm", (), "a", temp=False, role="input")
        blocks = emit.new_tile((8, 128, 1024), "float32", "hbm", (), "b", temp=False, role="input")
        grid = emit.new_tile((2, 4, 128, 1024), "float32", "hbm", (), "g", temp=False, role="input")
        keyed = ((hbm, lambda r: (r + i.p, 2 * r + i.x)), (blocks, lambda r: (r, i.p, 2 * r + i.x)),
                 (grid, lambda r: (r % 2, r % 4, i.p, 2 * r + i.x)))
        return i, hbm, blocks, grid, keyed

    def test_two_three_and_four_keys(self):
        keyed = self.keyed_tensors()[-1]
        for base, key in keyed:
            views.index_view(base, key(0))  # stores the template
            for r in (0, 3, 7):
                self.assertSame(base, key(r))

    def test_views_made_field_by_field_set_every_slot(self):
        """Tensor.__getitem__ makes its template and `t[...]` views without Tensor(...): every slot is set, each as
        Tensor(...) sets it for the general path's view (a slot added to Tensor and not set there fails here)."""
        def slots(t):
            return {name: getattr(t, name) for name in Tensor.__slots__ if name != "__weakref__"}
        keyed = self.keyed_tensors()[-1]
        for base, key in keyed:
            views.index_view(base, key(0))  # stores the template
            got = base[key(3)]
            self.assertIs(type(got), Tensor)
            want = views.index_view(base, key(3))
            self.assertEqual(slots(got), slots(want))
            self.assertEqual(slots(base[...]), slots(views.index_view(base, ...)))
        hbm = keyed[0][0]
        key = (slice(128, 256), slice(512, 1024))  # index_view's two plain slices
        self.assertEqual(slots(hbm[key]), slots(views._slice_view(hbm, key, hbm.dims)))

    def test_store_destination_view(self):
        """views.template_layout (the destination of `t[key] = nl.load(src)`) gives index_view's view's layout, pins
        nothing, and leaves every key that is not a template in bounds over the whole grid to index_view."""
        views._expr_templates.clear()
        i, hbm, blocks, grid, keyed = self.keyed_tensors()
        for base, key in keyed:
            self.assertIsNone(views.template_layout(base, key(0)))  # no template yet
            views.index_view(base, key(0))  # stores the template
            for r in (0, 3, 7):
                got = views.template_layout(base, key(r))
                want = views.index_view(base, key(r))
                self.assertIsNone(want.checks)
                self.assertEqual(got, (want.off, want.dims, want.shape))
            self.assertFalse(base.buf.pinned)
        self.assertIsNone(views.template_layout(blocks, (8, i.p, i.x)))  # out of range: index_view raises
        self.assertIsNone(views.template_layout(blocks, (-1, i.p, i.x)))  # from the end: index_view counts
        self.assertIsNone(views.template_layout(grid, (0, 4, i.p, i.x)))
        self.assertIsNone(views.template_layout(blocks, (1, i.p, 600 + i.x)))  # keeps checks: index_view's
        self.assertIsNone(views.template_layout(hbm, (1000 + i.p, i.x)))
        self.assertIsNone(views.template_layout(hbm, (i.p, slice(0, 512))))

    def test_out_of_bounds_keys_take_the_general_path(self):
        i = mgrid[0:128, 0:512]
        blocks = emit.new_tile((8, 128, 1024), "float32", "hbm", (), "b", temp=False, role="input")
        grid = emit.new_tile((2, 4, 128, 1024), "float32", "hbm", (), "g", temp=False, role="input")
        blocks[0, i.p, i.x]
        grid[0, 0, i.p, i.x]
        self.assertEqual(blocks[-1, i.p, i.x].off, 7 * 128 * 1024)  # a negative index counts from the end
        self.assertEqual(grid[1, -1, i.p, i.x].off, (4 + 3) * 128 * 1024)
        with self.assertRaisesRegex(TraceError, "index 8 is out of bounds for a dimension of size 8"):
            blocks[8, i.p, i.x]
        with self.assertRaisesRegex(TraceError, "index 4 is out of bounds for a dimension of size 4"):
            grid[1, 4, i.p, i.x]
        self.assertIsNotNone(blocks[1, i.p, 600 + i.x].checks)  # reaches past 1024: waits for the op's mask
        self.assertIsNotNone(grid[1, 1, i.p, 600 + i.x].checks)

    def test_a_partition_vector_still_gets_its_free_axis(self):
        p = arange(128)
        q = p - p  # one axis, a zero coefficient: the view is [128] before __getitem__ makes it [128, 1]
        tile = emit.new_tile((128, 64), "float32", "sbuf", (), "b", temp=False)
        want = tile[p, q]
        self.assertEqual(tile[p, q + 5].shape, want.shape)
        self.assertEqual(want.shape, (128, 1))


_INDEXED_KERNEL = '''
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, ix):
    t = nl.ndarray((4, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
    i = nl.mgrid[0:128, 0:512]
    j = nl.mgrid[0:128, 0:256]
    for b in nl.affine_range(4):
        t[b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])
        t[b, j.p, 256 + j.x] = nl.load(a[b * 128 + j.p, 256 + j.x])
    u = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
    u[i.p, i.x] = nl.load(a[i.p, i.x])
    idx = nl.load(ix)
    KEY_LINE
    out = nl.ndarray((512, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    for b in nl.affine_range(4):
        nl.store(out[b * 128 + i.p, i.x], value=nl.exp(t[b, i.p, i.x]))
    return out
'''

# Runs the front end with the temporary tile's path for `t[key] = nl.load(...)` (what the fast path replaces).
_GENERAL_MAIN = '''
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, {frontend!r})
from kltrace import language
_kind = language._store_kind
language._store_kind = lambda f: language.STORED_NOT if type(_kind(f)) is language.LoadSite else _kind(f)
from kltrace.cli import main
sys.stdout.flush()
os._exit(main())
'''


class IndexedPendingLoad(unittest.TestCase):
    def trace_both(self, key_line):
        """(rc, stdout, stderr, IR text) of the front end, which the general path (_GENERAL_MAIN) gives as well."""
        args = ["--arg", "a=512x512:bfloat16", "--arg", "ix=128x1:int32", "--no-replicate"]
        fast, general = kltest.trace_with_both_mains(_INDEXED_KERNEL.replace("KEY_LINE", key_line), _GENERAL_MAIN,
                                                     args)
        self.assertEqual(fast, general)
        return fast

    def test_indexed_loads_give_the_temporary_tiles_ir(self):
        rc, _, _, text = self.trace_both("pass")
        self.assertEqual(rc, 0)
        self.assertIn('"dma_copy"', text)

    def test_a_key_that_records_puts_the_load_back_first(self):
        # `idx + 1` records a VectorE op while the key is computed, after the call: the load's instruction and
        # temporary tile go back before it, as the call made them.
        self.trace_both("u[idx + 1, 0:512] = nl.load(a[i.p, i.x])")

    def test_a_key_that_fails_gives_the_same_error(self):
        rc, stdout, _, _ = self.trace_both("t[4, i.p, i.x] = nl.load(a[i.p, i.x])")
        self.assertEqual(rc, 2)
        self.assertIn("index 4 is out of bounds", stdout)


if __name__ == "__main__":
    unittest.main()
