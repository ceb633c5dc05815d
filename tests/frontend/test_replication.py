"""Loop replication (kltrace/replicate.py) gives exactly the IR of plain tracing.

Every kernel is traced twice in fresh interpreters, with KL_TRACE_REPLICATE=0 and =1, and the two IR
documents must be byte-identical (or the two traces fail with the same error). The replication figures
the front end prints on stderr show that the replicated cases really were replicated and the adversarial
ones (replication/adversarial.py) really fell back to plain tracing, so a test cannot pass by never
replicating. KL_TRACE_REPLICATE_MIN_TRIPS=6 lets the short loops of the small corpus kernels replicate too.
"""
import json
import os
import re
import subprocess
import tempfile
import unittest

import kltest
from kltest import good, run
from replication import shortcut_tests

ADV = os.path.join(kltest.HERE, "replication", "adversarial.py")
EXAMPLES = os.path.join(kltest.ROOT, "examples")
CURRENT = os.path.join(kltest.HERE, "current")
_STATS = re.compile(r"replicated (\d+) loops \((\d+) iterations\), (\d+) rolled back")
_NESTED = re.compile(r"rolled back, (\d+) nested")
_EARLY = re.compile(r"(\d+) decided early")
SHORT = {"KL_TRACE_REPLICATE_MIN_TRIPS": "6"}


def both(*args, env=None, flags=()):
    """(plain result, replicated result) of one trace."""
    env = dict(env or {})
    plain = run(*args, env=dict(env, KL_TRACE_REPLICATE="0"), flags=flags)
    rep = run(*args, env=dict(env, KL_TRACE_REPLICATE="1"), flags=flags)
    return plain, rep


def stats(result):
    m = _STATS.search(result.stderr)
    return tuple(map(int, m.groups())) if m else None


def early(result):
    """How many of the replicated loops decided after iterations 0, 1 and 2 (replicate.EARLY)."""
    m = _EARLY.search(result.stderr)
    return int(m.group(1)) if m else None


def nested(result):
    """How many of the replicated loops held inner loops (nested replication)."""
    m = _NESTED.search(result.stderr)
    return int(m.group(1)) if m else None


AgreedShortcuts = shortcut_tests.AgreedShortcuts  # run with these tests (and CTest's frontend.replication)
DroppedTemporaries = shortcut_tests.DroppedTemporaries


class Agreement(unittest.TestCase):
    maxDiff = 2000

    def same(self, *args, env=None, flags=()):
        """Assert both ways agree; returns the replicated run's (loops, iterations, rolled back)."""
        plain, rep = both(*args, env=env, flags=flags)
        self.last = rep
        self.assertEqual(plain.rc, rep.rc, plain.stdout + plain.stderr + rep.stdout + rep.stderr)
        if plain.rc == 0:
            self.assertTrue(plain.text == rep.text, f"the IR differs with replication: {args}")
            self.assertEqual(stats(plain)[:2], (0, 0))
            return stats(rep)
        self.assertEqual(plain.error, rep.error)
        return None


