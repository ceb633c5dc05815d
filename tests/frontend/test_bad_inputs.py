"""Every kernel under bad/ must fail with the error code, message and line its header announces.

Header of a bad kernel:
    # expect: CODE: message fragment
    # args: NAME=SHAPE:DTYPE ...
    # flags: extra command-line flags (optional)
The offending line carries the comment `# ERROR`; files without it expect no line (0).
"""
import glob
import os
import tempfile
import unittest

import kltest

BAD_DIR = os.path.join(kltest.HERE, "bad")


def parse_header(path):
    spec = {"args": [], "flags": [], "line": 0}
    with open(path, encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            if text.startswith("# expect:"):
                code, fragment = text[len("# expect:"):].strip().split(": ", 1)
                spec["code"], spec["fragment"] = code, fragment
            elif text.startswith("# args:"):
                spec["args"] = text[len("# args:"):].split()
            elif text.startswith("# flags:"):
                spec["flags"] = text[len("# flags:"):].split()
            if "# ERROR" in text:
                spec["line"] = number
    return spec


class BadInputs(unittest.TestCase):
    def test_at_least_25_bad_inputs(self):
        self.assertGreaterEqual(len(glob.glob(os.path.join(BAD_DIR, "*.py"))), 25)

    def test_each_bad_input(self):
        for path in sorted(glob.glob(os.path.join(BAD_DIR, "*.py"))):
            name = os.path.basename(path)
            with self.subTest(kernel=name):
                spec = parse_header(path)
                argv = ["--kernel-file", path]
                for a in spec["args"]:
                    argv += ["--arg", a]
                result = kltest.run(*argv, *spec["flags"])
                self.assertEqual(result.rc, 2, result.stderr)
                err = result.error
                self.assertIsNotNone(err, "no JSON error object on stdout")
                self.assertEqual(set(err), {"code", "message", "file", "line", "hint"})
                self.assertEqual(err["code"], spec["code"], err)
                self.assertIn(spec["fragment"], err["message"])
                self.assertEqual(err["line"], spec["line"], err)
                if spec["line"]:
                    self.assertEqual(err["file"], name)
                self.assertNotIn("Traceback", result.stderr)
                self.assertEqual(len(result.stdout.strip().splitlines()), 1)

    def test_missing_kernel_file(self):
        result = kltest.run("--kernel-file", os.path.join(BAD_DIR, "no_such_kernel.py"))
        self.assertEqual(result.error["code"], "not_found")

    def test_bad_command_line(self):
        result = kltest.run("--kernel-file", os.path.join(BAD_DIR, "read_before_write.py"), "--arg", "a=12xx:float32")
        self.assertEqual(result.error["code"], "invalid_argument")
        result = kltest.run("--kernel-file", os.path.join(BAD_DIR, "read_before_write.py"), "--arg", "a=128x4:float99")
        self.assertEqual(result.error["code"], "invalid_argument")
        self.assertIn("float99", result.error["message"])

    def test_broken_task_json_is_a_message_not_a_traceback(self):
        """Every field of task.json has its type and range checked (sim/frontend/kltrace/cli.py read_task)."""
        good_task = ('{"format": 1, "title": "T", "kernel_file": "k.py", "kernel": "k", '
                     '"args": [{"name": "a", "shape": [128, 4], "dtype": "float32"}], "grid": [1]}').encode()
        cases = [
            (good_task.replace(b'"T"', b'"T \xff\xfe"'), "parse", "not UTF-8"),
            (good_task.replace(b'"T"', b"42"), "invalid_argument", '"title" must be a string'),
            (good_task.replace(b'"grid": [1]', b'"grid": [1e999]'), "invalid_argument", '"grid"'),
            (good_task.replace(b'"grid": [1]', b'"grid": [NaN]'), "parse", "NaN is not a JSON number"),
            (good_task.replace(b"[128, 4]", b'[128, "4"]'), "invalid_argument", "args[0].shape"),
            (good_task.replace(b"[128, 4]", b"[1e308]"), "invalid_argument", "args[0].shape"),
            (good_task.replace(b'"args": [', b'"args": [7, '), "invalid_argument", "args[0]"),
            (good_task.replace(b'"format": 1', b'"format": true'), "invalid_argument", '"format"'),
            (b"[" * 100000 + b"]" * 100000, "parse", "recursion"),
        ]
        for text, code, fragment in cases:
            with self.subTest(task=text[:80]), tempfile.TemporaryDirectory() as tmp:
                with open(os.path.join(tmp, "task.json"), "wb") as fh:
                    fh.write(text)
                with open(os.path.join(tmp, "k.py"), "w", encoding="utf-8") as fh:
                    fh.write("def k(a):\n    return a\n")
                result = kltest.run("--task", tmp)
                self.assertEqual(result.rc, 2, result.stderr)
                self.assertNotIn("Traceback", result.stderr)
                self.assertEqual(result.error["code"], code, result.error)
                self.assertIn(fragment, result.error["message"])
                self.assertEqual(result.error["file"], "task.json")


if __name__ == "__main__":
    unittest.main()
