"""The binary IR writer (kltrace/irbin.py, irblock.py) writes the same bytes as a plain reference writer
(writer/reference_irbin.py), whether it writes the iterations of replicated loops as blocks or record by
record, and the same bytes as for a plain trace. The block path must really be taken on the matmuls, so the
test cannot pass by always falling back."""
import hashlib
import json
import os
import subprocess
import tempfile
import unittest

import kltest

EXAMPLES = os.path.join(kltest.ROOT, "examples")
SCRIPT = os.path.join(kltest.HERE, "writer", "render_both.py")
ADV = os.path.join(kltest.HERE, "replication", "adversarial.py")
INSIDE = os.path.join(kltest.HERE, "replication", "inside.py")
# Shapes whose inner loops have 6 to 16 trips (KL_TRACE_REPLICATE_MIN_TRIPS=6 replicates them) and that trace
# quickly; the reference writer is slow.
ARGS = {
    "matmul_basic_tiled": ["lhsT=1024x256:bfloat16", "rhs=1024x1024:bfloat16"],
    "matmul_blocked": ["lhsT=2048x512:bfloat16", "rhs=2048x2048:bfloat16"],
    "matmul_hoisted": ["lhsT=2048x256:bfloat16", "rhs=2048x1024:bfloat16"],
    "matmul_optimized": ["lhsT=2048x2048:bfloat16", "rhs=2048x2048:bfloat16"],
}


