"""The statement-level memo of `t[key] = nl.load(src)` (kltrace/pending.py, LoadSite) gives what the general path
gives: the same IR, exit code, messages and warnings, and the same value in every slot of every recorded
instruction. Each kernel is traced in a subprocess twice, once as shipped and once with the memo off (a LoadSite
that never keeps anything), plain (--no-replicate) and replicated; the memo's cases are the loops where it is used
and the keys and sources it must refuse after it was made."""
import importlib
import os
import subprocess
import sys
import tempfile
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

importlib.import_module("kltrace.api")  # binds the operators onto Tensor; nothing in it is used by name
from kltrace import pending  # noqa: E402
from kltrace.indexing import mgrid  # noqa: E402
from kltrace.tensor import _PENDING_VIEW, Tensor  # noqa: E402
from kltrace.tracer import T, Buffer  # noqa: E402

_KERNEL = '''
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


class Side:
    """A value whose attribute records an instruction on its third read (a key that records, at a memo's hit)."""

    def __init__(self, tile):
        self.tile = tile
        self.reads = 0

    @property
    def block(self):
        self.reads += 1
        if self.reads == 3:
            nl.exp(self.tile)
        return 0


@nki.jit
def k(a, ix):
    out = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    i = nl.mgrid[0:128, 0:512]
    j = nl.mgrid[0:128, 0:256]
    for m in nl.affine_range(2):
        t = nl.ndarray((4, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
        BODY
        nl.store(out, value=nl.exp(t[0, i.p, i.x]))
    return out
'''

# Statements at the body's place (indented by 8 spaces), each with the tile `t` above.
_BODIES = {
    "blocks of tiles made per iteration": """for b in nl.affine_range(4):
            t[b, i.p, i.x] = nl.load(a[b * 128 + i.p, m * 0 + i.x])
        u = nl.ndarray((2, 4, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
        for c in nl.affine_range(2):
            for b in nl.affine_range(4):
                u[c, b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])
                u[c, b, j.p, 256 + j.x] = nl.load(a[(b + c) * 128 + j.p, 256 + j.x])""",
    "a block index past the tile's blocks (an error)": """for b in nl.affine_range(5):
            t[b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])""",
    "a negative block index (from the end)": """for b in nl.affine_range(4):
            t[2 - b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])""",
    "a negative block index of four keys": """t[0, i.p, i.x] = nl.load(a[i.p, i.x])
        u = nl.ndarray((2, 4, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
        for c in nl.affine_range(3):
            u[1 - c, 1, i.p, i.x] = nl.load(a[c * 128 + i.p, i.x])
            u[1, 1 - c, i.p, i.x] = nl.load(a[c * 128 + i.p, i.x])""",
    "a source past the tensor (an error)": """for b in nl.affine_range(6):
            t[b % 4, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])""",
    "a source of another shape (an error)": """for w in (512, 512, 256):
            t[0, i.p, i.x] = nl.load(a[0:128, 0:w])""",
    "other expressions at the same statement": """for g in (i, j, i):
            t[1, g.p, g.x] = nl.load(a[128 + g.p, g.x])
        left = j.x
        right = 256 + j.x
        u = nl.ndarray((2, 4, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
        for x in (left, left, right, left):
            t[2, j.p, x] = nl.load(a[j.p, x])
            u[1, 2, j.p, x] = nl.load(a[j.p, x])""",
    "tiles of another dtype at the same statement":
        """v = nl.ndarray((4, nl.par_dim(128), 512), dtype=nl.float32, buffer=nl.sbuf)
        for x in (t, v, t):
            for b in nl.affine_range(2):
                x[b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])""",
    "tiles with another partition stride at the same statement":
        """w = nl.ndarray((2, nl.par_dim(128), 1024), dtype=a.dtype, buffer=nl.sbuf)
        for x in (t, w, t):
            for b in nl.affine_range(2):
                x[b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])""",
    "a PSUM destination at the same statement":
        """p = nl.ndarray((2, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.psum)
        for x in (t, p, t):
            x[1, i.p, i.x] = nl.load(a[i.p, i.x])""",
    "a key that records at a hit": """s = Side(nl.load(ix))
        for b in nl.affine_range(4):
            t[b + s.block, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])""",
    "a whole-buffer view of the same dims": """for b in nl.affine_range(2):
            t[b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])
        one = nl.ndarray((1, nl.par_dim(128), 512), dtype=a.dtype, buffer=nl.sbuf)
        for x in (t, one):
            x[0, i.p, i.x] = nl.load(a[i.p, i.x])""",
}

# The error each failing body must give (the general path's message, which the memo must not change).
_ERRORS = {
    "a block index past the tile's blocks (an error)": "index 4 is out of bounds for a dimension of size 4",
    "a source past the tensor (an error)": "index expression reaches [640, 767] but the dimension of a has size 640",
    "a source of another shape (an error)": "destination is [128, 512] but the result is [128, 256]",
}

# A front-end main that prints every slot of every recorded instruction (buffers by their index in T.buffers) to
# stderr before the IR is written, with the memo kept (MEMO = True) or never kept (a LoadSite that drops it).
_MAIN = '''
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, {frontend!r})
from kltrace import irjson, language
from kltrace.tracer import T, Buffer, Instr
if not MEMO:
    class NoMemo:
        __slots__ = ()
        src = dst = db = property(lambda self: None, lambda self, value: None)
    language.LoadSite = NoMemo
_render = irjson.render


def _plain(x, index):
    if isinstance(x, Buffer):
        return ("buffer", index[id(x)])
    if isinstance(x, (tuple, list)):
        return (type(x).__name__,) + tuple(_plain(y, index) for y in x)
    return x


def render(t, *args):
    index = {{id(b): n for n, b in enumerate(t.buffers)}}
    for ins in t.instrs:
        print([(name, _plain(getattr(ins, name, "unset"), index)) for name in Instr.__slots__], file=sys.stderr)
    return _render(t, *args)


irjson.render = render
from kltrace.cli import main
sys.stdout.flush()
os._exit(main())
'''


