"""Golden Kernel IR of the small examples: the trace must match tests/golden/ir/<name>.ir.json.expected
byte for byte.

On a mismatch the trace is written beside the expected file as <name>.ir.json.actual and the first
lines of a unified diff of the pretty-printed documents are printed. KL_UPDATE_GOLDEN=1 rewrites the
expected files instead (review the git diff before committing them).
"""
import difflib
import json
import os
import re
import unittest

import kltest
from kltest import run

GOLDEN_DIR = os.path.join(kltest.ROOT, "tests", "golden", "ir")
EXAMPLES_DIR = os.path.join(kltest.ROOT, "examples")
NAMES = ("vector_add_legacy", "vector_add_nki", "softmax", "rmsnorm", "transpose_2d", "attention_fused")
DIFF_LINES = 60
UPDATE = os.environ.get("KL_UPDATE_GOLDEN") == "1"
# Things that would make the IR depend on the machine or the moment it was traced.
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


def pretty_lines(text):
    return json.dumps(json.loads(text), indent=1).splitlines(keepends=True)


def first_lines_of_diff(expected, actual, name):
    diff = difflib.unified_diff(pretty_lines(expected), pretty_lines(actual),
                                f"{name}.ir.json.expected", f"{name}.ir.json.actual")
    out = []
    for i, line in enumerate(diff):
        if i == DIFF_LINES:
            out.append(f"... (diff cut at {DIFF_LINES} lines)\n")
            break
        out.append(line)
    return "".join(out)


class GoldenIR(unittest.TestCase):
    maxDiff = None

    def check(self, name):
        # Traced as the application runs the front end (-E -s -S), from the task folder.
        r = run("--task", os.path.join(EXAMPLES_DIR, name), flags=kltest.APP_FLAGS)
        self.assertEqual(r.rc, 0, r.stdout + r.stderr)
        actual = r.text
        self.assertNotIn(kltest.ROOT, actual, "the IR must not contain absolute paths")
        self.assertIsNone(_TIMESTAMP.search(actual), "the IR must not contain timestamps")
        for f in r.ir["files"]:
            self.assertFalse(os.path.isabs(f), f"files[] must be relative to the task folder: {f}")
            self.assertTrue(os.path.isfile(os.path.join(EXAMPLES_DIR, name, f)), f)
        expected_path = os.path.join(GOLDEN_DIR, f"{name}.ir.json.expected")
        actual_path = os.path.join(GOLDEN_DIR, f"{name}.ir.json.actual")
        if UPDATE:
            os.makedirs(GOLDEN_DIR, exist_ok=True)
            with open(expected_path, "w", encoding="utf-8", newline="") as fh:
                fh.write(actual)
            if os.path.exists(actual_path):
                os.remove(actual_path)
            return
        self.assertTrue(os.path.isfile(expected_path),
                        f"missing {expected_path}: run with KL_UPDATE_GOLDEN=1 to create it")
        with open(expected_path, "rb") as fh:
            expected = fh.read()
        if expected == actual.encode("utf-8"):
            if os.path.exists(actual_path):
                os.remove(actual_path)
            return
        with open(actual_path, "w", encoding="utf-8", newline="") as fh:
            fh.write(actual)
        self.fail(f"IR of examples/{name} differs from {os.path.relpath(expected_path, kltest.ROOT)}; "
                  f"the trace is in {os.path.relpath(actual_path, kltest.ROOT)} "
                  f"(KL_UPDATE_GOLDEN=1 accepts it)\n" + first_lines_of_diff(expected.decode("utf-8"), actual, name))


def _add(name):
    setattr(GoldenIR, f"test_{name}", lambda self: self.check(name))


for _name in NAMES:
    _add(_name)


if __name__ == "__main__":
    unittest.main()
