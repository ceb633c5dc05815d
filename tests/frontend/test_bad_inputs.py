"""Every kernel under bad/ must fail with the error code, message and line its header announces.

Header of a bad kernel:
    # expect: CODE: message fragment
    # args: NAME=SHAPE:DTYPE ...
    # flags: extra command-line flags (optional)
The offending line carries the comment `# ERROR`; files without it expect no line (0).
"""
import glob
import os
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


if __name__ == "__main__":
    unittest.main()
