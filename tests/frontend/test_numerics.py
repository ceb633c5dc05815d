"""Value mode (--numerics): Trainium rounding, accumulation order, references, GPU emulation, bad inputs,
determinism and the bundled examples (docs/numerics.md). Kernels of our own in numerics/."""
import glob
import json
import os
import sys
import tempfile
import unittest

import numpy as np

import kltest

NUM = os.path.join(kltest.HERE, "numerics")
EXAMPLES = os.path.join(kltest.ROOT, "examples")
sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))
from kltrace.numerics import fmt, gpu, inputs  # noqa: E402


def numerics(kernel, *args, npz=None, values=False):
    """Run value mode on numerics/KERNEL; returns (result, document, {array name: values} or None)."""
    with tempfile.TemporaryDirectory() as tmp:
        extra = []
        if npz is not None:
            path = os.path.join(tmp, "in.npz")
            np.savez(path, **npz)
            extra += ["--inputs", path]
        if values:
            extra += ["--values-out", os.path.join(tmp, "v.npz")]
        src = ["--kernel-file", os.path.join(NUM, kernel)] if kernel.endswith(".py") else ["--task", kernel]
        r = kltest.run(*src, "--numerics", *args, *extra)
        doc = json.loads(r.text) if r.rc == 0 else None
        vals = None
        if values and r.rc == 0:
            with np.load(os.path.join(tmp, "v.npz")) as z:
                vals = {k: z[k] for k in z.files}
        return r, doc, vals


def bf16_bits_round(x32):
    """Independent BF16 RNE: add 0x7FFF plus the lowest kept bit to the float32 bits and cut (no NaN here)."""
    b = np.asarray(x32, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return b.astype(np.uint32).view(np.float32).astype(np.float64)


def bf16_inputs(rng, shape):
    return bf16_bits_round(rng.standard_normal(shape).astype(np.float32))


class Rounding(unittest.TestCase):
    def test_bfloat16_ties_to_even_and_overflow(self):
        x = np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -20, -(1 + 2 ** -8), 3.3895313892515355e38,
                      3.3963e38, 1e-45])
        got = [fmt.bits(v, "bfloat16") if np.isfinite(v) else None for v in fmt.to_dtype(x, "bfloat16")]
        self.assertEqual(got[:5], [0x3F80, 0x3F82, 0x3F81, 0xBF80, 0x7F7F])
        self.assertTrue(np.isinf(fmt.to_dtype(x, "bfloat16")[5]))  # past max + half an ulp: inf
        self.assertEqual(fmt.to_dtype(x, "bfloat16")[6], 0.0)  # below half the smallest subnormal

    def test_float16_and_tf32(self):
        self.assertEqual(list(fmt.to_dtype(np.array([2049.0, 2051.0, 65519.0]), "float16")), [2048.0, 2052.0, 65504.0])
        self.assertTrue(np.isinf(fmt.to_dtype(np.array([65520.0]), "float16")[0]))
        self.assertEqual(fmt.to_dtype(np.array([1 + 2 ** -11, 1 + 3 * 2 ** -11]), "tfloat32").tolist(),
                         [1.0, 1 + 2 ** -9])

    def test_fp8_codes(self):
        e4 = fmt.to_dtype(np.array([448.0, 464.0, 1000.0, -1e6, 2 ** -9, 2 ** -10, 0.3]), "float8_e4m3fn")
        self.assertEqual(e4.tolist(), [448.0, 448.0, 448.0, -448.0, 2 ** -9, 0.0, 0.3125])
        self.assertEqual([fmt.bits(v, "float8_e4m3fn") for v in e4[:2]], [0x7E, 0x7E])
        self.assertEqual(fmt.bits(2 ** -9, "float8_e4m3fn"), 0x01)  # the smallest subnormal
        e5 = fmt.to_dtype(np.array([57344.0, 61439.0, 61440.0, 2.5 * 2 ** -16]), "float8_e5m2")
        self.assertEqual(e5[:2].tolist(), [57344.0, 57344.0])
        self.assertTrue(np.isinf(e5[2]))  # the tie past the largest rounds to even: infinity
        self.assertEqual(fmt.bits(57344.0, "float8_e5m2"), 0x7B)
        self.assertEqual(fmt.bits(e5[3], "float8_e5m2"), 0x02)  # 2.5 * 2^-16 ties to the even subnormal 2 * 2^-16

    def test_integers_saturate_and_round_to_even(self):
        self.assertEqual(fmt.to_dtype(np.array([2.5, -3.5, 300.0, -300.0, np.nan]), "int8").tolist(),
                         [2.0, -4.0, 127.0, -128.0, 0.0])
        self.assertEqual(fmt.to_dtype(np.array([-1.0, 70000.0]), "uint16").tolist(), [0.0, 65535.0])

    def test_stochastic_rounding_is_seeded_and_unbiased(self):
        x = np.full(20000, 1 + 2 ** -9)  # a quarter of the way from 1 to the next bf16 value
        a = fmt.round_stochastic(x, "bfloat16", np.random.Generator(np.random.PCG64(5)))
        b = fmt.round_stochastic(x, "bfloat16", np.random.Generator(np.random.PCG64(5)))
        self.assertTrue(np.array_equal(a, b))
        self.assertEqual(set(a.tolist()), {1.0, 1 + 2 ** -7})
        self.assertAlmostEqual(float(np.mean(a)), 1 + 2 ** -9, delta=2e-4)