class Adversarial(Agreement):
    """Kernels written to trip replication up: each must agree, and replicate only where it is sound."""

    def kernel(self, name, rows=2560, extra=()):
        return self.same("--kernel-file", ADV, "--kernel", name, "--arg", f"a={rows}x64:float32", *extra)

    def test_affine_body_replicates(self):
        # Iteration 0 is like the others: iterations 0, 1, 2 and 19 are traced, 16 written from iteration 2.
        loops, iterations, _ = self.kernel("plain_affine")
        self.assertEqual((loops, iterations, early(self.last)), (1, 20 - 4, 1))
        # Without the early decision iterations 0..3 and 19 are traced.
        loops, iterations, _ = self.same("--kernel-file", ADV, "--kernel", "plain_affine", "--arg",
                                         "a=2560x64:float32", env={"KL_TRACE_REPLICATE_EARLY": "0"})
        self.assertEqual((loops, iterations, early(self.last)), (1, 20 - 5, 0))

    def test_cached_access_pattern_set_from_iteration_1_decides_early(self):
        # Iteration 0's new tile has no cached whole-tile access pattern where the later ones' have one
        # (loopstate.fields): a cache, so iteration 0 still stands in for a warm-up.
        self.assertEqual(self.kernel("packed_rows"), (1, 20 - 4, 0))
        self.assertEqual(early(self.last), 1)

    def test_first_use_in_iteration_0_waits_for_iteration_3(self):
        # Iteration 0 writes the zeros of a PSUM tile made before the loop (one record more than the others).
        self.assertEqual(self.kernel("zeros_first_read_in_loop"), (1, 20 - 5, 0))
        self.assertEqual(early(self.last), 0)

    def test_control_flow_on_the_loop_variable(self):
        self.assertEqual(self.kernel("branch_on_k")[0], 0)

    def test_tile_made_in_the_loop_used_after_it(self):
        self.assertEqual(self.kernel("tile_used_after")[0], 1)

    def test_python_list_appended(self):
        self.assertEqual(self.kernel("list_appended")[0], 0)

    def test_integer_carried_between_iterations(self):
        self.assertEqual(self.kernel("counter_carried")[0], 0)

    def test_kernel_helper_with_side_effects(self):
        self.assertEqual(self.kernel("helper_with_state")[0], 0)

    def test_nested_loops_replicate_the_inner_one(self):
        loops, _, _ = self.kernel("nested", rows=8192)
        self.assertEqual(loops, 2)  # the inner loop (32 trips: long enough on its own), once per outer iteration

    def test_outer_loop_over_a_short_inner_loop_replicates(self):
        self.assertEqual(self.kernel("nested_short_inner", rows=10240), (1, 20 - 4, 0))
        self.assertEqual(nested(self.last), 1)

    def test_three_levels(self):
        self.assertEqual(self.kernel("nested_three_levels", rows=10240), (1, 20 - 4, 0))
        self.assertEqual(nested(self.last), 1)

    def test_inner_trip_count_following_the_outer_variable_falls_back(self):
        self.assertEqual(self.kernel("nested_inner_trips_follow_outer", rows=10240)[0], 0)
        self.assertEqual(self.kernel("nested_inner_trips_affine", rows=10240)[0], 0)

    def test_tiles_of_the_inner_loop_read_after_the_outer_loop(self):
        self.assertEqual(self.kernel("nested_tile_after_outer", rows=10240)[0], 1)

    def test_exception_in_the_inner_loop_of_a_late_iteration(self):
        self.assertIsNone(self.kernel("nested_late_exception", rows=10240))

    def test_break_in_the_inner_loop(self):
        self.assertEqual(self.kernel("nested_break", rows=10240)[0], 0)

    def test_kernel_closure_around_a_front_end_function(self):
        # Calls are checked before the loop runs (loopcalls.py) only when every callee is front-end code.
        self.assertEqual(self.kernel("wrapped_front_end_call")[0], 0)

    def test_stateful_helper_in_the_inner_loop(self):
        self.assertEqual(self.kernel("nested_helper_in_inner", rows=10240)[0], 0)

    def test_psum_accumulation_over_a_short_inner_loop(self):
        loops, _, _ = self.same("--kernel-file", ADV, "--kernel", "nested_psum", "--arg", "a=10240x64:bfloat16",
                                "--arg", "w=10240x128:bfloat16")
        self.assertEqual(loops, 1)
        self.assertEqual(nested(self.last), 1)

    def test_exception_in_a_late_iteration(self):
        self.assertIsNone(self.kernel("late_exception", rows=4096))
        self.assertIsNone(self.kernel("helper_raises"))

    def test_trip_counts_one_and_two(self):
        loops, _, _ = self.kernel("short_loops")
        self.assertEqual(loops, 1)  # only the long third loop
        self.assertEqual(self.kernel("short_loops", extra=(), rows=640)[0], 0)
        self.assertEqual(self.same("--kernel-file", ADV, "--kernel", "short_loops", "--arg", "a=640x64:float32",
                                   env=SHORT)[0], 0)

    def test_modulo_floor_division_and_squares(self):
        self.assertEqual(self.kernel("modulo_buffers")[0], 0)

    def test_python_table_indexed_by_the_loop_variable(self):
        self.assertEqual(self.kernel("table_lookup")[0], 0)

    def test_tile_of_the_previous_iteration(self):
        self.assertEqual(self.kernel("carried_tile")[0], 0)

    def test_temporary_made_before_the_loop_assigned_in_it(self):
        # Iteration 0 drops a tile made before the loop's first mark: it keeps its place (T.marked), and the
        # loop still replicates from iteration 1 on.
        self.assertEqual(self.kernel("temporary_made_before_the_loop")[0], 1)

    def test_psum_accumulation(self):
        loops, _, _ = self.same("--kernel-file", ADV, "--kernel", "psum_accumulate", "--arg", "a=4096x64:bfloat16",
                                "--arg", "w=4096x128:bfloat16")
        self.assertEqual(loops, 1)

    def test_partial_last_tile_is_refused_the_same_way(self):
        self.assertIsNone(self.kernel("clamped_tail", rows=4032))

    def test_reads_past_the_end_before_the_last_iteration(self):
        self.assertIsNone(self.kernel("rows_overrun_midway", rows=4096))
        self.assertIn("out of bounds", self.last.error["message"])

    def test_inner_dimension_overrun(self):
        # Known difference (replicate.py): the out-of-order last iteration reports its own columns.
        plain, rep = both("--kernel-file", ADV, "--kernel", "column_overrun", "--arg", "a=256x64:float32")
        self.assertEqual((plain.rc, rep.rc), (2, 2))
        for key in ("code", "file", "line", "hint"):
            self.assertEqual(plain.error[key], rep.error[key])

    def test_exception_caught_around_the_loop(self):
        loops, _, _ = self.kernel("caught_overrun", rows=256)
        self.assertEqual(loops, 0)

    def test_loop_in_a_helper_generator(self):
        plain, rep = both("--kernel-file", ADV, "--kernel", "helper_generator", "--arg", "a=2560x64:float32")
        self.assertEqual((plain.rc, rep.rc), (0, 0), plain.stdout + rep.stdout + plain.stderr + rep.stderr)
        self.assertEqual(rep.ir["files"], ["adversarial.py"])  # the helper's file is not listed (as plainly)
        self.assertTrue(plain.text == rep.text)

    def test_front_end_imported_through_an_unnormalised_path_still_replicates(self):
        # Code objects keep the sys.path entry's spelling ('..' included): the check for front-end frames
        # must accept it, or every call looks like kernel code and replication silently stops.
        detour = os.path.join(kltest.ROOT, "tests", os.pardir, "sim", "frontend")
        with tempfile.TemporaryDirectory() as tmp:
            script = ("import sys; sys.path.insert(0, sys.argv[1]); from kltrace.cli import main; "
                      "sys.exit(main(sys.argv[2:]))")
            proc = subprocess.run([kltest.PYTHON, "-c", script, detour, "--kernel-file", ADV, "--kernel",
                                   "plain_affine", "--arg", "a=2560x64:float32", "-o", os.path.join(tmp, "ir.json")],
                                  capture_output=True, text=True, timeout=120,
                                  env=dict(os.environ, KL_TRACE_REPLICATE="1"))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        found = _STATS.search(proc.stderr)
        self.assertIsNotNone(found, proc.stderr)
        self.assertGreater(int(found.group(1)), 0, proc.stderr)

    def test_roll_back_after_either_decision(self):
        # Every last iteration judged a mismatch (replication/force_rollback.py): the records of the out-of-order
        # last iteration are rolled back and the loop runs on plainly, from iteration 3 after the early decision
        # (plain_affine), from iteration 4 after the later one (zeros_first_read_in_loop).
        script = os.path.join(kltest.HERE, "replication", "force_rollback.py")
        frontend = os.path.join(kltest.ROOT, "sim", "frontend")
        for name in ("plain_affine", "zeros_first_read_in_loop"):
            with self.subTest(kernel=name), tempfile.TemporaryDirectory() as tmp:
                args = ["--kernel-file", ADV, "--kernel", name, "--arg", "a=2560x64:float32"]
                plain = run(*args, env={"KL_TRACE_REPLICATE": "0"})
                out = os.path.join(tmp, "ir.json")
                proc = subprocess.run([kltest.PYTHON, script, frontend, *args, "-o", out], capture_output=True,
                                      text=True, timeout=120, env=dict(os.environ, KL_TRACE_REPLICATE="1"))
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
                self.assertEqual(_STATS.search(proc.stderr).groups(), ("0", "0", "1"), proc.stderr)
                with open(out, encoding="utf-8") as fh:
                    self.assertTrue(fh.read() == plain.text, f"the IR differs after a roll-back: {name}")

    def test_switch_turns_it_off(self):
        r = run("--kernel-file", ADV, "--kernel", "plain_affine", "--arg", "a=2560x64:float32", "--no-replicate",
                env={"KL_TRACE_REPLICATE": "1"})
        self.assertEqual(r.rc, 0, r.stdout + r.stderr)
        self.assertEqual(stats(r)[0], 0)


