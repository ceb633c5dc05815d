"""Both forms of the Kernel IR hold the same program: every bundled example and every kernel of the current-NKI
corpus (tests/frontend/current/compat.json) is traced as JSON and as binary (docs/kernel-ir.md, "Binary form"),
and kl_ir_compare (tests/sim) loads both and compares them instruction by instruction."""
import json
import os
import subprocess
import tempfile
import unittest

import kltest

COMPARE = os.environ.get("KL_IR_COMPARE")
EXAMPLES = os.path.join(kltest.ROOT, "examples")
CURRENT = os.path.join(kltest.HERE, "current")
# Large examples are traced at smaller shapes of the same layout: what is compared is the encoding.
SMALL_ARGS = {
    "matmul_basic_tiled": ["lhsT=512x256:bfloat16", "rhs=512x1024:bfloat16"],
    "matmul_blocked": ["lhsT=512x512:bfloat16", "rhs=512x2048:bfloat16"],
    "matmul_hoisted": ["lhsT=512x256:bfloat16", "rhs=512x1024:bfloat16"],
    "matmul_optimized": ["lhsT=1024x2048:bfloat16", "rhs=1024x1024:bfloat16"],
}


def trace(args, fmt, path):
    proc = subprocess.run([kltest.PYTHON, *kltest.APP_FLAGS, kltest.MAIN, *args, "--format", fmt, "-o", path],
                          capture_output=True, text=True, timeout=300)
    return proc


@unittest.skipUnless(COMPARE, "KL_IR_COMPARE (the kl_ir_compare tool) is set by ctest")
class BinaryIrAgrees(unittest.TestCase):
    def agree(self, args):
        with tempfile.TemporaryDirectory() as tmp:
            paths = {}
            for fmt in ("json", "binary"):
                paths[fmt] = os.path.join(tmp, "ir." + fmt)
                proc = trace(args, fmt, paths[fmt])
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(paths["binary"], "rb") as fh:
                self.assertEqual(fh.read(8), b"KLIRBIN\0")
            self.assertLess(os.path.getsize(paths["binary"]), os.path.getsize(paths["json"]))
            cmp = subprocess.run([COMPARE, paths["binary"], paths["json"]], capture_output=True, text=True)
            self.assertEqual(cmp.returncode, 0, cmp.stdout + cmp.stderr)

    def test_every_example(self):
        names = sorted(n for n in os.listdir(EXAMPLES) if os.path.isfile(os.path.join(EXAMPLES, n, "task.json")))
        self.assertGreaterEqual(len(names), 10)
        for name in names:
            with self.subTest(example=name):
                args = ["--task", os.path.join(EXAMPLES, name)]
                for a in SMALL_ARGS.get(name, []):
                    args += ["--arg", a]
                self.agree(args)

    def test_every_current_nki_kernel(self):
        with open(os.path.join(CURRENT, "compat.json"), encoding="utf-8") as fh:
            entries = json.load(fh)["entries"]
        self.assertGreaterEqual(len(entries), 10)
        for e in entries:
            with self.subTest(kernel=e["kernel"]):
                args = ["--kernel-file", os.path.join(CURRENT, e["file"]), "--kernel", e["kernel"]]
                for a in e.get("args", []):
                    args += ["--arg", f"{a['name']}={'x'.join(map(str, a['shape']))}:{a['dtype']}"]
                for k, v in e.get("scalars", {}).items():
                    args += ["--scalar", f"{k}={v}"]
                if "grid" in e:
                    args += ["--grid", "x".join(map(str, e["grid"]))]
                if "package_root" in e:
                    args += ["--package-root", os.path.join(CURRENT, e["package_root"])]
                self.agree(args)


if __name__ == "__main__":
    unittest.main()
