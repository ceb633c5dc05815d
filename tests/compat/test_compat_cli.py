"""End-to-end tests of `kernellens-cli compat` on the fixture kernels in tests/compat/kernels.

Run by ctest (compat.cli) with KL_CLI set to the built kernellens-cli; the working directory is tests/compat.
Never asserts on wall-clock figures (the JSON's "seconds").
"""
import json
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("KL_CLI", "kernellens-cli")
RESULT_KEYS = ["file", "kernel", "status", "hw", "instructions", "simulated_ns", "error", "skip_reason",
               "shape_source", "seconds"]


def compat(*args):
    run = subprocess.run([CLI, "compat", *args], cwd=HERE, capture_output=True, text=True, timeout=600)
    return run.returncode, run.stdout, run.stderr


def row(table, file, kernel):
    for line in table.splitlines():
        cells = line.split()
        if len(cells) >= 2 and cells[0] == file and cells[1] == kernel:
            return line
    raise AssertionError(f"no row for {file} {kernel} in:\n{table}")


class ManifestRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.json_path = os.path.join(cls.tmp.name, "compat.json")
        cls.code, cls.out, cls.err = compat("--manifest", "manifest.json", "--root", ".", "--json", cls.json_path)
        with open(cls.json_path, encoding="utf-8") as fh:
            cls.doc = json.load(fh)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_exit_status_is_one_when_a_kernel_fails(self):
        self.assertEqual(self.code, 1, self.out + self.err)

    def test_table_rows(self):
        self.assertRegex(self.out.splitlines()[0], r"^FILE\s+KERNEL\s+STATUS\s+INSTR\s+TIME\s+PROBLEM$")
        passing = row(self.out, "kernels/copy_nki.py", "copy_tile")
        self.assertRegex(passing, r"\bsimulated\s+\d+\s+[\d.]+ (ns|us|ms)$")
        failing = row(self.out, "kernels/raises.py", "raises")
        self.assertIn(" failed ", failing)
        self.assertIn("raises.py:14: kernel_error: ", failing)
        self.assertIn("scale must be 2, got 3", failing)
        self.assertEqual(self.out.splitlines()[-1], "1 simulated, 1 failed, 0 skipped")

    def test_progress_on_stderr(self):
        self.assertRegex(self.err, r"\[1/2\] kernels/copy_nki.py:copy_tile \.\.\. simulated, \d[\d,]* instr, [\d.]+ ")
        self.assertIn("[2/2] kernels/raises.py:raises ... failed: raises.py:14: kernel_error:", self.err)

    def test_json(self):
        doc = self.doc
        self.assertEqual(list(doc), ["hw", "summary", "results"])
        self.assertEqual(doc["hw"], "trn2")
        self.assertEqual(doc["summary"], {"total": 2, "simulated": 1, "traced_only": 0, "failed": 1, "skipped": 0})
        passing, failing = doc["results"]
        for r in (passing, failing):
            self.assertEqual(list(r), RESULT_KEYS)
        self.assertEqual((passing["file"], passing["kernel"], passing["status"]),
                         ("kernels/copy_nki.py", "copy_tile", "simulated"))
        self.assertIsInstance(passing["instructions"], int)
        self.assertGreater(passing["instructions"], 0)
        self.assertGreater(passing["simulated_ns"], 0)
        self.assertIsNone(passing["error"])
        self.assertEqual(passing["shape_source"], "tests/compat/manifest.json")
        self.assertEqual(failing["status"], "failed")
        self.assertIsNone(failing["instructions"])
        self.assertIsNone(failing["simulated_ns"])
        self.assertEqual({k: failing["error"][k] for k in ("code", "file", "line")},
                         {"code": "kernel_error", "file": "raises.py", "line": 14})
        self.assertIn("scale must be 2", failing["error"]["message"])


class OtherRuns(unittest.TestCase):
    def test_a_path_keeps_only_the_manifest_entries_under_it(self):
        code, out, err = compat("--manifest", "manifest.json", "kernels/copy_nki.py")
        self.assertEqual(code, 0, out + err)
        self.assertEqual(out.splitlines()[-1], "1 simulated, 0 failed, 0 skipped")

    def test_package_root_reaches_the_front_end(self):
        code, out, err = compat("--manifest", "package_manifest.json")
        self.assertEqual(code, 1, out + err)
        rows = [line for line in out.splitlines() if line.startswith("package/mypkg/ops/staged_copy.py ")]
        self.assertEqual(len(rows), 2, out)
        self.assertIn(" simulated ", rows[0])  # imports mypkg.tiles through its package root
        self.assertIn(" failed ", rows[1])
        self.assertIn("invalid_argument: the kernel file is not inside --package-root", rows[1])

    def test_task_folder_runs_as_its_task(self):
        code, out, err = compat("kernels/task_copy", "--hw", "trn1")
        self.assertEqual(code, 0, out + err)
        self.assertIn("simulated", row(out, "kernels/task_copy", "copy_task"))

    def test_json_on_stdout_moves_the_table_to_stderr(self):
        code, out, err = compat("kernels/task_copy", "--json", "-")
        self.assertEqual(code, 0, out + err)
        self.assertEqual(json.loads(out)["results"][0]["status"], "simulated")
        self.assertIn("1 simulated, 0 failed, 0 skipped", err)

    def test_usage_errors_exit_two(self):
        with tempfile.TemporaryDirectory() as tmp:
            broken = os.path.join(tmp, "broken.json")
            with open(broken, "w", encoding="utf-8") as fh:
                json.dump({"format": 1, "entries": [{"file": "kernels/raises.py", "kernel": "raises"},
                                                    {"file": "kernels/raises.py"}]}, fh)
            cases = {
                "no input": ([], "nothing to run"),
                "unknown option": (["kernels/task_copy", "--frobnicate"], "unknown option '--frobnicate'"),
                "missing path": (["kernels/nope.py"], "kernels/nope.py"),
                "unknown profile": (["kernels/task_copy", "--hw", "trn99"], "trn99"),
                "bad timeout": (["kernels/task_copy", "--timeout", "soon"], "--timeout"),
                "broken manifest": (["--manifest", broken], 'entries[1]: field "kernel" is missing'),
                "filter matching nothing": (["--manifest", "manifest.json", "kernels/other"], "kernels/other"),
            }
            for name, (args, message) in cases.items():
                with self.subTest(name):
                    code, out, err = compat(*args)
                    self.assertEqual(code, 2, out + err)
                    self.assertIn(message, err)

    def test_paths_list_kernels_and_skip_those_that_need_arguments(self):
        code, out, err = compat("kernels")
        self.assertEqual(code, 0, out + err)
        self.assertIn("simulated", row(out, "kernels/copy_nki.py", "copy_fixed"))
        self.assertIn("skipped  ", row(out, "kernels/copy_nki.py", "copy_tile"))
        self.assertIn("needs arguments: a (give a manifest)", row(out, "kernels/copy_nki.py", "copy_tile"))
        self.assertIn("needs arguments: a, scale (give a manifest)", row(out, "kernels/raises.py", "raises"))
        self.assertIn("simulated", row(out, "kernels/task_copy", "copy_task"))
        self.assertEqual(out.splitlines()[-1], "2 simulated, 0 failed, 2 skipped")


if __name__ == "__main__":
    unittest.main()