class Matmul(unittest.TestCase):
    ARGS = ("--arg", "lhsT=512x128:bfloat16", "--arg", "rhs=512x256:bfloat16")

    def setUp(self):
        rng = np.random.default_rng(11)
        self.lhsT, self.rhs = bf16_inputs(rng, (512, 128)), bf16_inputs(rng, (512, 256))

    def test_fp32_psum_accumulation_matches_an_independent_emulation(self):
        r, doc, v = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "mm_ref.py:mm",
                             npz={"lhsT": self.lhsT, "rhs": self.rhs}, values=True)
        self.assertEqual(r.rc, 0, r.stderr)
        psum = np.zeros((128, 256), dtype=np.float32)
        for k in range(4):  # one FP32 rounding per matmul, then the FP32 add into PSUM
            part = (self.lhsT[k * 128:(k + 1) * 128].T @ self.rhs[k * 128:(k + 1) * 128]).astype(np.float32)
            psum = (psum + part).astype(np.float32)
        expected = psum.astype(np.float64)
        self.assertTrue(np.array_equal(v["out.nki"], expected))
        exact = self.lhsT.T @ self.rhs
        c = doc["outputs"][0]["comparisons"]["nki_vs_exact"]
        self.assertAlmostEqual(c["max_abs_error"], float(np.abs(expected - exact).max()), places=12)
        self.assertTrue(c["passed"])

    def test_bf16_accumulation_is_much_worse_and_blamed_on_its_line(self):
        npz = {"lhsT": self.lhsT, "rhs": self.rhs}
        _, good, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "mm_ref.py:mm", npz=npz)
        r, bad, _ = numerics("mm_bf16_acc.py", *self.ARGS, "--reference", "mm_ref.py:mm", npz=npz)
        self.assertEqual(r.rc, 0, r.stderr)
        g = good["outputs"][0]["comparisons"]["nki_vs_exact"]
        b = bad["outputs"][0]["comparisons"]["nki_vs_exact"]
        self.assertGreater(b["rms_error"], 100 * g["rms_error"])
        self.assertFalse(b["passed"])
        top = bad["top_error_instructions"][0]
        self.assertEqual((top["file"], top["line"], top["op"]), ("mm_bf16_acc.py", 17, "tensor_tensor"))
        self.assertTrue(any("outside" in w for w in bad["warnings"]))

    def test_gpu_policies(self):
        _, doc, v = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "mm_ref.py:mm", "--cuda-numerics",
                             "fp16-accumulate", npz={"lhsT": self.lhsT, "rhs": self.rhs}, values=True)
        c = doc["outputs"][0]["comparisons"]
        self.assertEqual(doc["cuda_numerics"], "fp16-accumulate")
        self.assertGreater(c["gpu_vs_exact"]["rms_error"], 2 * c["nki_vs_exact"]["rms_error"])
        a, b = self.lhsT.T, self.rhs
        for text in ("fp32-k-order", "tensor-core-bf16:16", "split-k:4"):
            name, param, _ = gpu.parse_policy(text)
            out = gpu.Policy(name, param).matmul(a, b)
            self.assertLess(np.abs(out - a @ b).max(), 1e-3, text)
        seq = gpu.Policy("fp32-k-order", 0).matmul(a[:2, :], b[:, :2])
        acc = np.zeros((2, 2), dtype=np.float32)
        for k in range(512):
            acc = (acc.astype(np.float64) + np.outer(a[:2, k], b[k, :2])).astype(np.float32)
        self.assertTrue(np.array_equal(seq, acc.astype(np.float64)))

    def test_stochastic_rounding_is_seeded(self):
        npz = {"lhsT": self.lhsT, "rhs": self.rhs}
        runs = [numerics("mm_bf16_acc.py", *self.ARGS, "--reference", "mm_ref.py:mm", *extra, npz=npz, values=True)[2]
                for extra in ((), ("--rounding", "stochastic"), ("--rounding", "stochastic"),
                              ("--rounding", "stochastic", "--seed", "9"))]
        nearest, sr1, sr2, sr9 = (r["out.nki"] for r in runs)
        self.assertTrue(np.array_equal(sr1, sr2))
        self.assertFalse(np.array_equal(sr1, nearest))
        self.assertFalse(np.array_equal(sr1, sr9))

    def test_unknown_policy(self):
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--cuda-numerics", "warp-magic")
        self.assertEqual(r.error["code"], "invalid_argument")
        self.assertIn("warp-magic", r.error["message"])
        for bad in ("split-k", "split-k:0", "fp32-k-order:3"):
            with self.assertRaises(Exception):
                gpu.parse_policy(bad)