INSIDE = os.path.join(kltest.HERE, "replication", "inside.py")
_COUNTS = re.compile(r"kltrace: (\d+) instructions.*, (\d+) records from templates")


def traced_share(result):
    """The share of the instructions really traced (the others written from templates)."""
    m = _COUNTS.search(result.stderr)
    n, records = map(int, m.groups())
    return (n - records) / n


class Inside(Agreement):
    """Inner loops replicated inside the iterations of a replicated outer loop (replication/inside.py)."""

    def kernel(self, name, rows=20480, env=None):
        return self.same("--kernel-file", INSIDE, "--kernel", name, "--arg", f"a={rows}x64:float32", env=env)

    def test_two_levels(self):
        # 10 outer iterations of 16 inner ones: the inner loop replicates in the 4 traced outer iterations (4 of
        # its loops, each decided early), the outer loop over them; 4 x 4 of 160 inner iterations traced.
        self.assertEqual(self.kernel("two_levels"), (5, 4 * 12 + 6, 0))
        self.assertEqual(early(self.last), 5)
        self.assertEqual(nested(self.last), 1)
        self.assertLess(traced_share(self.last), 0.2)
        # Without the inner replication the outer loop holds its inner loops plainly: 4 x 16 of 160 traced.
        self.assertEqual(self.kernel("two_levels", env={"KL_TRACE_REPLICATE_INNER": "0"}), (1, 6, 0))
        self.assertGreater(traced_share(self.last), 0.35)

    def test_three_levels(self):
        loops, _, _ = self.kernel("three_levels", rows=128 * 16 * 6 * 10)
        self.assertEqual(nested(self.last), 1 + 4)  # the outer loop, and the middle one in its 4 traced iterations
        self.assertEqual(loops, 1 + 4 + 4 * 4)
        self.assertLess(traced_share(self.last), 0.2)

    def test_inner_loops_deciding_late(self):
        # The outer loop describes the inner loops' iteration 0 itself (their decision did not compare it).
        loops, _, _ = self.kernel("inner_decides_late")
        self.assertEqual((loops, nested(self.last)), (5, 1))
        self.assertEqual(early(self.last), 1)  # the outer loop only

    def test_inner_result_retargeted_after_the_inner_loop(self):
        loops, _, _ = self.kernel("inner_result_kept_after")
        self.assertEqual((loops, nested(self.last)), (5, 1))

    def test_inner_trip_count_following_the_outer_variable(self):
        loops, _, _ = self.kernel("inner_trips_follow_outer")
        self.assertEqual((loops, nested(self.last)), (8, 0))  # every inner loop on its own, the outer one plainly

    def test_tiles_of_the_inner_loop_read_after_the_outer_loop(self):
        self.assertEqual(self.kernel("tiles_read_after")[0], 5)
        self.assertEqual(nested(self.last), 1)

    def test_exception_in_the_inner_loop_of_a_late_iteration(self):
        self.assertIsNone(self.kernel("late_exception"))

    def test_break_in_the_inner_loop(self):
        self.assertEqual(self.kernel("break_in_inner")[0], 0)

    def test_kernel_closures(self):
        self.assertEqual(self.kernel("closure_in_inner")[0], 0)
        self.assertEqual(self.kernel("pure_closure_in_inner")[0], 0)


