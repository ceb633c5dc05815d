"""kltrace._klaccel (issue 20): the C functions that plain tracing calls most give exactly what the Python functions
they replace give (accel.PYTHON keeps those).

In process, each C function and its Python function meet the same objects: views in and out of bounds, integers
beyond 64 bits, expressions with a float or a bool, unset slots. The results are compared slot by slot, and errors by
type and message. In subprocesses, every example (plain and replicated) and every left operand of the fused
`+=` (test_matmul_fused's kernels) is traced with KL_TRACE_ACCEL=0 and without it: same IR bytes, exit code and
messages."""
import glob
import importlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

import kltest
import test_matmul_fused

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

importlib.import_module("kltrace.api")  # binds the operators onto Tensor, then the C functions (accel.install)
from kltrace import accel, emit, isa, matmul_fast  # noqa: E402
from kltrace.indexing import IndexExpr, mgrid  # noqa: E402
from kltrace.tensor import Tensor  # noqa: E402
from kltrace.tracer import T  # noqa: E402

BUILT = glob.glob(os.path.join(kltest.ROOT, "sim", "frontend", "kltrace", "_klaccel*.so"))
EXAMPLES = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(kltest.ROOT, "examples", "*", "task.json")))


def _view(v):
    return tuple(getattr(v, s, "unset") for s in ("buf", "off", "dims", "dtype", "shape", "checks", "root", "inplace"))


def _expr(e):
    return e.shape, e.coefs, e.const, e.span, id(e.memo)


def _outcome(fn, fields, *args):
    """(fields of the result) or (error type, message)."""
    try:
        return ("ok", fields(fn(*args)))
    except Exception as e:  # noqa: BLE001 (the comparison is the test)
        return (type(e).__name__, str(e))


@unittest.skipUnless(BUILT, "kltrace._klaccel is not built (the CMake build makes it)")
class Bound(unittest.TestCase):
    def test_the_c_functions_are_bound(self):
        self.assertTrue(accel.STATUS.startswith("c: "), accel.STATUS)
        self.assertIsNot(Tensor.__getitem__, accel.PYTHON["getitem"])
        self.assertIsNot(IndexExpr.__add__, accel.PYTHON["add"])
        self.assertIsNot(matmul_fast.fresh_matmul, accel.PYTHON["fresh_matmul"])
        self.assertEqual(type(Tensor.__iadd__).__name__, "method_descriptor")


