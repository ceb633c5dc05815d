"""Each documented tile limit at the limit (traces) and one past it (a kernel_error naming the size), in both API
generations: the legacy neuronxcc.nki (kernels return their tiles) and the current nki.* (results written through
dst=). The limits are quoted here from their sources, not read from the front end:

- nki.language.tile_size (https://awsdocs-neuron.readthedocs-hosted.com/en/v2.26.1/nki/api/generated/
  nki.language.tile_size.html and .../en/v2.33.0/nki/api/nki.language.tile_size.html): pmax, the partition
  dimension, 128; gemm_stationary_fmax 128; gemm_moving_fmax 512; psum_fmax / psum_bank_fmax 512 float32 (one
  2 KiB bank); bn_stats_fmax 512.
- nki.isa.nc_matmul (.../en/v2.26.1/nki/api/generated/nki.isa.nc_matmul.html): stationary free <= 128, moving
  free <= 512.
- SBUF per partition on trn1, the front end's default target: 24 MiB over 128 partitions = 192 KiB (Trainium/
  Inferentia2 architecture guide, nki/guides/architecture/trainium_inferentia2_arch.rst).
"""
import os
import tempfile
import unittest

import kltest

PMAX = 128
STATIONARY_FMAX = 128
MOVING_FMAX = 512
PSUM_BANK_FP32 = 2048 // 4
BN_STATS_FMAX = 512
SBUF_PARTITION_FP32 = 24 * 1024 * 1024 // 128 // 4

HEAD = {
    "legacy": "import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\nimport neuronxcc.nki.isa as nisa\n",
    "current": "import nki\nimport nki.language as nl\nimport nki.isa as nisa\n",
}

# Kernel bodies per generation; {n} is the size under test. Each case: body per generation, the argument
# shapes for a size n, and the fragment of the error one past the limit.
CASES = {
    "partition": (
        {"legacy": "def k(a):\n    x = nl.load(a)\n    return a\n",
         "current": "def k(a):\n    x = nl.ndarray(({n}, 64), dtype=nl.float32, buffer=nl.sbuf)\n"
                    "    nisa.dma_copy(dst=x, src=a)\n    return a\n"},
        lambda n: ["a={}x64:float32".format(n)], PMAX, "partition dimension {n} "),
    "matmul_stationary_free": (
        {"legacy": "def k(a, b):\n    x = nl.load(a)\n    y = nl.load(b)\n    r = nisa.nc_matmul(x, y)\n    return a\n",
         # dst keeps 128 partitions, so only the stationary operand is over its limit.
         "current": "def k(a, b):\n    x = nl.ndarray((128, {n}), dtype=nl.bfloat16, buffer=nl.sbuf)\n"
                    "    y = nl.ndarray((128, 512), dtype=nl.bfloat16, buffer=nl.sbuf)\n"
                    "    nisa.dma_copy(dst=x, src=a)\n    nisa.dma_copy(dst=y, src=b)\n"
                    "    acc = nl.ndarray((min({n}, 128), 512), dtype=nl.float32, buffer=nl.psum)\n"
                    "    nisa.nc_matmul(dst=acc, stationary=x, moving=y)\n    return a\n"},
        lambda n: ["a=128x{}:bfloat16".format(n), "b=128x512:bfloat16"], STATIONARY_FMAX,
        "stationary free size {n} exceeds 128"),
    "matmul_moving_free": (
        {"legacy": "def k(a, b):\n    x = nl.load(a)\n    y = nl.load(b)\n    r = nisa.nc_matmul(x, y)\n    return a\n",
         # A bfloat16 PSUM tile, so that 513 columns still fit one bank and only the moving limit is crossed.
         "current": "def k(a, b):\n    x = nl.ndarray((128, 128), dtype=nl.bfloat16, buffer=nl.sbuf)\n"
                    "    y = nl.ndarray((128, {n}), dtype=nl.bfloat16, buffer=nl.sbuf)\n"
                    "    nisa.dma_copy(dst=x, src=a)\n    nisa.dma_copy(dst=y, src=b)\n"
                    "    acc = nl.ndarray((128, {n}), dtype=nl.bfloat16, buffer=nl.psum)\n"
                    "    nisa.nc_matmul(dst=acc, stationary=x, moving=y)\n    return a\n"},
        lambda n: ["a=128x128:bfloat16", "b=128x{}:bfloat16".format(n)], MOVING_FMAX,
        "moving free size {n} exceeds 512"),
    "psum_bank": (
        {"legacy": "def k(a):\n    acc = nl.zeros((128, {n}), nl.float32, buffer=nl.psum)\n    return a\n",
         "current": "def k(a):\n    acc = nl.ndarray((128, {n}), dtype=nl.float32, buffer=nl.psum)\n    return a\n"},
        lambda n: ["a=128x4:float32"], PSUM_BANK_FP32, "needs {bytes} bytes per partition, more than one 2 KiB bank"),
    "sbuf_partition": (
        {"legacy": "def k(a):\n    t = nl.zeros((128, {n}), nl.float32, buffer=nl.sbuf)\n    return a\n",
         "current": "def k(a):\n    t = nl.ndarray((128, {n}), dtype=nl.float32, buffer=nl.sbuf)\n    return a\n"},
        lambda n: ["a=128x4:float32"], SBUF_PARTITION_FP32,
        "needs {bytes} bytes per partition; a partition holds 196608"),
    "bn_stats_free": (
        {"legacy": "def k(a):\n    x = nl.load(a)\n    s = nisa.bn_stats(x)\n    return a\n",
         "current": "def k(a):\n    x = nl.ndarray((128, {n}), dtype=nl.float32, buffer=nl.sbuf)\n"
                    "    nisa.dma_copy(dst=x, src=a)\n    s = nl.ndarray((128, 6), dtype=nl.float32, buffer=nl.sbuf)\n"
                    "    nisa.bn_stats(dst=s, data=x)\n    return a\n"},
        lambda n: ["a=128x{}:float32".format(n)], BN_STATS_FMAX, "bn_stats free size {n} exceeds 512"),
}


def trace(generation, body, args):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(HEAD[generation] + "\n\n@nki.jit\n" + body)
        # The sizes are trn1's: named, because without --hw a current-API kernel is checked against trn2 (the
        # hardware the simulator picks for it; test_hwprofile covers that choice).
        argv = ["--kernel-file", path, "--hw", "trn1"]
        for a in args:
            argv += ["--arg", a]
        return kltest.run(*argv)


class Boundaries(unittest.TestCase):
    def test_each_limit_traces_at_the_limit_and_fails_one_past_it(self):
        for name, (bodies, args, limit, fragment) in CASES.items():
            for generation in ("legacy", "current"):
                for n in (limit, limit + 1):
                    with self.subTest(case=name, api=generation, size=n):
                        result = trace(generation, bodies[generation].format(n=n), args(n))
                        if n == limit:
                            self.assertEqual(result.rc, 0, result.stdout + result.stderr)
                        else:
                            self.assertEqual(result.rc, 2, result.stderr)
                            self.assertEqual(result.error["code"], "kernel_error", result.error)
                            self.assertIn(fragment.format(n=n, bytes=4 * n), result.error["message"])
                            self.assertEqual(result.error["line"] > 0, True, result.error)


if __name__ == "__main__":
    unittest.main()