class Examples(Agreement):
    """Every example, as the application traces it; the matmuls replicate with the default threshold."""

    def test_every_example(self):
        replicated = {}
        for name in sorted(os.listdir(EXAMPLES)):
            if not os.path.isfile(os.path.join(EXAMPLES, name, "task.json")):
                continue
            with self.subTest(example=name):
                replicated[name] = self.same("--task", os.path.join(EXAMPLES, name), flags=kltest.APP_FLAGS)[0]
                if name == "matmul_optimized":
                    self.optimized = self.last
        for name in ("matmul_basic_tiled", "matmul_blocked", "matmul_hoisted"):
            self.assertGreater(replicated[name], 0, name)
        # matmul_optimized's loops of 8 and 16 trips all hold inner loops: only nested replication takes them.
        self.assertGreater(replicated["matmul_optimized"], 0)
        self.assertGreater(nested(self.optimized), 0)

    def test_short_loops_of_every_example(self):
        for name in sorted(os.listdir(EXAMPLES)):
            if name.startswith("matmul") or not os.path.isfile(os.path.join(EXAMPLES, name, "task.json")):
                continue
            with self.subTest(example=name):
                self.same("--task", os.path.join(EXAMPLES, name), env=SHORT, flags=kltest.APP_FLAGS)

    def test_binary_form_too(self):
        data = {}
        with tempfile.TemporaryDirectory() as tmp:
            for mode in ("0", "1"):
                out = os.path.join(tmp, f"ir{mode}.bin")
                proc = subprocess.run([kltest.PYTHON, *kltest.APP_FLAGS, kltest.MAIN, "--task",
                                       os.path.join(EXAMPLES, "matmul_blocked"), "--format", "binary", "-o", out],
                                      capture_output=True, text=True, env=dict(os.environ, KL_TRACE_REPLICATE=mode))
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
                with open(out, "rb") as fh:
                    data[mode] = fh.read()
        self.assertTrue(data["0"] == data["1"])

    def test_numerics_mode_is_unchanged(self):
        docs = []
        for mode in ("0", "1"):
            r = run("--task", os.path.join(EXAMPLES, "matmul_basic_tiled"), "--numerics",
                    env={"KL_TRACE_REPLICATE": mode})
            self.assertEqual(r.rc, 0, r.stdout + r.stderr)
            doc = json.loads(r.text)
            del doc["value_ms"]  # wall time
            docs.append(doc)
        self.assertTrue(docs[0] == docs[1])


