"""The value layer's shortcuts (issue 20, per-instruction cost of plain tracing) give what the general paths give.

index_view has unrolled paths for the two commonest expression keys (`hbm[r + i.p, c + i.x]` and
`blocks[b, i.p, i.x]`) that reuse a template the general path stored, and one for keys of integers and unit-step
slices (`tile[:, j, :]`); _make_ap checks an unmasked operand's
expression bounds inline. Each test builds the same view both ways, or crosses a bound, in process."""
import importlib
import os
import sys
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

importlib.import_module("kltrace.api")  # binds the operators onto Tensor; nothing in it is used by name
from kltrace import emit, views  # noqa: E402
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

    def test_expression_pair_matches_the_general_path(self):
        i = self.i
        for r, c in ((0, 0), (256, 512), (896, 1536)):
            key = (r + i.p, c + i.x)
            want = _fields(self.general(self.hbm, key))
            self.assertEqual(_fields(views.index_view(self.hbm, key)), want)  # stores the template
            self.assertEqual(_fields(views.index_view(self.hbm, key)), want)  # the unrolled path
        self.assertEqual(views.index_view(self.hbm, (256 + i.p, 512 + i.x)).off, 256 * 2048 + 512)

    def test_block_key_matches_the_general_path(self):
        i = self.i
        for b in (0, 3, 7, -1, -8):
            key = (b, i.p, i.x)
            want = _fields(self.general(self.blocks, key))
            self.assertEqual(_fields(views.index_view(self.blocks, key)), want)
            self.assertEqual(_fields(views.index_view(self.blocks, key)), want)
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

    def test_operand_in_bounds_drops_its_checks(self):
        i = self.i
        view = views.index_view(self.hbm, (896 + i.p, 1536 + i.x))
        ap, n = emit._make_ap(view, None, view.dims, view.off, view.buf)
        self.assertIsNone(view.checks)
        self.assertEqual((ap[3], ap[4], n), (896 * 2048 + 1536, ((2048, 128), (1, 512)), 128 * 512))


if __name__ == "__main__":
    unittest.main()