class GpuEmulation(unittest.TestCase):
    def arrays(self, policy, **arrays):
        name, param, _ = gpu.parse_policy(policy)
        return gpu.prepare(arrays, gpu.Policy(name, param))

    def test_sum_is_sequential_in_fp32(self):
        x = np.ones(513)
        x[0] = 2.0 ** 25
        a = self.arrays("fp32-k-order", x=x)["x"]
        self.assertEqual(float(np.sum(a)), 2.0 ** 25)  # each 1.0 is lost against 2^25 in FP32
        self.assertEqual(float(np.sum(a[::-1])), 2.0 ** 25 + 512)  # small ones first: exact
        self.assertEqual(float(np.mean(a)), float(np.float32(np.float32(2.0 ** 25) / np.float32(513))))

    def test_elementwise_rounding(self):
        a = self.arrays("fp32-k-order", x=np.array([1.0, 3.0]))["x"]
        self.assertEqual(float((a / 3.0)[0]), float(np.float32(1.0) / np.float32(3.0)))
        h = self.arrays("fp16-accumulate", x=np.array([2048.0]))["x"]
        self.assertEqual(float((h + 1.0)[0]), 2048.0)  # 2049 is not an FP16 value: ties to even
        self.assertEqual(float(np.exp(self.arrays("fp32-k-order", x=np.array([1.0]))["x"])[0]),
                         float(np.float32(np.e)))

    def test_tensor_core_steps_round_once_per_k_step(self):
        a = np.zeros((1, 32))
        b = np.zeros((32, 1))
        a[0, :] = 1.0
        b[0, 0] = 2.0 ** 24
        b[1:, 0] = 1.0  # one step of 16: 2^24 + 15 exact, then rounded to FP32 (2^24 + 16); then + 16
        out = self.arrays("tensor-core-bf16:16", a=a, b=b)
        self.assertEqual(float((out["a"] @ out["b"])[0, 0]), 2.0 ** 24 + 32)
        seq = self.arrays("fp32-k-order", a=a, b=b)
        self.assertEqual(float((seq["a"] @ seq["b"])[0, 0]), 2.0 ** 24)  # every +1 lost one by one
        split = self.arrays("split-k:2", a=a, b=b)
        self.assertEqual(float((split["a"] @ split["b"])[0, 0]), 2.0 ** 24 + 16)

    def test_einsum_is_refused(self):
        a = self.arrays("fp32-k-order", x=np.ones((2, 2)))["x"]
        with self.assertRaises(Exception):
            np.einsum("ij,jk->ik", a, a)