# Corpus kernels under tests/frontend/good with arguments that give their loops enough iterations.
GOOD = [
    ("vadd_legacy.py", "a=4096x512:float32", "b=4096x512:float32"),
    ("vadd_nki.py", "a=4096x512:float32", "b=4096x512:float32"),
    ("matmul_tiled_legacy.py", "lhsT=2048x256:bfloat16", "rhs=2048x1024:bfloat16"),
    ("matmul_nki.py", "lhsT=2048x128:bfloat16", "rhs=2048x512:bfloat16"),
    ("mask_arange.py", "a=3000x64:float32"),
    ("spmd_legacy.py", "a=2048x512:float32", "--grid", "2x2"),
    ("load_into_views.py", "a=128x64:float32", "b=128x64:float32"),
    ("locs_and_scalars.py", "a=2048x64:float32"),
    ("misc_legacy.py", "a=128x256:bfloat16", "w=128x64:bfloat16"),
    ("reduce_broadcast.py", "a=128x512:float32", "c=128x4x8:float32"),
    ("reduce_rmsnorm.py", "act=3000x256:float32", "gain=256:float32"),
    ("reduce_softmax.py", "x=128x512:float32"),
    ("with_helper.py", "a=128x64:float32"),
    ("helper_ops.py", "a=128x64:float32"),
    ("psum_name_accumulate.py", "a=128x64:float32"),
]


