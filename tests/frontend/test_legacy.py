"""Tracing kernels written against the legacy neuronxcc.nki API."""
import unittest

from kltest import good, ops, run


def ap(a):
    return a["buf"], a.get("part"), a["offset"], a["pattern"]


class VectorAdd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.r = run("--kernel-file", good("vadd_legacy.py"), "--arg", "a=256x512:float32", "--arg", "b=256x512:float32")

    def test_instruction_stream(self):
        ir = self.r.ir
        self.assertEqual(self.r.rc, 0, self.r.stdout)
        self.assertEqual(ir["kernel"]["api"], "legacy")
        self.assertEqual(ops(ir), ["dma_copy", "dma_copy", "tensor_tensor", "dma_copy"] * 2)
        self.assertEqual([i["engine"] for i in ir["instructions"][:4]], ["dma", "dma", "vector", "dma"])
        self.assertEqual([i["iter"] for i in ir["instructions"]], [[0]] * 4 + [[1]] * 4)

    def test_operands(self):
        ins = self.r.ir["instructions"]
        load_b_second = ins[5]
        self.assertEqual(load_b_second["src"][0], {"buf": 1, "offset": 128 * 512, "pattern": [[512, 128], [1, 512]],
                                                    "dtype": "float32"})
        self.assertEqual(load_b_second["dst"][0]["part"], [0, 128])
        self.assertEqual(load_b_second["dst"][0]["pattern"], [[1, 512]])
        self.assertEqual(load_b_second["elements"], 128 * 512)
        self.assertEqual(load_b_second["bytes"], 128 * 512 * 4)
        self.assertEqual(ins[2]["attrs"], {"op0": "add"})

    def test_buffers(self):
        bufs = self.r.ir["buffers"]
        self.assertEqual([b["role"] for b in bufs[:3]], ["input", "input", "output"])
        self.assertEqual(bufs[2]["name"], "out")
        tiles = [b for b in bufs if b["memory"] == "sbuf"]
        self.assertEqual(len(tiles), 6, "one buffer per tile per iteration")
        self.assertEqual([b["name"] for b in tiles[:3]], ["x", "y", "z"])
        self.assertEqual(tiles[0]["decl"], {"file": 0, "line": 10})


class MatmulPsum(unittest.TestCase):
    def test_accumulation(self):
        r = run("--kernel-file", good("matmul_tiled_legacy.py"), "--arg", "lhsT=512x256:bfloat16",
                "--arg", "rhs=512x1024:bfloat16")
        ir = r.ir
        mms = [i for i in ir["instructions"] if i["op"] == "nc_matmul"]
        self.assertEqual(len(mms), 2 * 2 * 4)
        self.assertEqual([m["attrs"]["accumulate"] for m in mms[:4]], [False, True, True, True])
        self.assertEqual(mms[0]["attrs"]["moving_free"], 512)
        self.assertEqual(mms[0]["attrs"]["stationary_free"], 128)
        self.assertEqual(mms[0]["engine"], "tensor")
        psum = {m["dst"][0]["buf"] for m in mms[:4]}
        self.assertEqual(len(psum), 1, "the four K steps accumulate into one PSUM tile")
        self.assertEqual(ir["buffers"][psum.pop()]["memory"], "psum")
        self.assertEqual(ops(ir).count("dma_copy"), 2 * 2 * (8 + 1))
        self.assertEqual(ops(ir).count("memset"), 0, "nl.zeros of an accumulator needs no memset")

    def test_matmul_without_transpose_x(self):
        r = run("--kernel-file", good("misc_legacy.py"), "--arg", "a=128x256:bfloat16", "--arg", "w=128x64:bfloat16")
        self.assertEqual(r.rc, 0, r.stdout)
        seq = ops(r.ir)
        i = seq.index("nc_matmul")
        self.assertEqual(seq[i - 2:i + 1], ["nc_transpose", "tensor_copy", "nc_matmul"])


class Spmd(unittest.TestCase):
    def test_grid(self):
        r = run("--kernel-file", good("spmd_legacy.py"), "--arg", "a=256x512:float32", "--grid", "2x2")
        ir = r.ir
        self.assertEqual(ir["kernel"]["grid"], [2, 2])
        self.assertEqual([i["pid"] for i in ir["instructions"][::3]], [[0, 0], [0, 1], [1, 0], [1, 1]])
        outs = [b for b in ir["buffers"] if b["role"] == "output"]
        self.assertEqual(len(outs), 1, "shared_hbm output is one tensor across instances")
        stores = [i for i in ir["instructions"] if i["dst"][0]["buf"] == outs[0]["id"]]
        self.assertEqual([s["dst"][0]["offset"] for s in stores], [0, 256, 128 * 512, 128 * 512 + 256])