class Accuracy(unittest.TestCase):
    def test_fp8_saturation_and_overflow(self):
        x = np.zeros((128, 8))
        x[0, :6] = [448.0, 464.0, 1e4, -1e4, 61440.0, 57344.0]
        r, doc, v = numerics("fp8_cast.py", "--arg", "x=128x8:float32", "--reference", "fp8_ref.py:same",
                             npz={"x": x}, values=True)
        self.assertEqual(r.rc, 0, r.stderr)
        self.assertEqual(v["o1.nki"][0, :6].tolist(), [448.0, 448.0, 448.0, -448.0, 448.0, 448.0])
        self.assertEqual(v["o2.nki"][0, :4].tolist(), [448.0, 448.0, 10240.0, -10240.0])
        self.assertTrue(np.isinf(v["o2.nki"][0, 4]))
        c = doc["outputs"][1]["comparisons"]["nki_vs_exact"]
        self.assertFalse(c["passed"])
        self.assertEqual(c["max_abs_error"], "inf")  # the non-finite float written as a string

    def test_reduction_order_changes_the_result(self):
        x = np.ones((128, 512))
        x[:, 0] = 2.0 ** 25  # 1.0 is below half an FP32 ulp of 2^25: lost when added to it first
        r, doc, v = numerics("row_sum.py", "--arg", "x=128x512:float32", "--reference", "row_sum_ref.py:ref",
                             npz={"x": x}, values=True)
        self.assertEqual(r.rc, 0, r.stderr)
        forward = np.float32(0)
        for e in x[0].astype(np.float32):
            forward = np.float32(forward + e)
        backward = np.float32(0)
        for e in x[0, ::-1].astype(np.float32):
            backward = np.float32(backward + e)
        self.assertNotEqual(forward, backward)
        self.assertEqual(v["out.nki"][0, 0], float(forward))
        self.assertEqual(v["out.exact"][0, 0], 2.0 ** 25 + 511)
        self.assertEqual(doc["outputs"][0]["comparisons"]["nki_vs_exact"]["max_abs_error"], 511.0)

    def test_softmax_without_max_subtraction_overflows_in_fp16(self):
        x = np.random.default_rng(2).uniform(0.0, 12.0, (128, 64))
        npz = {"x": x}
        common = ("--arg", "x=128x64:float16", "--reference", "softmax_ref.py:ref", "--tolerance", "loose")
        _, naive, v = numerics("softmax_fp16.py", *common, npz=npz, values=True)
        _, stable, _ = numerics("softmax_fp16.py", *common, "--scalar", "stable=True", npz=npz)
        self.assertFalse(naive["outputs"][0]["comparisons"]["nki_vs_exact"]["passed"])
        self.assertFalse(np.isfinite(v["out.nki"]).all())
        self.assertTrue(stable["outputs"][0]["comparisons"]["nki_vs_exact"]["passed"])


class Gather(unittest.TestCase):
    KERNEL = os.path.join(kltest.HERE, "current", "gather_legacy.py")
    ARGS = ("--arg", "table=1000x64:float32", "--arg", "ids=128x1:int32", "--reference",
            os.path.join(NUM, "gather_ref.py") + ":gather_scatter")

    def test_gather_and_scatter_follow_the_index_values(self):
        rng = np.random.default_rng(3)
        table, ids = rng.standard_normal((1000, 64)), rng.permutation(128).reshape(128, 1)
        r, doc, v = numerics(self.KERNEL, *self.ARGS, npz={"table": table, "ids": ids}, values=True)
        self.assertEqual(r.rc, 0, r.stdout + r.stderr)
        rows = ids[:, 0]
        self.assertTrue(np.array_equal(v["out.nki"][rows], table[rows].astype(np.float32)))
        self.assertTrue(doc["outputs"][0]["comparisons"]["nki_vs_exact"]["passed"])

    def test_index_out_of_range(self):
        table, ids = np.zeros((1000, 64)), np.full((128, 1), 5000)
        r, _, _ = numerics(self.KERNEL, *self.ARGS, npz={"table": table, "ids": ids})
        self.assertEqual((r.error["code"], r.error["line"]), ("kernel_error", 12))
        self.assertIn("index reaches element", r.error["message"])


