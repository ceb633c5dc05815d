"""A fresh matmul consumed by the statement's `+=` without a result tile (kltrace/matmul_fused.py) gives what the
result tile's path gives: the same IR, exit code, messages and warnings (file and line), whatever the left operand
of the `+=` is. Each kernel is traced twice in a subprocess, once as shipped and once with the fused path off
(plus_equals_follows answers False), plain (--no-replicate) and replicated; a unit test checks that a result made
after the call (materialise) is the tile the call would have made."""
import importlib
import os
import sys
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

importlib.import_module("kltrace.api")  # binds the operators onto Tensor; nothing in it is used by name
from kltrace import emit, language, matmul_fast, matmul_fused  # noqa: E402
from kltrace.tracer import T, Instr  # noqa: E402

_KERNEL = '''
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    lhs = nl.ndarray((2, nl.par_dim(128), 128), dtype=a.dtype, buffer=nl.sbuf)
    rhs = nl.ndarray((2, nl.par_dim(128), 512), dtype=b.dtype, buffer=nl.sbuf)
    i = nl.mgrid[0:128, 0:128]
    j = nl.mgrid[0:128, 0:512]
    for t in nl.affine_range(2):
        lhs[t, i.p, i.x] = nl.load(a[t * 128 + i.p, i.x])
        rhs[t, j.p, j.x] = nl.load(b[t * 128 + j.p, j.x])
    for r in nl.affine_range(3):
        BODY
    return out
'''

# Statements at the body's place (indented by 8 spaces); `acc` must end as a [128, 512] float32 tile to store.
_BODIES = {
    "legacy into a zeroed tile": """acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        for t in nl.affine_range(2):
            acc += nl.matmul(lhs[t, i.p, i.x], rhs[t, j.p, j.x], transpose_x=True)
        nl.store(out, value=nl.copy(acc))""",
    "current into a zeroed tile's [...]": """acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        for t in nl.affine_range(2):
            acc[...] += nisa.nc_matmul(lhs[t, i.p, i.x], rhs[t, j.p, j.x])
        nl.store(out, value=nl.copy(acc))""",
    "into an unwritten tile (the general path's warning)":
        """acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
        for t in nl.affine_range(2):
            acc += nl.matmul(lhs[t, i.p, i.x], rhs[t, j.p, j.x], transpose_x=True)
        nl.store(out, value=nl.copy(acc))""",
    "into part of a tile": """acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        h = nl.mgrid[0:128, 0:256]
        for t in nl.affine_range(2):
            acc[:, 256:512] += nl.matmul(lhs[t, i.p, i.x], rhs[t, h.p, h.x], transpose_x=True)
        nl.store(out, value=nl.copy(acc))""",
    "into an SBUF tile (an error)": """acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        for t in nl.affine_range(2):
            acc += nl.matmul(lhs[t, i.p, i.x], rhs[t, j.p, j.x], transpose_x=True)
        nl.store(out, value=acc)""",
    "into a number (Python's __radd__: an error)": """acc = 0
        for t in nl.affine_range(2):
            acc += nl.matmul(lhs[t, i.p, i.x], rhs[t, j.p, j.x], transpose_x=True)
        nl.store(out, value=nl.copy(acc))""",
    "into a list (an error)": """acc = []
        acc += nl.matmul(lhs[0, i.p, i.x], rhs[0, j.p, j.x], transpose_x=True)""",
    "a result that is not added in place": """x = nl.matmul(lhs[0, i.p, i.x], rhs[0, j.p, j.x], transpose_x=True)
        acc = nl.zeros((128, 512), dtype=nl.float32, buffer=nl.psum)
        acc += x
        nl.store(out, value=nl.copy(acc))""",
}

# Runs the front end with the fused path off: every fresh matmul makes its result tile at the call.
_UNFUSED_MAIN = '''
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, {frontend!r})
from kltrace import matmul_fused
matmul_fused.plus_equals_follows = lambda frame: False
from kltrace import matmul_fast
matmul_fast.plus_equals_follows = matmul_fused.plus_equals_follows
from kltrace.cli import main
sys.stdout.flush()
os._exit(main())
'''


class FusedAgainstResultTile(unittest.TestCase):
    def trace_both(self, body, replicate):
        args = ["--arg", "a=256x128:bfloat16", "--arg", "b=256x512:bfloat16"] + ([] if replicate else
                                                                                ["--no-replicate"])
        fused, unfused = kltest.trace_with_both_mains(_KERNEL.replace("BODY", body), _UNFUSED_MAIN, args)
        self.assertEqual(fused, unfused)
        return fused

    def test_every_left_operand(self):
        for name, body in _BODIES.items():
            for replicate in (False, True):
                with self.subTest(name, replicate=replicate):
                    rc, out, err, text = self.trace_both(body, replicate)
                    if "an error" in name:
                        self.assertNotEqual(rc, 0)
                        self.assertIn("kernel.py:", err)
                    else:
                        self.assertEqual(rc, 0, err)
                        self.assertIn('"nc_matmul"', text)
                    if "unwritten" in name:
                        self.assertIn("accumulates into PSUM tile", out + err + text)