@unittest.skipUnless(BUILT, "kltrace._klaccel is not built")
class SameAsPython(unittest.TestCase):
    def setUp(self):
        T.reset()
        self.hbm = emit.new_tile((1024, 2048), "bfloat16", "hbm", (), "a", temp=False, role="input")
        self.blocks = emit.new_tile((8, 128, 512), "float32", "hbm", (), "b", temp=False, role="input")
        self.four = emit.new_tile((2, 4, 128, 512), "float32", "hbm", (), "c", temp=False, role="input")
        self.i = mgrid[0:128, 0:512]

    def assertSameView(self, tensor, key):
        # A first view stores the template (as a trace's first view does); both then find it.
        _outcome(accel.PYTHON["getitem"], _view, tensor, key)
        py = _outcome(accel.PYTHON["getitem"], _view, tensor, key)
        c = _outcome(Tensor.__getitem__, _view, tensor, key)
        self.assertEqual(c, py, key)
        return c

    def test_views_in_and_out_of_bounds(self):
        i = self.i
        for b in (0, 3, 7, 8, -1, True, 2 ** 70):
            self.assertSameView(self.blocks, (b, i.p, i.x))
        for r, c in ((0, 0), (896, 1536), (1000, 0), (-5, 0), (0, 2 ** 64)):
            self.assertSameView(self.hbm, (r + i.p, c + i.x))
        for a, b in ((0, 0), (1, 3), (2, 0), (0, 4)):
            self.assertSameView(self.four, (a, b, i.p, i.x))
        five = emit.new_tile((2, 3, 2, 128, 512), "float32", "hbm", (), "d", temp=False, role="input")
        p = mgrid[0:128, 0:1]
        for key in ((1, 2, 1, i.p, i.x), (0, 0, 0, i.p, i.x), (1, 3, 0, i.p, i.x), (0, -1, 0, i.p, i.x),
                    (1, 1, 1, 64 + i.p, i.x), (0, 0, 0, p.p, 7), (0, 0, 0, i.p, i.x, 0), (0, 0, 0.0, i.p, i.x),
                    (2 ** 70, 0, 0, i.p, i.x)):
            self.assertSameView(five, key)
        self.assertEqual(self.assertSameView(five, (1, 2, 1, i.p, i.x))[1][1], ((1 * 3 + 2) * 2 + 1) * 128 * 512)
        self.assertEqual(self.assertSameView(self.blocks, (5, i.p, i.x))[1][1], 5 * 128 * 512)

    def test_two_slices(self):
        for key in ((slice(0, 128), slice(512, 1024)), (slice(896, 1024), slice(0, 2048)),
                    (slice(0, 1025), slice(0, 8)),
                    (slice(-128, None), slice(0, 8)), (slice(0, 128, 2), slice(0, 8)), (slice(0, 128), slice(None, 8)),
                    (slice(5, 5), slice(0, 8)), (slice(True, 8), slice(0, 8)), (slice(0, 2 ** 70), slice(0, 8)),
                    (slice(0.0, 8), slice(0, 8)), (slice(0, 128), 3)):
            self.assertSameView(self.hbm, key)
        self.assertEqual(self.assertSameView(self.hbm, (slice(256, 384), slice(512, 1024)))[1][1:5],
                         (256 * 2048 + 512, ((2048, 128), (1, 512)), "bfloat16", (128, 512)))

    def test_whole_tile_and_other_keys(self):
        i = self.i
        for key in (Ellipsis, (slice(None), slice(0, 256)), (1,), 2, (i.p, i.x, 1, 2), (1.0, i.p, i.x)):
            self.assertSameView(self.blocks, key)
        self.assertSameView(self.blocks[1, i.p, i.x], Ellipsis)

    def test_unset_slots(self):
        empty = object.__new__(Tensor)
        for key in (Ellipsis, (0, self.i.p, self.i.x)):
            self.assertEqual(_outcome(Tensor.__getitem__, _view, empty, key)[0], "AttributeError")
            self.assertEqual(_outcome(Tensor.__getitem__, _view, empty, key),
                             _outcome(accel.PYTHON["getitem"], _view, empty, key))

    def test_matmul_body_with_any_arguments(self):
        """isa._nc_matmul's C body against the Python one, called by name as the wrappers call it: a dst, a mask, a
        transpose, an unknown or missing name go to Python (its errors); the fresh, unmasked call fills the memo
        the first time, then takes the C path."""
        body = isa._LEGACY["nc_matmul"].__globals__["_body"]
        self.assertIsNot(body, accel.PYTHON["nc_matmul"])
        i = mgrid[0:128, 0:128]
        st = emit.new_tile((128, 128), "bfloat16", "sbuf", (), "s", temp=False)
        mv = emit.new_tile((128, 512), "bfloat16", "sbuf", (), "m", temp=False)
        st.buf.written = mv.buf.written = True
        for kwargs in ({"bogus": 1}, {}, {"stationary": st, "moving": mv, "mask": i.p < 64},
                       {"stationary": st, "moving": mv, "is_transpose": True}, {"stationary": st},
                       {"stationary": st, "moving": 3}):
            kinds = []
            for fn in (accel.PYTHON["nc_matmul"], body):
                try:
                    r = fn(None, **kwargs)
                    kinds.append(("ok", type(r).__name__, getattr(r, "shape", None)))
                except Exception as e:  # noqa: BLE001
                    kinds.append((type(e).__name__, str(e)))
            self.assertEqual(kinds[0], kinds[1], kwargs)
        for _ in range(2):  # the first fills the memo (Python), the second finds it (C)
            before = len(T.instrs)
            r = body(None, stationary=st[...], moving=mv[...])
            self.assertEqual(len(T.instrs), before + 1)
            self.assertEqual((r.shape, r.dtype, T.instrs[-1].op), ((128, 512), "float32", "nc_matmul"))

    def test_expression_plus_a_number(self):
        i = self.i
        for e in (i.p, i.x, 3 + i.x, IndexExpr((128, 1), (1, 0))):
            for n in (0, 5, -7, 2 ** 70, True, 1.5, "x"):
                self.assertEqual(_outcome(IndexExpr.__add__, _expr, e, n),
                                 _outcome(accel.PYTHON["add"], _expr, e, n), (e, n))
                if type(n) is int:  # `n + e`: Python calls __radd__, the same function
                    self.assertEqual(_outcome(lambda a, b: b + a, _expr, e, n),
                                     _outcome(accel.PYTHON["add"], _expr, e, n))