class BadInputs(unittest.TestCase):
    ARGS = ("--arg", "lhsT=256x128:bfloat16", "--arg", "rhs=256x128:bfloat16")

    def test_reference_raises(self):
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "mm_ref.py:raises")
        self.assertEqual((r.error["code"], r.error["file"], r.error["line"]), ("kernel_error", "mm_ref.py", 10))
        self.assertIn("NameError", r.error["message"])

    def test_endless_reference_times_out_with_a_hint_about_value_execution(self):
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "mm_ref.py:endless", "--timeout", "3")
        self.assertEqual((r.error["code"], r.error["file"]), ("timeout", "mm_ref.py"))
        self.assertIn("value execution did not finish", r.error["hint"])

    def test_reference_shape_differs(self):
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "mm_ref.py:wrong_shape")
        self.assertEqual(r.error["code"], "invalid_argument")
        self.assertIn("shape [128, 127]", r.error["message"])

    def test_missing_reference(self):
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "nope.py:f")
        self.assertEqual(r.error["code"], "not_found")
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--reference", "mm_ref.py")
        self.assertEqual(r.error["code"], "invalid_argument")

    def test_npz_errors(self):
        ok = np.zeros((256, 128))
        cases = [({"lhsT": ok}, "no array 'rhs'"), ({"lhsT": ok, "rhs": np.zeros((128, 128))}, "has shape [128, 128]"),
                 ({"lhsT": ok, "rhs": np.array([["a"] * 128] * 256)}, "not a number type")]
        for npz, fragment in cases:
            r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, npz=npz)
            self.assertEqual(r.error["code"], "invalid_argument", fragment)
            self.assertIn(fragment, r.error["message"])
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "obj.npz")
            np.savez(path, lhsT=np.array([object()] * 4, dtype=object), rhs=ok)
            r = kltest.run("--kernel-file", os.path.join(NUM, "mm_fp32_acc.py"), *self.ARGS, "--numerics",
                           "--inputs", path)
            self.assertEqual(r.error["code"], "invalid_argument")
            self.assertIn("pickle", r.error["message"])

    def test_unknown_tolerance_and_inputs(self):
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--tolerance", "lenient")
        self.assertIn("unknown tolerance standard 'lenient'", r.error["message"])
        r, _, _ = numerics("mm_fp32_acc.py", *self.ARGS, "--inputs", "gaussian")
        self.assertIn("unknown input distribution", r.error["message"])

    def test_unsupported_instruction_names_op_and_line(self):
        r, _, _ = numerics("top8.py", "--arg", "x=128x64:float32")
        self.assertEqual((r.error["code"], r.error["file"], r.error["line"]), ("unsupported", "top8.py", 12))
        self.assertIn("max8", r.error["message"])
        self.assertEqual(kltest.run("--kernel-file", os.path.join(NUM, "top8.py"), "--arg", "x=128x64:float32").rc, 0)

    def test_numerics_flags_need_numerics(self):
        r = kltest.run("--kernel-file", os.path.join(NUM, "mm_fp32_acc.py"), *self.ARGS, "--seed", "3")
        self.assertEqual(r.error["code"], "invalid_argument")

    def test_bad_task_numerics_fields(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(NUM, "mm_fp32_acc.py")) as fh, open(os.path.join(tmp, "k.py"), "w") as out:
                out.write(fh.read())
            base = {"format": 1, "kernel_file": "k.py", "kernel": "mm_fp32_acc",
                    "args": [{"name": "lhsT", "shape": [256, 128], "dtype": "bfloat16"},
                             {"name": "rhs", "shape": [256, 128], "dtype": "bfloat16"}]}
            for extra, fragment in (({"reference": 3}, "\"reference\" must be a string"),
                                    ({"reference": "../x.py:f"}, "inside the task folder"),
                                    ({"numerics": {"seed": -1}}, "numerics.seed"),
                                    ({"numerics": {"args": [{"name": "zz", "shape": [1]}]}}, "numerics.args"),
                                    ({"numerics": {"speed": 1}}, "numerics.speed")):
                with open(os.path.join(tmp, "task.json"), "w") as fh:
                    json.dump(dict(base, **extra), fh)
                r = kltest.run("--task", tmp, "--numerics")
                self.assertEqual(r.error["code"], "invalid_argument", extra)
                self.assertIn(fragment, r.error["message"])