def render(args, replicate, min_trips="6"):
    env = dict(os.environ, KL_TRACE_REPLICATE=replicate)
    env.pop("KL_TRACE_REPLICATE_MIN_TRIPS", None)
    if min_trips:
        env["KL_TRACE_REPLICATE_MIN_TRIPS"] = min_trips
    proc = subprocess.run([kltest.PYTHON, *kltest.APP_FLAGS, SCRIPT, *args], capture_output=True, text=True, env=env,
                          timeout=300)
    if proc.returncode != 0:
        raise AssertionError(proc.stdout + proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


class WriterAgrees(unittest.TestCase):
    def agree(self, args, min_trips="6"):
        """The replicated run's figures, after checking every way of writing gives the same bytes."""
        rep = render(args, "1", min_trips)
        plain = render(args, "0", min_trips)
        self.assertTrue(rep["same_as_reference"], f"blocks differ from the reference writer: {args}")
        self.assertTrue(rep["same_as_records"], f"blocks differ from record by record: {args}")
        self.assertTrue(rep["same_as_compiled"], f"column blocks differ from compiled blocks: {args}")
        self.assertTrue(plain["same_as_reference"], f"the writer differs from the reference writer: {args}")
        self.assertEqual(plain["blocks"], 0)
        self.assertEqual(rep["sha256"], plain["sha256"], f"replicated and plain traces differ: {args}")
        return rep

    def test_every_example(self):
        names = sorted(n for n in os.listdir(EXAMPLES) if os.path.isfile(os.path.join(EXAMPLES, n, "task.json")))
        written = {}
        for name in names:
            with self.subTest(example=name):
                args = ["--task", os.path.join(EXAMPLES, name)]
                for a in ARGS.get(name, ()):
                    args += ["--arg", a]
                written[name] = self.agree(args)["blocks_written"]
        for name in ARGS:
            self.assertGreater(written[name], 0, f"{name}: no block was written")

    def test_nested_replication_of_matmul_optimized(self):
        """matmul_optimized as the application traces it: its N-block and K-block loops (8 trips) replicate over
        their inner loops, which replicate inside them; their iterations (600 and 4,896 records) are written as
        blocks column by column (ircolumns.py: too large to compile); the bytes equal plain tracing's, the
        reference writer's and those of the compiled or record-by-record paths."""
        rep = self.agree(["--task", os.path.join(EXAMPLES, "matmul_optimized")], min_trips=None)
        self.assertGreater(rep["nested"], 0, rep)
        self.assertEqual(rep["blocks_written"], rep["blocks"])
        self.assertLess(rep["objects"], rep["instructions"])

    def test_nested_templates_are_not_expanded(self):
        """Nested replication keeps an outer loop's template as traced, with the blocks of the inner loops
        replicated in it as its inner blocks (replay.Block.inner): no iteration written from a template becomes an
        object while tracing (the trace holds exactly the traced records), the blocks nest as deep as the loops,
        and the writers that repeat them (binary: replay.flatten then a block; JSON: materialize) give the bytes of
        plain tracing. Expanding inner blocks into the outer template (made objects, one level) fails it."""
        three = self.agree(["--kernel-file", INSIDE, "--kernel", "three_levels", "--arg", "a=122880x64:float32"])
        optimized = self.agree(["--task", os.path.join(EXAMPLES, "matmul_optimized")], min_trips=None)
        for rep in (three, optimized):
            self.assertEqual(rep["objects"], rep["traced"], rep)
            self.assertEqual(rep["nesting"], 3, rep)  # i > k > j; N blocks > K blocks > the 16 M tiles
            self.assertEqual(rep["blocks_written"], rep["blocks"], rep)
        self.assertLess(optimized["objects"] * 10, optimized["instructions"], optimized)

    def test_written_in_pieces(self):
        """The front end writes the binary IR piece by piece (irbin.render_parts, cli.write_output), to -o's file and
        to an inherited descriptor that already holds a longer file: both are the bytes irbin.render joins."""
        task = os.path.join(EXAMPLES, "matmul_blocked")
        want = render(["--task", task], "1", min_trips=None)["sha256"]
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "ir.bin")
            proc = subprocess.run([kltest.PYTHON, *kltest.APP_FLAGS, kltest.MAIN, "--task", task, "--format", "binary",
                                   "-o", out], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            fd_out = os.path.join(tmp, "fd.bin")
            with open(fd_out, "wb") as fh:
                fh.write(b"x" * (8 << 20))  # longer than the IR: the descriptor's file is truncated first
            fd = os.open(fd_out, os.O_RDWR)
            try:
                proc = subprocess.run([kltest.PYTHON, *kltest.APP_FLAGS, kltest.MAIN, "--task", task, "--format",
                                       "binary", "--output-fd", str(fd)],
                                      capture_output=True, text=True, pass_fds=(fd,))
            finally:
                os.close(fd)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            for path in (out, fd_out):
                with open(path, "rb") as fh:
                    self.assertEqual(hashlib.sha256(fh.read()).hexdigest(), want, path)

    def test_replicated_iterations_are_not_objects(self):
        """Lazy replication: the iterations a loop replicated exist only as a block until a writer needs them, so
        the trace holds far fewer instruction objects than the IR has instructions (and the bytes still agree)."""
        args = ["--task", os.path.join(EXAMPLES, "matmul_basic_tiled"), "--arg", "lhsT=4096x256:bfloat16", "--arg",
                "rhs=4096x1024:bfloat16"]
        rep = self.agree(args)
        self.assertLess(rep["objects"] * 2, rep["instructions"], rep)

    def test_pooled_moving_operands(self):
        """A loop whose moving operands were pooled by an earlier loop (each iteration's index looked up, written as
        an explicit column of the block's arrays) writes the bytes of plain tracing, as a block: both loops are
        written as blocks, which fails when replication is off."""
        rep = self.agree(["--kernel-file", ADV, "--kernel", "rows_read_twice", "--arg", "a=4096x64:float32"])
        self.assertEqual(rep["blocks_written"], 2, rep)
        self.assertEqual(rep["blocks"], 2, rep)

    def test_adversarial_kernels(self):
        """Loops that replicate with a twist (a tile used after the loop, PSUM accumulation, nested loops, short
        loops) and loops that must not."""
        cases = [("plain_affine", "a=2560x64:float32"), ("tile_used_after", "a=2560x64:float32"),
                 ("nested", "a=8192x64:float32"), ("short_loops", "a=2560x64:float32"),
                 ("nested_short_inner", "a=10240x64:float32"), ("nested_three_levels", "a=10240x64:float32"),
                 ("nested_tile_after_outer", "a=10240x64:float32"),
                 ("nested_psum", "a=10240x64:bfloat16", "w=10240x128:bfloat16"),
                 ("branch_on_k", "a=2560x64:float32"), ("carried_tile", "a=2560x64:float32"),
                 ("psum_accumulate", "a=4096x64:bfloat16", "w=4096x128:bfloat16"),
                 ("zeros_first_read_in_loop", "a=2560x64:float32"), ("packed_rows", "a=2560x64:float32"),
                 ("nested_stores_twice", "a=256x64:float32")]
        cases = [(ADV, *c) for c in cases]
        # Inner loops replicated inside replicated outer loops (their templates hold the inner loops' iterations).
        cases += [(INSIDE, "two_levels", "a=20480x64:float32"), (INSIDE, "tiles_read_after", "a=20480x64:float32"),
                  (INSIDE, "three_levels", "a=61440x64:float32")]
        total = 0
        for path, name, *shapes in cases:
            with self.subTest(kernel=name):
                args = ["--kernel-file", path, "--kernel", name]
                for a in shapes:
                    args += ["--arg", a]
                rep = self.agree(args)
                self.assertEqual(rep["blocks_written"], rep["blocks"])
                total += rep["blocks_written"]
        self.assertGreater(total, 0)


if __name__ == "__main__":
    unittest.main()