def trace_both(kernel_text, args):
    """(rc, stdout, stderr, IR text or None) of the kernel traced with the memo and without it."""
    with tempfile.TemporaryDirectory() as tmp:
        kernel = os.path.join(tmp, "kernel.py")
        with open(kernel, "w", encoding="utf-8") as fh:
            fh.write(kernel_text)
        outputs = []
        for memo in (True, False):
            main = os.path.join(tmp, f"main_{memo}.py")
            with open(main, "w", encoding="utf-8") as fh:
                fh.write(_MAIN.format(frontend=os.path.join(kltest.ROOT, "sim", "frontend")).replace("MEMO",
                                                                                                     str(memo)))
            out = os.path.join(tmp, "ir.json")
            if os.path.exists(out):
                os.remove(out)
            proc = subprocess.run([kltest.PYTHON, main, "--kernel-file", kernel, *args, "-o", out],
                                  capture_output=True, text=True, timeout=120)
            text = None
            if proc.returncode == 0:
                with open(out, encoding="utf-8") as fh:
                    text = fh.read()
            outputs.append((proc.returncode, proc.stdout, proc.stderr.replace(main, "MAIN"), text))
        return outputs


class LoadMemoAgainstGeneralPath(unittest.TestCase):
    def test_every_body(self):
        for name, body in _BODIES.items():
            for replicate in (False, True):
                with self.subTest(name, replicate=replicate):
                    args = ["--arg", "a=640x512:bfloat16", "--arg", "ix=128x1:int32"]
                    with_memo, without = trace_both(_KERNEL.replace("BODY", body),
                                                    args + ([] if replicate else ["--no-replicate"]))
                    self.assertEqual(with_memo, without)
                    rc, out, err, text = with_memo
                    if name in _ERRORS:
                        self.assertEqual(rc, 2, out + err)
                        self.assertIn(_ERRORS[name], out)
                    else:
                        self.assertEqual(rc, 0, out + err)
                        self.assertIn("'dma_copy'", err)  # the slots were printed


class AnotherBufferOfTheSameDims(unittest.TestCase):
    """A destination buffer other than the memo's, viewed with the same dims object (which buffers allocated alike
    share): the memo is used only where the general path's operand is the same (pending._other_buffer_fits). Kernels
    cannot easily make such views of unlike buffers, so they are made here by hand."""

    def setUp(self):
        T.reset()
        T.replicate = False
        self.dims = ((512, 4), (2048, 128), (1, 512))  # [4, P, 512] blocks of a bfloat16 tile
        a = Buffer("a", "hbm", (512, 512), "bfloat16", "input", (0, 0))
        a.rdims = ((512, 512), (1, 512))
        self.source = Tensor(a, 0, a.rdims, "bfloat16", None, True)
        self.grid = mgrid[0:128, 0:512]

    def tile(self, name, memory="sbuf", dtype="bfloat16", shape=(128, 4, 512)):
        b = Buffer(name, memory, shape, dtype, "tile", (0, 0))
        b.rdims = ((shape[2], shape[1]), (shape[1] * shape[2], 128), (1, 512))
        T.buffers.append(b)
        return b

    def record(self, stores, memo):
        """The (destination, source) operands of `view[b, i.p, i.x] = nl.load(a[b * 128 + i.p, i.x])` for each
        (buffer, b) in stores, with one LoadSite for all (memo) or a new one for each."""
        i = self.grid
        site = pending.LoadSite()
        out = []
        for buf, b in stores:
            src = self.source[b * 128 + i.p, i.x]
            pending.pending_indexed_load(src, ((0, 1),), site if memo else pending.LoadSite())
            view = Tensor(buf, 0, self.dims, "bfloat16", None, True)
            self.assertIsNone(pending.store_pending(view, (b, i.p, i.x), _PENDING_VIEW))
            ins = T.instrs[-1]
            out.append((ins.dst, ins.src, ins.elements, ins.nbytes))
        return out

    def test_unlike_buffers_get_the_general_paths_operands(self):
        first = self.tile("first")
        same = self.tile("same")
        unlike = [self.tile("float32", dtype="float32"), self.tile("wider", shape=(128, 8, 512)),
                  self.tile("in HBM", memory="hbm"), self.tile("in PSUM", memory="psum"), self.tile("root")]
        # A buffer whose whole view has the template's result dims: its kept operand (rap) is what the general
        # path takes at offset 0 (made distinguishable here).
        self.record([(first, 0)], False)  # the general path makes the key's template
        root = unlike[-1]
        root.rdims = self._result_dims()
        root.rap = ((root, 0, 128, 7, ((1, 512),), "bfloat16"), 65536)
        for other in unlike:
            with self.subTest(other.name):
                stores = [(first, 1), (first, 2), (first, 3), (same, 1), (other, 0), (other, 1), (first, 0)]
                self.assertEqual(self.record(stores, True), self.record(stores, False))

    def _result_dims(self):
        """The dims object of the template's result for this key (what the memo keeps as its result dims)."""
        i = self.grid
        lay = pending.template_layout(Tensor(self.tile("probe"), 0, self.dims, "bfloat16", None, True), (0, i.p, i.x))
        return lay[1]


if __name__ == "__main__":
    unittest.main()
