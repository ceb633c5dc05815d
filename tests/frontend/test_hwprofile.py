"""The tracer's on-chip size limits come from the hardware profiles (resources/hw), chosen with --hw (issue 22):
trn1/trn2/trn3 give their own SBUF sizes, a changed profile changes the limit, a broken one is a message."""
import json
import os
import sys
import tempfile
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))
from kltrace import hwprofile  # noqa: E402
from kltrace.errors import TraceError  # noqa: E402

PROFILES = os.path.join(kltest.ROOT, "resources", "hw")

KERNEL = """import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.ndarray((128, FREE), dtype=nl.float32, buffer=nl.sbuf)
    nl.store(a[0:128, 0:512], value=nl.load(a[0:128, 0:512]))
    return a
"""


def profile_value(name, section, key):
    with open(os.path.join(PROFILES, name + ".json"), encoding="utf-8") as f:
        return json.load(f)[section][key]["value"]


class HardwareProfileLimits(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def trace(self, free, *flags):
        path = os.path.join(self.tmp.name, f"k{free}.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(KERNEL.replace("FREE", str(free)))
        return kltest.run("--kernel-file", path, "--arg", "a=128x512:float32", *flags)

    def test_limits_are_the_profiles_figures(self):
        for name in ("trn1", "trn2", "trn3"):
            with self.subTest(profile=name):
                limits = hwprofile.read(name)
                self.assertEqual(limits.sbuf_partition_bytes, profile_value(name, "sbuf", "partition_bytes"))
                self.assertEqual(limits.psum_partition_bytes, profile_value(name, "psum", "partition_bytes"))
                self.assertEqual(limits.psum_bank_bytes, profile_value(name, "psum", "bank_bytes"))
                self.assertEqual(limits.pmax, profile_value(name, "sbuf", "partitions"))
        sizes = [hwprofile.read(n).sbuf_partition_bytes for n in ("trn1", "trn2", "trn3")]
        self.assertEqual(sorted(set(sizes)), sizes, "the three chips have three growing SBUF sizes")

    def test_each_chip_traces_against_its_own_sbuf(self):
        # 52000 float32 = 208000 bytes per partition: more than trn1's SBUF, less than trn2's;
        # 60000 float32 = 240000 bytes: more than trn2's, less than trn3's.
        expect = {("trn1", 52000): False, ("trn2", 52000): True, ("trn2", 60000): False, ("trn3", 60000): True}
        for (name, free), fits in expect.items():
            with self.subTest(profile=name, free=free):
                result = self.trace(free, "--hw", name)
                if fits:
                    self.assertEqual(result.rc, 0, result.stdout + result.stderr)
                else:
                    self.assertEqual(result.rc, 2, result.stderr)
                    self.assertIn(f"a partition holds {profile_value(name, 'sbuf', 'partition_bytes')}",
                                  result.error["message"])

    def test_default_is_trn1(self):
        self.assertEqual(hwprofile.DEFAULT, "trn1")
        result = self.trace(52000)
        self.assertEqual(result.rc, 2, result.stderr)
        self.assertIn(str(profile_value("trn1", "sbuf", "partition_bytes")), result.error["message"])

    def test_without_hw_a_current_api_kernel_is_checked_against_trn2_as_the_simulator_runs_it(self):
        # The simulator runs an nki.* kernel on trn2 when nothing names the hardware: the front end checks the
        # same sizes, so a tile trn2 holds traces; the legacy kernel above (run on trn1) is refused.
        path = os.path.join(self.tmp.name, "current.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(KERNEL.replace("FREE", "52000").replace("neuronxcc.nki", "nki"))
        result = kltest.run("--kernel-file", path, "--arg", "a=128x512:float32")
        self.assertEqual(result.rc, 0, result.stdout + result.stderr)
        too_big = os.path.join(self.tmp.name, "current_too_big.py")
        with open(too_big, "w", encoding="utf-8") as f:
            f.write(KERNEL.replace("FREE", "60000").replace("neuronxcc.nki", "nki"))
        result = kltest.run("--kernel-file", too_big, "--arg", "a=128x512:float32")
        self.assertEqual(result.rc, 2, result.stderr)
        self.assertIn(str(profile_value("trn2", "sbuf", "partition_bytes")), result.error["message"])

    def test_a_changed_profile_changes_the_limit(self):
        with open(os.path.join(PROFILES, "trn2.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["sbuf"]["partition_bytes"]["value"] = 100000
        copy = os.path.join(self.tmp.name, "small.json")
        with open(copy, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        self.assertEqual(self.trace(30000, "--hw", "trn2").rc, 0)
        result = self.trace(30000, "--hw", copy)
        self.assertEqual(result.rc, 2, result.stderr)
        self.assertIn("a partition holds 100000", result.error["message"])

    def test_tile_size_follows_the_profile(self):
        from kltrace import language
        try:
            hwprofile.select("trn3")
            sizes = language._TileSize()
            self.assertEqual(sizes.total_available_sbuf_size, profile_value("trn3", "sbuf", "partition_bytes"))
            self.assertEqual(sizes.psum_fmax, profile_value("trn3", "psum", "bank_bytes") // 4)
            self.assertEqual(sizes.psum_num_banks, profile_value("trn3", "psum", "partition_bytes")
                             // profile_value("trn3", "psum", "bank_bytes"))
        finally:
            hwprofile.select(hwprofile.DEFAULT)

    def test_a_broken_profile_is_a_message(self):
        broken = os.path.join(self.tmp.name, "broken.json")
        with open(broken, "w", encoding="utf-8") as f:
            json.dump({"name": "broken", "sbuf": {"partitions": {"value": 128}}}, f)
        with self.assertRaises(TraceError) as caught:
            hwprofile.read(broken)
        self.assertIn("sbuf.partition_bytes", caught.exception.message)
        result = self.trace(100, "--hw", "trn9")
        self.assertEqual(result.rc, 2)
        self.assertIn("trn9", result.error["message"])


if __name__ == "__main__":
    unittest.main()