class Corpus(Agreement):
    """The corpus kernels under tests/ (good/ and current/), with short loops replicating too."""

    def test_good_kernels(self):
        total = 0
        for entry in GOOD:
            args = ["--kernel-file", good(entry[0])]
            rest = list(entry[1:])
            while rest:
                a = rest.pop(0)
                args += [a, rest.pop(0)] if a.startswith("--") else ["--arg", a]
            with self.subTest(kernel=entry[0]):
                s = self.same(*args, env=SHORT)
                total += s[0] if s else 0
        self.assertGreater(total, 5)

    def test_current_nki_kernels(self):
        with open(os.path.join(CURRENT, "compat.json"), encoding="utf-8") as fh:
            entries = json.load(fh)["entries"]
        for e in entries:
            args = ["--kernel-file", os.path.join(CURRENT, e["file"]), "--kernel", e["kernel"]]
            if "package_root" in e:
                args += ["--package-root", os.path.join(CURRENT, e["package_root"])]
            for a in e["args"]:
                args += ["--arg", f"{a['name']}={'x'.join(map(str, a['shape']))}:{a['dtype']}"]
            for k, v in e.get("scalars", {}).items():
                args += ["--scalar", f"{k}={v}"]
            if e.get("hw"):
                args += ["--target", e["hw"]]
            with self.subTest(kernel=e["file"]):
                self.same(*args, env=SHORT)