_FUSED_ARGS = ("--arg", "a=256x128:bfloat16", "--arg", "b=256x512:bfloat16")


def _trace(kernel_args, accel_on, replicate):
    env = dict(os.environ, KL_TRACE_ACCEL="1" if accel_on else "0", KL_TRACE_REPLICATE="1" if replicate else "0")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "ir.bin")
        proc = subprocess.run([kltest.PYTHON, kltest.MAIN, *kernel_args, "--format", "binary", "-o", out],
                              capture_output=True, text=True, env=env, timeout=300)
        data = None
        if proc.returncode == 0:
            with open(out, "rb") as fh:
                data = fh.read()
        return proc.returncode, proc.stdout, proc.stderr.replace(tmp, "TMP"), data


@unittest.skipUnless(BUILT, "kltrace._klaccel is not built")
class SameTrace(unittest.TestCase):
    def assertSameTrace(self, kernel_args, replicate):
        c = _trace(kernel_args, True, replicate)
        py = _trace(kernel_args, False, replicate)
        self.assertEqual(c[:3], py[:3], kernel_args)
        self.assertTrue(c[3] == py[3], f"{kernel_args}: the IR differs")
        return c

    def test_every_example(self):
        self.assertGreater(len(EXAMPLES), 10)
        for task in EXAMPLES:
            for replicate in (False, True):
                with self.subTest(task=os.path.basename(task), replicate=replicate):
                    self.assertEqual(self.assertSameTrace(["--task", task], replicate)[0], 0)

    def test_every_current_nki_kernel(self):
        with open(os.path.join(kltest.HERE, "current", "compat.json"), encoding="utf-8") as fh:
            entries = [e for e in json.load(fh)["entries"] if "file" in e and "args" in e]
        self.assertGreater(len(entries), 5)
        for e in entries:
            args = ["--kernel-file", os.path.join(kltest.HERE, "current", e["file"]), "--kernel", e["kernel"]]
            for a in e["args"]:
                args += ["--arg", f"{a['name']}={'x'.join(map(str, a['shape']))}:{a['dtype']}"]
            with self.subTest(e["file"]):
                self.assertSameTrace(args, False)

    def test_a_kernel_that_empties_the_memos(self):
        """A kernel can reach the front end's modules and empty the lists the C functions read: they hand the
        call to Python (whose error names the kernel's line), never read past the end."""
        body = """import sys
        for name, lists in (("matmul_fast", ("_last", "_fixed")), ("matmul_fused", ("_open",))):
            for attr in lists:
                getattr(sys.modules["kltrace." + name], attr).clear()
        acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        for t in nl.affine_range(2):
            acc[...] += nisa.nc_matmul(lhs[t, i.p, i.x], rhs[t, j.p, j.x])
        nl.store(out, value=nl.copy(acc))"""
        with tempfile.TemporaryDirectory() as tmp:
            kernel = os.path.join(tmp, "kernel.py")
            with open(kernel, "w", encoding="utf-8") as fh:
                fh.write(test_matmul_fused._KERNEL.replace("BODY", body))
            rc, out, err, _ = self.assertSameTrace(["--kernel-file", kernel, *_FUSED_ARGS], False)
        self.assertEqual(rc, 2, err)  # a kernel error, not a crash (a signal)
        self.assertIn("kernel.py:", err)
        self.assertIn("IndexError", err)

    def test_every_left_operand_of_the_fused_plus_equals(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, body in test_matmul_fused._BODIES.items():
                kernel = os.path.join(tmp, "kernel.py")
                with open(kernel, "w", encoding="utf-8") as fh:
                    fh.write(test_matmul_fused._KERNEL.replace("BODY", body))
                for replicate in (False, True):
                    with self.subTest(name, replicate=replicate):
                        self.assertSameTrace(["--kernel-file", kernel, *_FUSED_ARGS], replicate)


if __name__ == "__main__":
    unittest.main()