class MasksAndArange(unittest.TestCase):
    def test_last_tile_is_masked(self):
        r = run("--kernel-file", good("mask_arange.py"), "--arg", "a=300x64:float32")
        ins = r.ir["instructions"]
        self.assertEqual(len(ins), 9)
        last_load, last_act, last_store = ins[6:9]
        self.assertEqual(last_load["src"][0]["offset"], 256 * 64)
        self.assertEqual(last_load["src"][0]["pattern"], [[64, 44], [1, 64]])
        self.assertEqual(last_load["dst"][0]["part"], [0, 44])
        self.assertEqual(last_act["elements"], 44 * 64)
        self.assertEqual(last_act["attrs"], {"func": "relu"})
        self.assertEqual(last_act["engine"], "scalar")
        self.assertEqual(last_store["dst"][0]["pattern"], [[64, 44], [1, 64]])


class Locations(unittest.TestCase):
    def test_helper_frames_and_warnings(self):
        r = run("--kernel-file", good("with_helper.py"), "--arg", "a=128x64:float32")
        ir = r.ir
        self.assertEqual(ir["files"], ["with_helper.py", "helper_ops.py"])
        self.assertEqual(ir["instructions"][0]["loc"], [{"file": 1, "line": 6}, {"file": 0, "line": 11}])
        self.assertEqual(len(ir["diagnostics"]), 1)
        self.assertIn("device_print", ir["diagnostics"][0]["message"])


def shapes(ir):
    """Buffer name -> shape of the first buffer with that name."""
    out = {}
    for b in ir["buffers"]:
        out.setdefault(b["name"], b["shape"])
    return out