class _CallSite:
    """A kernel frame's two fields that fresh_matmul reads: a code object and the call's offset."""
    f_code = compile("pass", "kernel.py", "exec")
    f_lasti = 2


class Materialise(unittest.TestCase):
    """A fused result made after the call is the tile fresh_matmul makes at the call."""

    def setUp(self):
        T.reset()
        T.replicate = False  # fused results are plain tracing's
        matmul_fast._PAIRS.clear()
        matmul_fast._last[0] = matmul_fast._NONE
        matmul_fused._open[0] = None

    def operands(self):
        a = emit.new_tile((128, 128), "bfloat16", "sbuf", (), "a", temp=False)
        b = emit.new_tile((128, 512), "bfloat16", "sbuf", (), "b", temp=False)
        a.buf.written = b.buf.written = True
        return a, b

    def state(self, res):
        b = res.buf
        ins = T.instrs[-1]
        return (type(res), res.off, res.dims, res.dtype, res.shape, res.checks, res.root, res.inplace,
                T.buffers.index(b), b.name, b.shape, b.pstride, b.temp, b.written, b.mm_keys, b.rdims,
                b.rap[0][1:], b.rap[1], b.producer is ins, ins.dst == (b.rap[0],), ins.dst[0][0] is b)

    def test_made_later_is_made_as_at_the_call(self):
        a, b = self.operands()
        matmul_fast.matmul_fresh(a, b, ())  # fills the memo
        plain = matmul_fast.fresh_matmul(a, b, ())
        want = self.state(plain)
        frame = _CallSite()
        matmul_fused._PLUS_EQUALS[(id(frame.f_code), frame.f_lasti)] = matmul_fused.PLUS_EQUALS  # as if `x += call`
        try:
            res = matmul_fast.fresh_matmul(a, b, (), frame)
        finally:
            matmul_fused._PLUS_EQUALS.clear()
        self.assertIs(type(res), matmul_fused.FusedResult)
        self.assertIsNone(T.instrs[-1].dst)
        emit.new_tile((128, 4), "float32", "sbuf", (), "later", temp=False)  # a buffer made after the call
        self.assertEqual(res.buf.name, plain.buf.name)  # reading buf makes the tile
        got = self.state(res)
        self.assertEqual(got[:8], want[:8])
        self.assertEqual(got[8], want[8] + 1)  # its place is the call's: before `later`, after `plain`'s
        self.assertEqual(got[9:], want[9:])

        def fields(ins):  # every slot but the destination (each result's own tile); an unset slot is said so
            return {name: getattr(ins, name, "unset") for name in Instr.__slots__ if name != "dst"}
        self.assertEqual(fields(res.buf.producer), fields(plain.buf.producer))  # made field by field at the call
        with self.assertRaisesRegex(AssertionError, "used after"):
            matmul_fused.materialise(res)

    def test_a_result_left_open_is_made_by_the_next_call_of_its_trace_only(self):
        a, b = self.operands()
        matmul_fast.matmul_fresh(a, b, ())  # fills the memo
        frame = _CallSite()
        matmul_fused._PLUS_EQUALS[(id(frame.f_code), frame.f_lasti)] = matmul_fused.PLUS_EQUALS
        try:
            first = matmul_fast.fresh_matmul(a, b, (), frame)
            n_buffers = len(T.buffers)
            matmul_fast.fresh_matmul(a, b, (), frame)  # the first was never consumed: made now, at its place
            self.assertIs(type(first), type(a))
            self.assertIs(T.buffers[n_buffers], first.buf)
            T.reset()  # a new trace: what the old one left open is dropped, not made into the new trace
            T.replicate = False
            a, b = self.operands()
            matmul_fast.fresh_matmul(a, b, (), frame)
            self.assertEqual([x.name for x in T.buffers], ["a", "b"])
        finally:
            matmul_fused._PLUS_EQUALS.clear()

    def test_language_matmul_fuses_only_before_a_plus_equals(self):
        a, b = self.operands()
        acc = emit.new_tile((128, 512), "float32", "psum", (), "acc", temp=False)
        acc.buf.zeroed = acc.buf.written = True
        language.matmul(a, b, transpose_x=True)  # the general path, which fills the memo
        res = language.matmul(a, b, transpose_x=True)
        self.assertIs(type(res), type(acc))  # stored or passed on: a tile at once
        n_buffers = len(T.buffers)
        acc += language.matmul(a, b, transpose_x=True)
        self.assertEqual(len(T.buffers), n_buffers)  # consumed: no result tile
        self.assertIsNone(matmul_fused._open[0])
        self.assertEqual(T.instrs[-1].dst, (acc.buf.rap[0],))


if __name__ == "__main__":
    unittest.main()
