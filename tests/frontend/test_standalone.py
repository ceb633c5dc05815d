"""Tracing kernels written against the standalone nki API (destination-first ISA calls)."""
import os
import unittest

import kltest
from kltest import good, ops, run


class StandaloneVectorAdd(unittest.TestCase):
    def test_trace(self):
        r = run("--kernel-file", good("vadd_nki.py"), "--arg", "a=256x512:float32", "--arg", "b=256x512:float32")
        ir = r.ir
        self.assertEqual(ir["kernel"]["api"], "nki")
        self.assertEqual(ops(ir), ["dma_copy", "dma_copy", "tensor_tensor", "dma_copy"] * 2)
        add = ir["instructions"][2]
        names = {b["id"]: b["name"] for b in ir["buffers"]}
        self.assertEqual(names[add["dst"][0]["buf"]], "z")
        self.assertEqual([names[s["buf"]] for s in add["src"]], ["x", "y"])
        self.assertEqual(ir["instructions"][7]["dst"][0]["offset"], 128 * 512)


class StandaloneMatmul(unittest.TestCase):
    def test_accumulate_flags(self):
        r = run("--kernel-file", good("matmul_nki.py"), "--arg", "lhsT=512x128:bfloat16", "--arg", "rhs=512x512:bfloat16")
        ir = r.ir
        mms = [i for i in ir["instructions"] if i["op"] == "nc_matmul"]
        self.assertEqual([m["attrs"]["accumulate"] for m in mms], [False, True, True, True])
        self.assertEqual([m["iter"] for m in mms], [[0], [1], [2], [3]], "plain range loops are recorded")
        self.assertEqual(ops(ir)[-2:], ["tensor_copy", "dma_copy"])
        self.assertEqual(ir["instructions"][-2]["src"][0]["buf"], mms[0]["dst"][0]["buf"])


class TaskFolder(unittest.TestCase):
    def test_task_json_and_override(self):
        r = run("--task", good("task_vadd"))
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(r.ir["kernel"]["name"], "vadd")
        self.assertEqual(r.ir["kernel"]["args"][1], {"name": "b", "shape": [256, 512], "dtype": "float32"})
        self.assertEqual(len(r.ir["instructions"]), 8)
        r2 = run("--task", good("task_vadd"), "--arg", "a=512x512:float32", "--arg", "b=512x512:float32")
        self.assertEqual(len(r2.ir["instructions"]), 16)


class Determinism(unittest.TestCase):
    def test_byte_identical(self):
        args = ("--kernel-file", good("matmul_tiled_legacy.py"), "--arg", "lhsT=256x256:bfloat16",
                "--arg", "rhs=256x1024:bfloat16")
        a, b = run(*args), run(*args)
        self.assertEqual(a.rc, 0)
        self.assertEqual(a.text, b.text)
        self.assertNotIn("\n", a.text, "compact output by default")
        self.assertTrue(a.text.startswith('{"ir_version":1,"kernel":'))


class NumpyStandIn(unittest.TestCase):
    ENV = {"KLTRACE_NUMPY_SHIM": "1"}

    def test_dtype_names_work(self):
        r = run("--kernel-file", good("numpy_dtypes.py"), "--arg", "a=128x64:float32", env=self.ENV)
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(r.ir["instructions"][0]["dst"][0]["dtype"], "float16")

    def test_computation_is_refused(self):
        r = run("--kernel-file", good("numpy_compute.py"), "--arg", "a=128x64:float32", env=self.ENV)
        self.assertEqual(r.error["code"], "unsupported")
        self.assertIn("numpy.zeros", r.error["message"])
        self.assertEqual(r.error["line"], 9)


def _system_numpy():
    import subprocess
    return subprocess.run([kltest.PYTHON, "-c", "import numpy"], capture_output=True).returncode == 0


class NumpyOperators(unittest.TestCase):
    """np.max / np.min / np.true_divide / np.abs ... as operators are recorded under the nl op names."""
    ARGS = ("--kernel-file", good("numpy_alu.py"), "--arg", "a=128x64:float32", "--arg", "b=128x64:float32")
    EXPECTED = [("tensor_reduce", "max"), ("tensor_reduce", "min"), ("tensor_reduce", "add"),
                ("tensor_tensor", "divide"), ("tensor_tensor", "divide"), ("tensor_tensor", "maximum"),
                ("tensor_scalar", "multiply"), ("activation", "exp"), ("activation", "abs"),
                ("tensor_reduce", "max"), ("tensor_reduce", "min")]

    def names(self, r):
        self.assertEqual(r.rc, 0, r.stdout + r.stderr)
        ins = r.ir["instructions"][2:]
        return [(i["op"], i["attrs"].get("op0", i["attrs"].get("func"))) for i in ins]

    def test_stand_in(self):
        r = run(*self.ARGS, env=NumpyStandIn.ENV)
        self.assertEqual(self.names(r), self.EXPECTED)
        self.assertEqual(r.ir["instructions"][8]["attrs"]["op1"], "add")

    def test_as_the_application_runs_it(self):
        # -S: no system NumPy on the path, so the stand-in is picked without KLTRACE_NUMPY_SHIM.
        r = run(*self.ARGS, flags=kltest.APP_FLAGS)
        self.assertEqual(self.names(r), self.EXPECTED)
        self.assertEqual(r.text, run(*self.ARGS, env=NumpyStandIn.ENV).text)

    @unittest.skipUnless(_system_numpy(), "no system NumPy")
    def test_system_numpy(self):
        r = run(*self.ARGS)
        self.assertEqual(self.names(r), self.EXPECTED)
        self.assertEqual(r.text, run(*self.ARGS, env=NumpyStandIn.ENV).text, "same IR with NumPy and its stand-in")

    def test_calling_a_numpy_function_is_refused(self):
        r = run("--kernel-file", good("numpy_call.py"), "--arg", "a=128x64:float32", env=NumpyStandIn.ENV)
        self.assertEqual(r.error["code"], "unsupported")
        self.assertIn("numpy.exp", r.error["message"])
        self.assertEqual(r.error["line"], 10)

    def test_alias_table(self):
        import sys
        sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))
        try:
            from kltrace.ops import op_name
        finally:
            sys.path.pop(0)

        class F:
            def __init__(self, name):
                self.__name__ = name
        for numpy_name, nl_name in (("amax", "max"), ("amin", "min"), ("true_divide", "divide"),
                                    ("absolute", "abs"), ("remainder", "mod"), ("sum", "add"), ("add", "add"),
                                    ("max", "max"), ("maximum", "maximum")):
            self.assertEqual(op_name(F(numpy_name)), nl_name)
        self.assertEqual(op_name("amax"), "max")


if __name__ == "__main__":
    unittest.main()