class FreeAxisReductions(unittest.TestCase):
    """A reduction over the free axes keeps the partition axis: [P, F] -> [P, 1] with or without keepdims."""

    def test_softmax_divides_by_row_sum(self):
        r = run("--kernel-file", good("reduce_softmax.py"), "--arg", "x=128x512:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        ir = r.ir
        self.assertEqual(shapes(ir)["denominator"], [128, 1])
        self.assertEqual(shapes(ir)["probs"], [128, 512])
        self.assertEqual(ops(ir), ["dma_copy", "activation", "tensor_reduce", "tensor_scalar", "dma_copy"])
        div = ir["instructions"][3]
        self.assertEqual(div["attrs"], {"op0": "divide", "reverse0": False})
        self.assertEqual([ap(a)[3] for a in div["src"]], [[[1, 512]], [[1, 1]]])
        self.assertEqual(ir["instructions"][2]["dst"][0]["part"], [0, 128])

    def test_rmsnorm_scales_rows(self):
        r = run("--kernel-file", good("reduce_rmsnorm.py"), "--arg", "act=300x256:float32", "--arg", "gain=256:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        ir = r.ir
        sh = shapes(ir)
        self.assertEqual([sh[n] for n in ("ss", "ms", "rms_reciprocal", "scaled", "gain_all")],
                         [[128, 1], [128, 1], [128, 1], [128, 256], [128, 256]])
        band = ["dma_copy", "activation", "tensor_reduce", "tensor_scalar", "activation", "tensor_scalar",
                "tensor_tensor", "dma_copy"]
        # The partition broadcast of a row of 256 is a TensorE matmul of ones into PSUM (one bank).
        self.assertEqual(ops(ir), ["dma_copy", "nc_matmul"] + band * 3)
        bcast = ir["instructions"][1]
        self.assertEqual((bcast["engine"], bcast["attrs"]["broadcast"], bcast["attrs"]["contraction"]),
                         ("tensor", True, 1))
        self.assertEqual(ir["buffers"][bcast["dst"][0]["buf"]]["memory"], "psum")
        self.assertEqual(len(ir["instructions"]), 26)
        scale = [i for i in ir["instructions"] if i["op"] == "tensor_scalar" and i["attrs"]["op0"] == "multiply"]
        self.assertEqual(len(scale), 3)
        self.assertEqual(scale[0]["src"][1]["pattern"], [[1, 1]], "the [P, 1] scale is the per-partition operand")
        last_store = ir["instructions"][-1]
        self.assertEqual(last_store["dst"][0]["pattern"], [[256, 44], [1, 256]], "the last band is masked")

    def test_broadcast_of_reduced_tile(self):
        r = run("--kernel-file", good("reduce_broadcast.py"), "--arg", "a=128x512:float32", "--arg", "c=128x4x8:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        ir = r.ir
        sh = shapes(ir)
        self.assertEqual([sh[n] for n in ("sum_res", "inv", "row_max", "row_mean", "neg_min")], [[128, 1]] * 5)
        self.assertEqual(sh["both"], [128, 1], "several free axes reduced without keepdims -> [P, 1]")
        self.assertEqual(sh["last"], [128, 4])
        self.assertEqual(sh["kept"], [128, 1, 1])
        self.assertEqual(sh["spread"], [128, 4])
        self.assertEqual(len(ir["instructions"]), 17)
        self.assertEqual(ops(ir).count("tensor_reduce"), 7)
        recip, mul = ir["instructions"][3:5]
        self.assertEqual(recip["attrs"], {"op0": "divide", "operand0": 1.0, "reverse0": True})
        self.assertEqual(mul["op"], "tensor_tensor")
        self.assertEqual(mul["src"][1]["pattern"], [[0, 512]], "broadcast_to reads the [P, 1] tile with stride 0")
        reduces = [i for i in ir["instructions"] if i["op"] == "tensor_reduce"]
        self.assertEqual([i["attrs"]["op0"] for i in reduces], ["add", "max", "mean", "min", "add", "add", "add"])
        self.assertEqual([i["attrs"]["axis"] for i in reduces[-3:]], [[1, 2], [2], [1, 2]])
        self.assertTrue(reduces[3]["attrs"]["negate"])


class InPlace(unittest.TestCase):
    def test_name_accumulate_then_assign(self):
        # `acc += ...` on a plain name has no __setitem__ after it; a later `res[...] = acc` is a copy.
        r = run("--kernel-file", good("psum_name_accumulate.py"), "--arg", "a=128x128:bfloat16",
                "--arg", "b=128x512:bfloat16")
        self.assertEqual(r.rc, 0, r.stdout)
        self.assertEqual(ops(r.ir), ["dma_copy", "dma_copy", "nc_matmul", "tensor_copy", "dma_copy"])
        copy = r.ir["instructions"][3]
        self.assertEqual(r.ir["buffers"][copy["src"][0]["buf"]]["memory"], "psum")
        self.assertEqual(r.ir["buffers"][copy["dst"][0]["buf"]]["name"], "res")


class LoadIntoTile(unittest.TestCase):
    def test_dma_writes_the_destination(self):
        # `t[...] = nl.load(src)` is one DMA into t (no temporary tile), whatever t is.
        r = run("--kernel-file", good("load_into_views.py"), "--arg", "a=128x64:float32", "--arg", "b=128x64:float32")
        self.assertEqual(r.rc, 0, r.stdout)
        ir = r.ir
        self.assertEqual(ops(ir), ["dma_copy"] * 10)
        names = [ir["buffers"][i["dst"][0]["buf"]]["name"] for i in ir["instructions"]]
        self.assertEqual(names, ["big", "big", "t", "out", "u", "v", "v", "u", "v", "v"])
        self.assertEqual([i["dst"][0]["offset"] for i in ir["instructions"][:2]], [0, 64], "arange view, then slice")
        self.assertEqual(ir["instructions"][2]["bytes"], 128 * 64 * 2, "bytes in the destination's dtype")
        self.assertNotIn("part", ir["instructions"][3]["dst"][0], "an HBM destination")
        self.assertEqual([i["iter"] for i in ir["instructions"][4:]], [[0]] * 3 + [[1]] * 3)
        self.assertEqual(sorted(b["name"] for b in ir["buffers"] if b["memory"] == "sbuf"),
                         ["big", "t", "u", "v", "v"], "no buffer for the loads' temporaries")


if __name__ == "__main__":
    unittest.main()


class LocationsAndScalars(unittest.TestCase):
    """Cached source locations must still name the right lines; equal-looking scalars keep their text."""

    @classmethod
    def setUpClass(cls):
        cls.r = run("--kernel-file", good("locs_and_scalars.py"), "--arg", "a=256x64:float32")

    def test_locations(self):
        self.assertEqual(self.r.rc, 0, self.r.stdout)
        ins = self.r.ir["instructions"]
        per_iter = [(i["op"], [l["line"] for l in i["loc"]]) for i in ins[:7]]
        self.assertEqual(per_iter, [("dma_copy", [14]), ("tensor_scalar", [15]), ("tensor_scalar", [16]),
                                    ("tensor_scalar", [7, 17]), ("tensor_scalar", [7, 17]),
                                    ("tensor_scalar", [18]), ("dma_copy", [18])])
        self.assertEqual([[l["line"] for l in i["loc"]] for i in ins[7:]], [p[1] for p in per_iter])
        self.assertEqual([i["iter"] for i in ins], [[0]] * 7 + [[1]] * 7)

    def test_signed_zero_operands(self):
        text = self.r.text
        self.assertIn('"operand0":0.0,', text)
        self.assertIn('"operand0":-0.0,', text)
        ops0 = [i["attrs"].get("operand0") for i in self.r.ir["instructions"] if i["op"] == "tensor_scalar"]
        self.assertEqual([str(v) for v in ops0], ["0.0", "-0.0", "2.0", "0.5", "0.0"] * 2)