class Tolerances(unittest.TestCase):
    def test_front_end_copy_is_identical(self):
        paths = [os.path.join(kltest.ROOT, "resources", "numerics", "tolerances.json"),
                 os.path.join(kltest.ROOT, "sim", "frontend", "kltrace", "numerics", "tolerances.json")]
        texts = []
        for p in paths:
            with open(p, encoding="utf-8") as fh:
                texts.append(fh.read())
        self.assertEqual(texts[0], texts[1], "copy resources/numerics/tolerances.json to the front end")
        standards = json.loads(texts[0])["standards"]
        self.assertTrue({"default", "numpy-strict", "loose"} <= set(standards))
        for name, std in standards.items():
            self.assertTrue(std["source"], name)
            d = std["dtypes"]
            self.assertLessEqual(d["bfloat16"]["rtol"] if "bfloat16" in d else 0, 1.0)
        strict, default, loose = (standards[n]["dtypes"]["bfloat16"]["rtol"] for n in ("numpy-strict", "default", "loose"))
        self.assertLess(strict, default)
        self.assertLess(default, loose)


class Determinism(unittest.TestCase):
    def test_same_seed_same_bits(self):
        args = [("a", [64, 32], "bfloat16"), ("b", [16], "float8_e4m3fn"), ("c", [8, 8], "int8")]
        for kind in inputs.KINDS:
            x = inputs.generate(args, kind, 7)
            y = inputs.generate(args, kind, 7)
            z = inputs.generate(args, kind, 8)
            for name, _, dtype in args:
                self.assertTrue(np.array_equal(x[name], y[name], equal_nan=True), kind)
                self.assertTrue(np.array_equal(fmt.to_dtype(x[name], dtype), x[name], equal_nan=True))
            self.assertFalse(np.array_equal(x["a"], z["a"]), kind)

    def test_whole_run_repeats(self):
        task = os.path.join(EXAMPLES, "rmsnorm")
        _, a, _ = numerics(task, "--seed", "4", "--inputs", "outliers")
        _, b, _ = numerics(task, "--seed", "4", "--inputs", "outliers")
        a.pop("value_ms"), b.pop("value_ms")
        self.assertEqual(a, b)
        self.assertEqual(a["inputs"], {"kind": "outliers", "seed": 4, "file": ""})


TOP_KEYS = {"format", "version", "kernel", "kernel_file", "args", "inputs", "reference", "cuda_numerics", "tolerance",
            "instructions", "value_ms", "outputs", "top_error_instructions", "warnings"}
COMPARISON_KEYS = {"max_abs_error", "max_rel_error", "max_ulp_error", "rms_error", "mismatches", "mismatch_pct",
                   "rtol", "atol", "passed", "worst"}


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) or x in ("nan", "inf", "-inf")


