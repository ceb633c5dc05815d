"""`dst += src` of two on-chip tiles through elementwise_fast.add_in_place gives what ops.inplace_op's general
path gives: the same IR, exit code, messages and warnings (file and line), whatever the operands are. Each kernel
is traced in a subprocess twice, as shipped and with the fast path off (add_in_place answers False), plainly and
replicated; a unit test checks that the fast path really takes the common case."""
import importlib
import os
import sys
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

importlib.import_module("kltrace.api")  # binds the operators onto Tensor; nothing in it is used by name
from kltrace import elementwise_fast, emit, operators  # noqa: E402
from kltrace.indexing import mgrid  # noqa: E402
from kltrace.tracer import T  # noqa: E402

_KERNEL = '''
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    lhs = nl.ndarray((nl.par_dim(128), 128), dtype=a.dtype, buffer=nl.sbuf)
    rhs = nl.ndarray((nl.par_dim(128), 512), dtype=b.dtype, buffer=nl.sbuf)
    lhs[...] = nl.load(a)
    rhs[...] = nl.load(b)
    i = nl.mgrid[0:128, 0:512]
    y = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)  # a named tile (not a temporary result)
    y[...] = nl.copy(rhs, dtype=nl.float32)
    for r in nl.affine_range(3):
        BODY
    return out
'''

# Statements at the body's place (indented by 8 spaces).
_BODIES = {
    "a matmul's PSUM sum into SBUF blocks":
        """acc = nl.zeros((2, nl.par_dim(128), 512), dtype=nl.float32, buffer=nl.sbuf)
        for t in nl.affine_range(2):
            part = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
            part[...] += nisa.nc_matmul(lhs[...], rhs[...])
            acc[t, i.p, i.x] += part[i.p, i.x]
        nl.store(out, value=acc[1, i.p, i.x])""",
    "whole tiles": """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        for t in nl.affine_range(2):
            x[...] += y[...]
            x += y
        nl.store(out, value=x)""",
    "a PSUM tile whose nl.zeros is still pending (the memset first)":
        """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        p = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        x[...] += p[...]
        nl.store(out, value=x)""",
    "a PSUM sum over half the tile read whole (the memset first)":
        """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        p = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        h = nl.mgrid[0:128, 0:256]
        p[h.p, h.x] += nisa.nc_matmul(lhs[...], rhs[h.p, h.x])
        x[...] += p[...]
        nl.store(out, value=x)""",
    "into a pending PSUM zeros": """p = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        p[...] += y[...]
        nl.store(out, value=nl.copy(p))""",
    "other dtypes (bfloat16 += float32)": """x = nl.zeros((128, 512), dtype=nl.bfloat16, buffer=nl.sbuf)
        x[i.p, i.x] += y[i.p, i.x]
        nl.store(out, value=nl.copy(x, dtype=nl.float32))""",
    "a name, not a subscript (no store after)": """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        v = x[i.p, i.x]
        v += y[i.p, i.x]
        x[...] = v
        nl.store(out, value=x)""",
    "a temporary on the right": """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        x[...] += nl.exp(rhs)
        nl.store(out, value=x)""",
    "an unwritten source (an error)": """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        y = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        x[...] += y[...]""",
    "an unwritten destination (an error)": """x = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        x[...] += y[...]""",
    "shapes that differ (an error)": """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        y = nl.zeros((128, 256), dtype=nl.float32, buffer=nl.sbuf)
        x[...] += y[...]""",
    "an HBM destination (an error)": """y = nl.copy(rhs, dtype=nl.float32)
        out[...] += y[...]""",
    "a view out of bounds (an error)": """x = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        x[i.p, i.x] += y[i.p, 8 + i.x]""",
}

_ARGS = ["--arg", "a=128x128:bfloat16", "--arg", "b=128x512:bfloat16"]

# The front end with the fast path off: every `+=` of two tiles takes ops.inplace_op.
_GENERAL_MAIN = '''
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, {frontend!r})
from kltrace import operators
operators.add_in_place = lambda x, y, frame: False
from kltrace.cli import main
sys.stdout.flush()
os._exit(main())
'''


class FastAgainstGeneral(unittest.TestCase):
    def test_every_pair_of_operands(self):
        for name, body in _BODIES.items():
            for replicate in (False, True):
                with self.subTest(name, replicate=replicate):
                    args = _ARGS + ([] if replicate else ["--no-replicate"])
                    fast, general = kltest.trace_with_both_mains(_KERNEL.replace("BODY", body), _GENERAL_MAIN, args)
                    self.assertEqual(fast, general)
                    rc, _, err, text = fast
                    if "an error" in name:
                        self.assertNotEqual(rc, 0)
                        self.assertIn("kernel.py:", err)
                    else:
                        self.assertEqual(rc, 0, err)
                        self.assertIn('"tensor_tensor"', text)


class TakesTheCommonCase(unittest.TestCase):
    def test_two_views_in_bounds_take_the_fast_path(self):
        T.reset()
        x = emit.new_tile((128, 1024), "float32", "sbuf", (), "x", temp=False)
        y = emit.new_tile((128, 512), "float32", "psum", (), "y", temp=False)
        x.buf.written = y.buf.written = True
        calls = []
        real = elementwise_fast.add_in_place

        def counted(a, b, frame):
            calls.append(real(a, b, frame))
            return calls[-1]

        operators.add_in_place = counted
        try:
            i = mgrid[0:128, 0:512]
            for t in range(2):
                v = x[i.p, t * 512 + i.x]
                v += y[i.p, i.x]
        finally:
            operators.add_in_place = real
        self.assertEqual(calls, [False, True])  # the first fills emit's layout cache through the general path
        a, b = T.instrs[-2:]
        self.assertEqual((a.op, b.op), ("tensor_tensor", "tensor_tensor"))
        self.assertEqual(b.dst, [b.src[0]])  # x is written where it is read
        self.assertIsNot(b.dst[0], b.src[0])  # as the general path makes them: two operands
        self.assertEqual((a.src[0][3], b.src[0][3]), (0, 512))  # the second block, 512 elements further
        self.assertEqual((b.elements, b.nbytes, b.attrs), (a.elements, a.nbytes, a.attrs))


if __name__ == "__main__":
    unittest.main()