class FastPaths(unittest.TestCase):
    """The shortcuts replication and its block writer take (in this process), against the slower way they
    replace: each must give exactly what the slower way gives."""

    @classmethod
    def setUpClass(cls):
        import sys
        sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))

    def test_for_iter_offsets_as_dis_gives_them(self):
        import dis
        import gc
        from kltrace import loopcheck
        codes = [o.__code__ for o in gc.get_objects() if type(o).__name__ == "function"]
        source = "def f(x):\n    for i in x:\n        for j in range(i):\n            pass\n    else:\n        pass\n" \
                 "    return [a for a in x if a], sum(b for b in x)\n"
        scope = {}
        exec(compile(source, "<loops>", "exec"), scope)
        codes.append(scope["f"].__code__)
        codes += [c for c in scope["f"].__code__.co_consts if hasattr(c, "co_code")]
        with_loops = 0
        for code in codes:
            want = frozenset(i.offset for i in dis.get_instructions(code) if i.opname == "FOR_ITER")
            self.assertEqual(loopcheck.for_iter_offsets(code), want, code)
            with_loops += bool(want)
        self.assertGreater(with_loops, 10)

    def test_following_reads_what_dis_gives(self):
        # bytecode.following decodes co_code itself: every function loaded here and one with more than 256
        # constants (EXTENDED_ARG before LOAD_CONST) must give dis's opnames and offsets, LOAD_CONST's argval and
        # BINARY_OP's argrepr (`+=` is what plus_equals_follows looks for).
        import dis
        import gc
        from kltrace import bytecode
        source = "def f(t, x):\n    t[...] += x\n    return [" + ", ".join(f"x + {k}.5" for k in range(300)) + "]\n"
        scope = {}
        exec(compile(source, "<consts>", "exec"), scope)
        codes = [o.__code__ for o in gc.get_objects() if type(o).__name__ == "function"] + [scope["f"].__code__]
        for code in codes:
            want = [(i.opname, i.offset, i.argval if i.opname == "LOAD_CONST" else None,
                     i.argrepr if i.opname == "BINARY_OP" else "") for i in dis.get_instructions(code)]
            got = [(i.opname, i.offset, i.argval, i.argrepr) for i in bytecode.following(code, -1)]
            self.assertEqual(got, want, code)
        names = [i.opname for i in bytecode.following(scope["f"].__code__, -1)]
        self.assertIn("EXTENDED_ARG", names)
        self.assertIn("+=", [i.argrepr for i in bytecode.following(scope["f"].__code__, -1)])

    def test_loop_shape_answers_each_loop_of_a_function(self):
        # loop_shape keeps its answer per FOR_ITER offset: two loops of one function, one replicable and one with
        # a branch, must keep their own answers on every call.
        import sys
        from kltrace import loopcheck
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "two_loops.py")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write("def run(probe):\n    for i in probe():\n        t = i + 1\n"
                         "    for j in probe():\n        if j:\n            t = j\n")
            scope = {}
            with open(path, encoding="utf-8") as fh:
                exec(compile(fh.read(), path, "exec"), scope)
            shapes = []

            def probe():
                shapes.append(loopcheck.loop_shape(sys._getframe(1)))
                yield 0

            for _ in range(3):
                scope["run"](probe)
            loopcheck.clear()
            scope["run"](probe)
        self.assertIsNotNone(shapes[0])
        self.assertEqual([s is None for s in shapes], [False, True] * 4)
        self.assertEqual(len({id(s) for s in shapes[0:6:2]}), 1)

    def test_buffer_fields_round_trip(self):
        from kltrace import loopstate, replay
        from kltrace.tracer import Buffer
        b = Buffer("acc", "sbuf", (128, 512), "float32", "tile", ((0, 7),), kind="k", pstride=512)
        b.written, b.zeroed, b.temp, b.pinned, b.dropped = True, False, True, False, False
        b.mm_keys = {(1, 2)}
        b.rdims = ((512, 128), (1, 512))
        b.rap = ((b, 0, 128, 0, ((1, 512),), "float32"), 65536)
        slots = loopstate.buffer_slots(b)
        made = replay.new_buffer(slots)
        for name in loopstate.BUF_SLOTS:
            if name not in ("rap", "producer"):
                self.assertEqual(getattr(made, name), getattr(b, name), name)
        self.assertIs(made.rap[0][0], made)
        self.assertEqual(made.rap[0][1:], b.rap[0][1:])
        self.assertEqual((made.producer, made.id), (None, -1))
        self.assertEqual(loopstate.buffer_slots(made), slots)
        b.written, b.mm_keys, b.rap, b.name = False, None, None, "other"
        loopstate.restore_buffer(b, slots)
        self.assertEqual(loopstate.buffer_slots(b), slots)
        self.assertIs(b.rap[0][0], b)

    def test_iteration_ints_of_a_nested_block(self):
        # A nested loop's block: few iterations, inner values of several depths (ircolumns._iter_pids builds the
        # ints as one array); the pool must end as irbin's one-key-at-a-time registration leaves it.
        from kltrace import irbin, ircolumns
        prefix, values, pid = (2,), [3, 4, 5], (0, 1)
        suffixes = [(), (0,), (0, 1), (1,), (1, 0, 2), (7,)]
        fast, slow = irbin._Pools(irbin._Strings()), irbin._Pools(irbin._Strings())
        for pools in (fast, slow):
            pools.iter_pid((9,), pid)  # something pooled before the block
        begins, width = ircolumns._iter_pids(fast, prefix, values, pid, suffixes)
        want = [slow.iter_pid(prefix + (v,) + x, pid) for v in values for x in suffixes]
        self.assertEqual(fast.ints.tolist(), slow.ints.tolist())
        self.assertEqual(fast._ints_at, slow._ints_at)
        self.assertEqual([b + m * width for m in range(len(values)) for b in begins], want)

    def test_iteration_ints_of_a_block_pooled_before_in_part_or_whole(self):
        # ircolumns._iter_pids registers the block's keys before it knows whether some were pooled already: if some
        # or all were, the keys it added must be taken out again and the pool must end as irbin's one-key-at-a-time
        # registration leaves it, the begins being the pooled ones.
        from kltrace import irbin, ircolumns
        prefix, values, pid = (2,), [3, 4, 5], (0, 1)
        suffixes = [(), (0,), (0, 1), (1,)]
        for pooled in ([(4, (0,))], [(v, x) for v in values for x in suffixes]):
            fast, slow = irbin._Pools(irbin._Strings()), irbin._Pools(irbin._Strings())
            for pools in (fast, slow):
                pools.iter_pid((9,), pid)
                for v, x in pooled:
                    pools.iter_pid(prefix + (v,) + x, pid)
            begins, width = ircolumns._iter_pids(fast, prefix, values, pid, suffixes)
            want = [slow.iter_pid(prefix + (v,) + x, pid) for v in values for x in suffixes]
            self.assertIsNone(width)
            self.assertEqual(list(begins), want)
            self.assertEqual(fast.ints.tolist(), slow.ints.tolist())
            self.assertEqual(fast._ints_at, slow._ints_at)
            self.assertEqual(list(fast._ints_at.values()), list(slow._ints_at.values()))

    def _trace_inside(self, kernel, rows=20480):
        """Trace an inside.py kernel in this process with replication on; returns the tracer."""
        return shortcut_tests.trace_inside(kernel, rows)

    def test_agreed_iterations_are_those_the_inner_decision_compared(self):
        # Block.agreed: the two iterations before the template, whether the inner loop decided early (0, 1, then 2)
        # or late (1, 2, then 3: iteration 0 was not compared and must still be described by the loops around).
        for kernel in ("two_levels", "inner_decides_late", "inner_result_kept_after"):
            t = self._trace_inside(kernel)
            inner = [b for b in t.blocks if len(b.prefix) == 1]
            self.assertEqual(len(inner), 4, kernel)
            for b in inner:
                self.assertEqual(b.ta - b.agreed, 2 * b.q, kernel)

    def test_descriptions_without_agreed_records_decide_as_full_ones(self):
        # Every pair of iterations a loop describes compares equal with the inner loops' agreed records left out
        # (loopstate.agreed_spans) exactly when it does with every record described, and the stepping integers
        # are the same either way.
        from kltrace import loopstate, replicate
        from kltrace.tracer import T
        described = []
        full = replicate._Replicator._describe

        def both(rep, i, last=False):
            a, _, kb = rep.marks[i]
            agreed = loopstate.agreed_spans(T.blocks[kb:rep.ends[i][2] if not last else len(T.blocks)], a)
            got = full(rep, i, last)
            spans = replicate.agreed_spans
            replicate.agreed_spans = lambda blocks, a: ()
            try:
                whole = full(rep, i, last)
            finally:
                replicate.agreed_spans = spans
            # Left out: each span's records and its iterations' new buffers, for one marker per span.
            left_out = sum(t - s + blk.nb * ((t - s) // blk.q) - 1 for s, t, blk in agreed)
            if got is not None:
                self.assertEqual(len(whole[0]) - len(got[0]), left_out)
            described.append((rep, got, whole))
            return got

        replicate._Replicator._describe = both
        try:
            for kernel in ("two_levels", "inner_decides_late", "inner_result_kept_after"):
                self._trace_inside(kernel)
            self._trace_inside("three_levels", rows=128 * 16 * 6 * 10)
        finally:
            replicate._Replicator._describe = full
        skipped = 0
        for rep in {id(r): r for r, _, _ in described}.values():
            mine = [(g, w) for r, g, w in described if r is rep]
            for g1, w1 in mine:
                self.assertEqual(g1 is None, w1 is None)
                if g1 is None:
                    continue
                self.assertEqual(g1[1], w1[1])
                skipped += len(w1[0]) - len(g1[0])
                for g2, w2 in mine:
                    if g2 is not None:
                        self.assertEqual(g1[0] == g2[0], w1[0] == w2[0])
        self.assertGreater(skipped, 100)  # the shortcut was taken


if __name__ == "__main__":
    unittest.main()
