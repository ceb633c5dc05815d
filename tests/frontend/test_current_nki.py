"""The NKI of current releases (nki 0.2-0.8) and what real kernels around it need: packages, stand-in
imports, every argument kind, and the bad input for each. Kernels under tests/frontend/current/."""
import json
import os
import unittest

from kltest import APP_FLAGS, HERE, ops, run

CURRENT = os.path.join(HERE, "current")
PKG = os.path.join(CURRENT, "tilepkg")


def trace(name, *args):
    """Trace a kernel under current/ as the application does (-E -s -S)."""
    return run("--kernel-file", os.path.join(CURRENT, name), *args, flags=APP_FLAGS)


def trace_text(source, *args):
    """Trace a kernel given as text (written to a temporary file) with one [128, 4] float32 argument `a`."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(source)
        return run("--kernel-file", path, "--arg", "a=128x4:float32", *args, flags=APP_FLAGS)


def names(ir):
    return {b["id"]: b["name"] for b in ir["buffers"]}


class IsaKeywords(unittest.TestCase):
    def test_every_call_is_recorded_with_its_engine_and_isa_name(self):
        r = trace("isa_keywords.py", "--arg", "a=128x128:float32", "--arg", "b=128x128:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        got = [(i["op"], i["engine"], i["attrs"].get("isa")) for i in r.ir["instructions"]]
        self.assertEqual(got, [
            ("dma_copy", "dma", None), ("dma_copy", "dma", None), ("memset", "vector", None),
            ("tensor_tensor", "vector", None),
            ("tensor_tensor", "vector", "scalar_tensor_tensor"),
            ("tensor_scalar", "vector", "tensor_scalar_reduce"),
            ("activation", "scalar", None),
            ("tensor_reduce", "vector", "max8"), ("tensor_reduce", "vector", "nc_find_index8"),
            ("tensor_copy", "scalar", None), ("nc_transpose", "tensor", None), ("nc_matmul", "tensor", None),
            ("tensor_copy", "vector", None), ("dma_copy", "dma", None), ("dma_copy", "dma", None)])
        stt = r.ir["instructions"][4]
        self.assertEqual((stt["attrs"]["op0"], stt["attrs"]["op1"], stt["attrs"]["operand0"]), ("multiply", "add", 2.0))
        reduce_call = r.ir["instructions"][5]
        self.assertEqual(len(reduce_call["dst"]), 2, "reduce_res is written too")
        self.assertEqual(names(r.ir)[reduce_call["dst"][1]["buf"]], "red")
        transpose_dma = r.ir["instructions"][13]
        self.assertTrue(transpose_dma["attrs"].get("is_transpose"), "dma_transpose is a transposing DMA")
        self.assertEqual(r.ir["kernel"]["api"], "nki")

    def test_annotation_default_dtype_is_used(self):
        r = trace("isa_keywords.py", "--arg", "a=128x128:float32", "--arg", "b=128x128:float32")
        xb = [b for b in r.ir["buffers"] if b["name"] == "xb"][0]
        self.assertEqual(xb["dtype"], "bfloat16")
        r = trace("isa_keywords.py", "--arg", "a=128x128:float32", "--arg", "b=128x128:float32",
                  "--scalar", "dtype=nl.float16")
        xb = [b for b in r.ir["buffers"] if b["name"] == "xb"][0]
        self.assertEqual(xb["dtype"], "float16")


class LoopsAndScalars(unittest.TestCase):
    def test_loop_forms_iterate_as_written(self):
        r = trace("loops_and_scalars.py", "--arg", "a=128x64:float32", "--arg", "count=1x1:int32")
        self.assertEqual(r.rc, 0, r.stdout)
        alu = [i["attrs"].get("op0") for i in r.ir["instructions"] if i["op"] == "tensor_scalar"]
        self.assertEqual(alu, ["add"] * 3 + ["multiply"] * 2 + ["subtract"] + ["maximum"] * 2)
        isa = [i["attrs"].get("isa") for i in r.ir["instructions"] if "isa" in i["attrs"]]
        self.assertEqual(isa, ["register_load", "register_store"])

    def test_device_bound_is_warned_with_its_line(self):
        r = trace("loops_and_scalars.py", "--arg", "a=128x64:float32", "--arg", "count=1x1:int32")
        warnings = [d for d in r.ir["diagnostics"] if "device memory" in d["message"]]
        self.assertEqual(len(warnings), 1, r.ir["diagnostics"])
        self.assertEqual(warnings[0]["line"], 26)


class HbmViews(unittest.TestCase):
    def test_reshape_ap_and_two_outputs(self):
        r = trace("hbm_views.py", "--arg", "a=2x128x64:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        first = r.ir["instructions"][0]
        self.assertEqual(first["src"][0]["pattern"], [[64, 128], [8192, 2], [1, 64]])
        self.assertEqual(first["dst"][0]["part"], [0, 128], "an SBUF .ap() partition stride is the free size")
        roles = {b["name"]: b["role"] for b in r.ir["buffers"]}
        self.assertEqual((roles["first"], roles["second"]), ("output", "output"))
        third = r.ir["instructions"][2]
        self.assertEqual(third["src"][0]["offset"], 64, "t[:, 1, :] starts one row of 64 in")


class ReinterpretingAp(unittest.TestCase):
    def test_a_tile_read_as_another_dtype_counts_that_dtypes_elements(self):
        r = trace("reinterpret_ap.py", "--arg", "a=128x256:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        whole, upper = [i["src"][0] for i in r.ir["instructions"] if i["op"] == "tensor_copy"]
        self.assertEqual((whole["dtype"], whole["part"], whole["offset"], whole["pattern"]),
                         ("bfloat16", [0, 128], 0, [[1, 512]]),
                         "512 bfloat16 elements are one float32 row of 256: a step of one partition")
        self.assertEqual((upper["part"], upper["offset"], upper["pattern"]), ([0, 128], 256, [[1, 256]]),
                         "float32 column 128 starts 256 bfloat16 elements in")

    def test_a_view_starting_inside_an_element_of_the_new_dtype_is_an_error_with_its_line(self):
        r = trace("reinterpret_ap.py", "--arg", "a=128x256:float32", "--scalar", "misaligned=1")
        self.assertNotEqual(r.rc, 0)
        error = json.loads(r.stdout.strip().splitlines()[-1])["error"]
        self.assertIn("not on a float32 element", error["message"])
        self.assertEqual((error["file"], error["line"]), ("reinterpret_ap.py", 19))


class CompilerLncMx(unittest.TestCase):
    ARGS = ("--arg", "a=128x128:float8_e4m3fn_x4", "--arg", "sa=128x4:uint8", "--arg", "b=128x128:float8_e4m3fn_x4",
            "--arg", "sb=128x4:uint8")

    def test_trn3_kernel_with_directives_traces(self):
        r = trace("compiler_lnc_mx.py", *self.ARGS, "--target", "trn3")
        self.assertEqual(r.rc, 0, r.stdout)
        mm = [i for i in r.ir["instructions"] if i["op"] == "nc_matmul"][0]
        self.assertEqual(mm["attrs"]["isa"], "nc_matmul_mx")
        self.assertEqual(len(mm["src"]), 4, "both scales are read")
        self.assertEqual(ops(r.ir)[-1], "dma_copy", "gen4 branch taken on trn3")
        arenas = {b["name"]: b["shape"] for b in r.ir["buffers"] if "placed by the kernel" in b["name"]}
        self.assertEqual(arenas, {"sbuf (placed by the kernel)": [128, 512],
                                  "psum (placed by the kernel)": [128, 512]}, "placed tiles live in the arenas")
        messages = " ".join(d["message"] for d in r.ir["diagnostics"])
        self.assertIn("device_print", messages)
        self.assertIn("core_barrier", messages)

    def test_generation_answers_the_target(self):
        r = trace("compiler_lnc_mx.py", *self.ARGS, "--target", "trn2")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertNotEqual(ops(r.ir)[-1], "dma_copy", "no gen4 branch on trn2")


class ArgumentKinds(unittest.TestCase):
    def test_every_literal_kind_and_an_enum_member(self):
        r = trace("shape_args.py", "--arg", "a=128x64:float32", "--scalar", "shape2d=(2, 4)", "--scalar", "sizes=[8]",
                  "--scalar", "options={'k': 1}", "--scalar", "bias=None", "--scalar", "flag=true", "--scalar",
                  "label=hello", "--scalar", "factor=2.5", "--scalar", "mode=Mode.SCALE")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertIn("tensor_scalar", ops(r.ir), "Mode.SCALE took the scaling branch")

    def test_defaults_may_be_left_out(self):
        r = trace("shape_args.py", "--arg", "a=128x64:float32", "--scalar", "shape2d=(1, 1)")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertNotIn("tensor_scalar", ops(r.ir))

    def test_tuple_arrives_as_a_tuple(self):
        r = trace("shape_args.py", "--arg", "a=128x64:float32", "--scalar", "shape2d=(3,4)", "--scalar", "sizes=[12]")
        self.assertEqual(r.rc, 0, r.stdout)

    def test_task_json_scalars_use_the_same_rules(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(CURRENT, "shape_args.py"), encoding="utf-8") as src, \
                    open(os.path.join(tmp, "k.py"), "w", encoding="utf-8") as fh:
                fh.write(src.read())
            task = {"format": 1, "kernel_file": "k.py", "kernel": "shape_args",
                    "args": [{"name": "a", "shape": [128, 64], "dtype": "float32"}],
                    "scalars": {"shape2d": [2, 4], "sizes": [8], "mode": "Mode.SCALE", "factor": 2.0}}
            with open(os.path.join(tmp, "task.json"), "w", encoding="utf-8") as fh:
                json.dump(task, fh)
            r = run("--task", tmp, flags=APP_FLAGS)
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertIn("tensor_scalar", ops(r.ir))

    def test_wrong_enum_member_names_the_parameter_and_members(self):
        r = trace("shape_args.py", "--arg", "a=128x64:float32", "--scalar", "shape2d=(2, 4)", "--scalar",
                  "mode=Mode.SCAL")
        self.assertEqual(r.error["code"], "invalid_argument")
        self.assertIn("--scalar mode", r.error["message"])
        self.assertIn("SCALE", r.error["hint"])
        self.assertEqual((r.error["file"], r.error["line"]), ("shape_args.py", 13))

    def test_undefined_name_is_refused(self):
        r = trace("shape_args.py", "--arg", "a=128x64:float32", "--scalar", "shape2d=(2, 4)", "--scalar",
                  "mode=Kind.SCALE")
        self.assertEqual(r.error["code"], "invalid_argument")
        self.assertIn("'Kind' is not defined", r.error["message"])

    def test_missing_parameter_names_it_and_its_kind(self):
        r = trace("shape_args.py", "--arg", "a=128x64:float32")
        self.assertEqual(r.error["code"], "invalid_argument")
        self.assertIn("missing 'shape2d'", r.error["message"])
        self.assertIn("--scalar shape2d=VALUE", r.error["message"])

    def test_unknown_parameter_suggests_the_close_one(self):
        r = trace("shape_args.py", "--arg", "a=128x64:float32", "--scalar", "shape2=(1, 1)")
        self.assertIn("has no parameter 'shape2'", r.error["message"])
        self.assertIn("shape2d", r.error["hint"])

    def test_tensors_bind_by_parameter_name(self):
        r = trace("returns_nothing.py", "--arg", "out=128x32:float32", "--arg", "a=128x32:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        roles = {b["name"]: b["role"] for b in r.ir["buffers"]}
        self.assertEqual((roles["a"], roles["out"]), ("input", "output"), "written argument is the output")


class PackagesAndStandIns(unittest.TestCase):
    SCALE = ("--arg", "x=256x64:float32", "--scalar", "shape2d=(3, 4)")

    def test_relative_and_absolute_imports_keep_their_files(self):
        r = run("--kernel-file", os.path.join(PKG, "ops", "scale_kernel.py"), *self.SCALE, "--scalar",
                "scaling=Scaling.DOUBLE", flags=APP_FLAGS)
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(r.ir["files"][0], "ops/scale_kernel.py")
        self.assertIn("util/shapes.py", r.ir["files"])
        helper = [i for i in r.ir["instructions"] if i["op"] == "tensor_scalar"][0]
        inner = helper["loc"][0]
        self.assertEqual((r.ir["files"][inner["file"]], inner["line"]), ("util/shapes.py", 27))
        self.assertEqual(helper["attrs"]["operand0"], 2.0, "Scaling.DOUBLE from the package's enum")

    def test_constructor_call_and_default_object(self):
        r = run("--kernel-file", os.path.join(PKG, "ops", "scale_kernel.py"), *self.SCALE, "--scalar",
                "plan=TilePlan(rows=64)", flags=APP_FLAGS)
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(sum(1 for i in r.ir["instructions"] if i["op"] == "tensor_scalar"), 4, "256 rows / 64")

    def test_package_root_override_and_a_wrong_one(self):
        r = run("--kernel-file", os.path.join(PKG, "ops", "scale_kernel.py"), "--package-root", PKG, *self.SCALE,
                flags=APP_FLAGS)
        self.assertEqual(r.rc, 0, r.stdout)
        r = run("--kernel-file", os.path.join(PKG, "ops", "scale_kernel.py"), "--package-root",
                os.path.join(HERE, "good"), *self.SCALE, flags=APP_FLAGS)
        self.assertEqual(r.error["code"], "invalid_argument")
        self.assertIn("not inside --package-root", r.error["message"])

    def test_unused_framework_imports_are_stand_ins(self):
        r = trace("tutorial_imports.py", "--arg", "a=128x64:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(ops(r.ir), ["dma_copy", "tensor_scalar", "dma_copy"])

    def test_a_used_stand_in_fails_at_its_line(self):
        r = run("--kernel-file", os.path.join(PKG, "ops", "uses_torch.py"), "--arg", "x=128x64:float32",
                flags=APP_FLAGS)
        self.assertEqual(r.error["code"], "unsupported")
        self.assertIn("torch.zeros", r.error["message"])
        self.assertEqual((r.error["file"], r.error["line"]), ("ops/uses_torch.py", 10))

    def test_host_constants_from_scipy_circulant_and_a_npy_file(self):
        # rotational_topk's pattern: a scipy.linalg.circulant matrix saved to a .npy file (here in the front end's
        # private working folder), passed to nl.shared_constant by its path.
        r = trace_text("import tempfile\n\nimport nki\nimport nki.isa as nisa\nimport nki.language as nl\n"
                       "import numpy as np\nfrom scipy.linalg import circulant\n\n\n@nki.jit\ndef k(a):\n"
                       "    m = circulant(np.eye(4)[1]).astype(np.float32)\n"
                       "    assert (m @ np.arange(4.0)).tolist() == [3.0, 0.0, 1.0, 2.0]\n"
                       "    with tempfile.NamedTemporaryFile(suffix='.npy', dir='.', delete=False) as f:\n"
                       "        np.save(f, np.kron(np.eye(32), m).astype(np.float32))\n"
                       "    c = nl.shared_constant(f.name)\n"
                       "    out = nl.ndarray((128, 4), dtype=nl.float32, buffer=nl.shared_hbm)\n"
                       "    nisa.dma_copy(out, c[:, 0:4])\n"
                       "    return out\n")
        self.assertEqual(r.rc, 0, r.stdout)
        const = [b for b in r.ir["buffers"] if b["memory"] == "hbm" and b["shape"] == [128, 128]]
        self.assertEqual([b["dtype"] for b in const], ["float32"])

    def test_a_shared_constant_path_that_is_no_npy_file_is_refused_at_its_line(self):
        # A text file, a .npy whose header is cut, and a float64 one: each a clear refusal at the call, no crash.
        for make, why in (("open('c.npy', 'w').write('hello world')", "not a .npy file"),
                          ("open('c.npy', 'wb').write(b'\\x93NUMPY\\x01\\x00\\x20\\x00{\\'descr\\': ')",
                           "not a NumPy header"),
                          ("np.save('c.npy', np.zeros((4, 4)))", "element type '<f8' is not supported")):
            r = trace_text("import nki\nimport nki.language as nl\nimport numpy as np\n\n\n@nki.jit\ndef k(a):\n"
                           f"    {make}\n"
                           "    c = nl.shared_constant('c.npy')\n"
                           "    return c\n")
            self.assertNotEqual(r.rc, 0, why)
            self.assertEqual(r.error["code"], "unsupported", r.error)
            self.assertIn(why, r.error["message"])
            self.assertEqual(r.error["line"], 9, r.error)

    def test_missing_sibling_module_is_a_real_import_error(self):
        r = run("--kernel-file", os.path.join(PKG, "ops", "bad_relative.py"), "--arg", "x=128x64:float32",
                flags=APP_FLAGS)
        self.assertEqual(r.error["code"], "kernel_error")
        self.assertIn("tilepkg.util.missing_module", r.error["message"])
        self.assertEqual(r.error["line"], 4)

    def test_task_json_package_root(self):
        import shutil
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(PKG, os.path.join(tmp, "src", "tilepkg"))
            task = {"format": 1, "kernel_file": "src/tilepkg/ops/scale_kernel.py", "kernel": "scale_kernel",
                    "package_root": "src/tilepkg", "args": [{"name": "x", "shape": [128, 64], "dtype": "float32"}],
                    "scalars": {"shape2d": [2, 2], "scaling": "Scaling.DOUBLE"}}
            with open(os.path.join(tmp, "task.json"), "w", encoding="utf-8") as fh:
                json.dump(task, fh)
            r = run("--task", tmp, flags=APP_FLAGS)
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertIn("src/tilepkg/util/shapes.py", r.ir["files"], "paths relative to the task folder")

    def test_list_kernels_names_parameters_and_defaults(self):
        r = run("--kernel-file", os.path.join(PKG, "ops", "scale_kernel.py"), "--list-kernels", flags=APP_FLAGS)
        self.assertEqual(r.rc, 0, r.stdout)
        listing = json.loads(r.text)["kernels"]
        self.assertEqual([k["name"] for k in listing], ["scale_kernel"])
        params = {p["name"]: p for p in listing[0]["params"]}
        self.assertFalse(params["x"]["has_default"])
        self.assertTrue(params["x"]["tensor"])
        self.assertEqual(params["shape2d"]["default"], "(1, 1)")


class LegacyIdioms(unittest.TestCase):
    def test_public_kernel_idioms_trace(self):
        r = trace("legacy_idioms.py", "--arg", "a=128x128:bfloat16", "--arg", "b=128x512:bfloat16")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(ops(r.ir).count("nc_matmul"), 17)
        blocks = [b for b in r.ir["buffers"] if b["name"] == "blocks"][0]
        self.assertEqual(blocks["shape"], [128, 16, 512], "one buffer; its overflow is the simulator's to show")
        sub = [i for i in r.ir["instructions"] if i["op"] == "tensor_scalar"][0]
        self.assertEqual(sub["attrs"]["op0"], "subtract", "a [P, 1] column is a per-partition scalar operand")
        warn = [d for d in r.ir["diagnostics"] if "before anything was written" in d["message"]]
        self.assertEqual([d["line"] for d in warn], [19])
        mms = [i for i in r.ir["instructions"] if i["op"] == "nc_matmul"]
        self.assertFalse(mms[-1]["attrs"]["accumulate"], "the first matmul into a fresh PSUM tile starts the sum")

    def test_reading_a_never_written_tile_is_still_an_error(self):
        r = trace_text("import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n\n@nki.jit\n"
                       "def k(a):\n    t = nl.ndarray((128, 4), dtype=nl.float32, buffer=nl.sbuf)\n"
                       "    return nl.exp(t)\n")
        self.assertEqual(r.error["code"], "kernel_error")
        self.assertEqual(r.error["line"], 8)


class DirectAllocation(unittest.TestCase):
    def test_modulo_allocation_reuses_physical_tiles(self):
        r = trace("placed_tiles.py", "--arg", "a=512x512:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        arena = [b["id"] for b in r.ir["buffers"] if b["name"] == "sbuf (placed by the kernel)"][0]
        loads = [i for i in r.ir["instructions"] if i["op"] == "dma_copy" and i["dst"][0]["buf"] == arena]
        self.assertEqual([i["dst"][0]["offset"] for i in loads], [0, 2048, 0, 2048], "blocks 2, 3 reuse 0, 1")
        exps = [i for i in r.ir["instructions"] if i["op"] == "activation"]
        self.assertEqual({i["dst"][0]["offset"] for i in exps}, {65536}, "the allocation function's address")
        psum = [b for b in r.ir["buffers"] if b["name"] == "psum (placed by the kernel)"][0]
        self.assertEqual(psum["shape"], [128, 6 * 2048], "bank 5 ends at 12 KiB")
        psum_writes = [i["dst"][0]["offset"] for i in r.ir["instructions"] if i["dst"][0]["buf"] == psum["id"]]
        self.assertEqual(psum_writes, [2 * 2048, 5 * 2048], "bank 2 (mod_alloc), bank 5 (the function)")

    @unittest.skipUnless(os.environ.get("KL_CLI"), "needs the kernellens-cli binary (set by ctest)")
    def test_a_reused_tile_waits_for_its_readers(self):
        import subprocess
        proc = subprocess.run([os.environ["KL_CLI"], "simulate", os.path.join(CURRENT, "placed_tiles.py"), "--arg",
                               "a=512x512:float32", "--hw", "trn1", "--timeline", "11"],
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, KL_PYTHON="/usr/bin/python3"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        row = [line for line in proc.stdout.splitlines() if line.strip().startswith("[4]")][0]
        self.assertIn("dependency #1", row, "the third load overwrites the first tile only after it was read")

    def test_slicing_across_blocks_is_refused(self):
        r = trace_text("import neuronxcc.nki as nki\nimport neuronxcc.nki.compiler as ncc\n"
                       "import neuronxcc.nki.language as nl\n\n\n@nki.jit\ndef k(a):\n"
                       "    t = nl.ndarray((2, nl.par_dim(128), 4), dtype=nl.float32,\n"
                       "                   buffer=ncc.sbuf.mod_alloc(base_addr=0))\n"
                       "    return t[0:2]\n")
        self.assertEqual(r.error["code"], "unsupported")
        self.assertIn("across the blocks", r.error["message"])
        self.assertEqual(r.error["line"], 10)

    def test_a_placed_tile_reshapes_in_bytes(self):
        # nl.ndarray(address=...) tiles are byte-strided views of the arena: a float32 tile's free dims step 4.
        r = trace_text("import nki\nimport nki.isa as nisa\nimport nki.language as nl\n\n\n@nki.jit\ndef k(a):\n"
                       "    out = nl.ndarray((128, 4), dtype=nl.float32, buffer=nl.shared_hbm)\n"
                       "    t = nl.ndarray((128, 8), dtype=nl.float32, buffer=nl.sbuf, address=(0, 1024))\n"
                       "    nisa.dma_copy(t.reshape((128, 2, 4))[:, 1, :], a)\n"
                       "    nisa.dma_copy(out, t[:, 4:8])\n"
                       "    return out\n")
        self.assertEqual(r.rc, 0, r.stdout)
        write, read = r.ir["instructions"]
        self.assertEqual((write["dst"][0]["offset"], write["dst"][0]["pattern"]), (1040, [[4, 4]]))
        self.assertEqual(write["dst"][0], read["src"][0], "the reshaped row is the slice t[:, 4:8]")


class IndirectAccess(unittest.TestCase):
    def test_gather_and_scatter_read_the_index_tile(self):
        r = trace("gather_legacy.py", "--arg", "table=1000x64:float32", "--arg", "ids=128x1:int32")
        self.assertEqual(r.rc, 0, r.stdout)
        load_ids, gather, scatter = r.ir["instructions"]
        n = names(r.ir)
        self.assertEqual([n[s["buf"]] for s in gather["src"]], ["table", "idx"])
        self.assertEqual([n[s["buf"]] for s in scatter["src"]], ["rows", "idx"])
        self.assertTrue(gather["attrs"]["indirect"] and scatter["attrs"]["indirect"])
        self.assertEqual(gather["elements"], 128 * 64, "the bytes moved follow the index tile's shape")
        self.assertEqual(len([d for d in r.ir["diagnostics"] if "indirect" in d["message"]]), 2)

    def test_gather_through_an_unwritten_index_tile_is_an_error(self):
        r = trace_text("import neuronxcc.nki as nki\nimport neuronxcc.nki.language as nl\n\n\n@nki.jit\n"
                       "def k(a):\n    idx = nl.ndarray((128, 1), dtype=nl.int32, buffer=nl.sbuf)\n"
                       "    return nl.load(a[idx, 0:4])\n")
        self.assertEqual(r.error["code"], "kernel_error")
        self.assertIn("index tile 'idx'", r.error["message"])
        self.assertEqual(r.error["line"], 8)


class KernelOutputStaysOutOfTheReport(unittest.TestCase):
    def test_a_printing_kernel_cannot_fake_the_error_report(self):
        r = trace_text("import os\nimport nki\n\n\n@nki.jit\ndef printer(a):\n"
                       "    print('{\"error\": {\"code\": \"fake\"}}')\n"
                       "    os.write(1, b'{\"error\": {\"code\": \"fake2\"}}\\n')\n"
                       "    raise ValueError('real')\n")
        self.assertEqual(r.error["code"], "kernel_error", r.stdout)
        self.assertIn("real", r.error["message"])
        self.assertIn("fake", r.stderr, "the kernel's own output goes to stderr")


if __name__ == "__main__":
    unittest.main()