class Contract(unittest.TestCase):
    """The document's keys and types as the C++ side reads them (the contract of issue 15)."""

    def test_document_shape(self):
        task = os.path.join(EXAMPLES, "ragged_rows_wrong")
        r, doc, _ = numerics(task)
        self.assertEqual(r.rc, 0, r.stderr)
        self.assertTrue(TOP_KEYS <= set(doc), TOP_KEYS - set(doc))
        self.assertEqual((doc["format"], doc["version"]), ("kernellens-numerics", 1))
        self.assertEqual(set(doc["inputs"]), {"kind", "seed", "file"})
        self.assertEqual(set(doc["tolerance"]), {"standard", "source", "overridden"})
        for a in doc["args"]:
            self.assertEqual(set(a), {"name", "shape", "dtype"})
        for out in doc["outputs"]:
            self.assertEqual({"nki_vs_exact", "gpu_vs_exact", "nki_vs_gpu"} - set(out["comparisons"]), set())
            for c in out["comparisons"].values():
                self.assertTrue(COMPARISON_KEYS <= set(c))
                for k in ("max_abs_error", "max_rel_error", "max_ulp_error", "rms_error", "mismatch_pct", "rtol", "atol"):
                    self.assertTrue(number(c[k]), (k, c[k]))
                self.assertIsInstance(c["mismatches"], int)
                self.assertIsInstance(c["passed"], bool)
                self.assertLessEqual(len(c["worst"]), 10)
                for w in c["worst"]:
                    self.assertEqual(len(w["index"]), len(out["shape"]))
                    self.assertTrue(number(w["value"]) and number(w["expected"]))
            h = out["heatmap"]
            self.assertEqual(len(h["worst"]), h["rows"] * h["cols"])
            self.assertTrue(all(number(x) for x in h["abs_error"]))
            g = out["histogram"]
            self.assertEqual(len(g["log10_abs_error_edges"]), len(g["counts"]) + 1)
            self.assertEqual(sum(g["counts"]) + g["zeros"] + g["nonfinite"], 300 * 256)
        self.assertLessEqual(len(doc["top_error_instructions"]), 20)
        for t in doc["top_error_instructions"]:
            self.assertTrue({"index", "op", "file", "line", "added_error", "output"} <= set(t))
        errors = [t["added_error"] for t in doc["top_error_instructions"]]
        self.assertEqual(errors, sorted(errors, reverse=True))

    def test_no_reference_compares_with_the_shadow(self):
        r, doc, _ = numerics(os.path.join(NUM, "row_sum.py"), "--arg", "x=128x64:float32")
        c = doc["outputs"][0]["comparisons"]
        self.assertEqual(doc["reference"], "")
        self.assertIsNone(c["gpu_vs_exact"])
        self.assertIsNone(c["nki_vs_gpu"])
        self.assertTrue(any("no reference" in w for w in doc["warnings"]))


class Examples(unittest.TestCase):
    def test_every_example_passes_and_the_wrong_one_fails(self):
        tasks = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(EXAMPLES, "*", "task.json")))
        self.assertGreaterEqual(len(tasks), 12)
        for task in tasks:
            name = os.path.basename(task)
            r, doc, _ = numerics(task)
            self.assertEqual(r.rc, 0, f"{name}: {r.stdout} {r.stderr}")
            self.assertTrue(doc["reference"], name)
            self.assertNotEqual(doc["cuda_numerics"], "none", name)
            for out in doc["outputs"]:
                c = out["comparisons"]
                h = out["heatmap"]
                self.assertEqual(len(h["abs_error"]), h["rows"] * h["cols"], name)
                self.assertLessEqual(max(h["rows"], h["cols"]), 256)
                if name == "ragged_rows_wrong":
                    self.assertFalse(c["nki_vs_exact"]["passed"])
                    self.assertEqual(c["nki_vs_exact"]["mismatches"], 44 * 256)
                    rows = {w["index"][0] for w in c["nki_vs_exact"]["worst"]}
                    self.assertTrue(all(256 <= i < 300 for i in rows), rows)
                    self.assertTrue(c["gpu_vs_exact"]["passed"])
                else:
                    for key in ("nki_vs_exact", "gpu_vs_exact", "nki_vs_gpu"):
                        self.assertTrue(c[key]["passed"], f"{name} {key}: {c[key]}")


if __name__ == "__main__":
    unittest.main()
