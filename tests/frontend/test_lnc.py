"""Logical NeuronCores (--lnc 2, task.json "lnc"): the programs of the first grid axis split over two cores."""
import json
import os
import shutil
import tempfile
import unittest

from kltest import good, run

ARGS = ("--kernel-file", good("lnc_split.py"), "--arg", "a=1024x256:bfloat16", "--arg", "b=1024x256:bfloat16")


def pids(ir):
    return [tuple(i["pid"]) for i in ir["instructions"]]


class LogicalCores(unittest.TestCase):
    def test_one_core_by_default(self):
        r = run(*ARGS)
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertNotIn("lnc", r.ir["kernel"], "a single-core IR stays as before")
        self.assertEqual(r.ir["kernel"]["grid"], [1])
        self.assertEqual(set(pids(r.ir)), {(0,)})
        self.assertEqual(len(r.ir["instructions"]), 8 * 4)

    def test_lnc2_runs_one_program_per_core(self):
        r = run(*ARGS, "--lnc", "2")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(r.ir["kernel"]["lnc"], 2)
        self.assertEqual(r.ir["kernel"]["grid"], [2], "kernel[2]: num_programs() is 2")
        p = pids(r.ir)
        self.assertEqual(p.count((0,)), 16)
        self.assertEqual(p.count((1,)), 16)
        self.assertEqual(p, sorted(p), "each core's programs come together, core 0 first")
        # program 1 loads the second half of the rows (num_programs and program_id followed the cores)
        first_load_1 = next(i for i in r.ir["instructions"] if i["pid"] == [1])
        self.assertEqual(first_load_1["src"][0]["offset"], 512 * 256)

    def test_lnc2_splits_a_bigger_grid_in_blocks(self):
        r = run(*ARGS, "--lnc", "2", "--grid", "4")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(r.ir["kernel"]["grid"], [4])
        self.assertEqual(sorted(set(pids(r.ir))), [(0,), (1,), (2,), (3,)])

    def test_bad_values_are_refused(self):
        for extra, needle in ((("--lnc", "3"),"bad --lnc"), (("--lnc", "2", "--grid", "3"), "first grid axis")):
            r = run(*ARGS, *extra)
            self.assertNotEqual(r.rc, 0)
            self.assertIn(needle, r.error["message"])


class TaskJsonLnc(unittest.TestCase):
    def task(self, tmp, lnc):
        shutil.copy(good("lnc_split.py"), os.path.join(tmp, "kernel.py"))
        doc = {"format": 1, "kernel_file": "kernel.py", "kernel": "lnc_add",
               "args": [{"name": "a", "shape": [512, 128], "dtype": "bfloat16"},
                        {"name": "b", "shape": [512, 128], "dtype": "bfloat16"}], "lnc": lnc}
        with open(os.path.join(tmp, "task.json"), "w", encoding="utf-8") as fh:
            json.dump(doc, fh)

    def test_task_lnc_is_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.task(tmp, 2)
            r = run("--task", tmp)
            self.assertEqual(r.rc, 0, r.stdout)
            self.assertEqual(r.ir["kernel"]["lnc"], 2)
            self.assertEqual(r.ir["kernel"]["grid"], [2])
            r1 = run("--task", tmp, "--lnc", "1")
            self.assertNotIn("lnc", r1.ir["kernel"], "--lnc overrides the task")

    def test_task_bad_lnc_is_refused(self):
        for bad in (3, 0, "2", True):
            with tempfile.TemporaryDirectory() as tmp:
                self.task(tmp, bad)
                r = run("--task", tmp)
                self.assertNotEqual(r.rc, 0)
                self.assertEqual(r.error["file"], "task.json")
                self.assertIn("\"lnc\" must be 1 or 2", r.error["message"])


if __name__ == "__main__":
    unittest.main()
