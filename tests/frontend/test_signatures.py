"""One signature table for both NKI generations (sim/frontend/kltrace/signatures.py, issue 22): the classic nisa
calls of both generations are the wrappers generated from it, their parameters follow the NKI API reference,
and every call the reference lists for either generation resolves (or is a known, named gap)."""
import inspect
import os
import sys
import unittest

import kltest

sys.path.insert(0, os.path.join(kltest.ROOT, "sim", "frontend"))
from kltrace import isa, signatures  # noqa: E402

# The ISA calls each generation's reference lists (names only): legacy neuronxcc.nki.isa as of Neuron 2.26
# (https://awsdocs-neuron.readthedocs-hosted.com/en/v2.26.1/nki/api/nki.isa.html), current nki.isa
# (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/nki.isa.html, v2.29.1's list).
DOCUMENTED_CALLS = {
    "legacy": """nc_matmul nc_transpose activation activation_reduce tensor_reduce tensor_partition_reduce
        tensor_tensor tensor_tensor_scan scalar_tensor_tensor tensor_scalar tensor_scalar_reduce tensor_copy
        tensor_copy_dynamic_src tensor_copy_dynamic_dst tensor_copy_predicated reciprocal iota dropout
        affine_select range_select select_reduce sequence_bounds memset bn_stats bn_aggr local_gather dma_copy
        dma_transpose max8 nc_find_index8 nc_match_replace8 nc_stream_shuffle""".split(),
    "nki": """nc_matmul nc_matmul_mx nc_transpose activation activation_reduce tensor_reduce tensor_partition_reduce
        tensor_tensor tensor_tensor_scan scalar_tensor_tensor tensor_scalar tensor_scalar_reduce
        tensor_scalar_cumulative tensor_copy tensor_copy_predicated exponential reciprocal quantize_mx iota dropout
        affine_select range_select select_reduce sequence_bounds memset bn_stats bn_aggr local_gather nc_n_gather
        dma_copy dma_transpose dma_compute max8 nc_find_index8 nc_match_replace8 nc_stream_shuffle register_alloc
        register_load register_move register_store core_barrier sendrecv rng rand2 rand_set_state rand_get_state
        set_rng_seed nonzero_with_count""".split(),
}
# Documented calls the front end does not trace yet (a kernel using one gets an "unsupported" message).
KNOWN_GAPS = {"legacy": {"tensor_copy_dynamic_src", "tensor_copy_dynamic_dst", "dma_transpose"},
              "nki": {"rand_set_state", "set_rng_seed"}}

# Parameters of some classic calls as the reference prints them ("*": keyword-only from there on). Legacy:
# .../en/v2.21.0.beta/general/nki/api/generated/nki.isa.<call>.html and v2.26.1's pages; current:
# .../en/latest/nki/api/generated/nki.isa.<call>.html and v2.31.0's pages.
DOCUMENTED_PARAMS = {
    ("legacy", "nc_matmul"): "stationary moving * is_stationary_onezero is_moving_onezero is_transpose "
                             "tile_position tile_size mask",
    ("legacy", "tensor_tensor"): "data1 data2 op * dtype mask engine",
    ("legacy", "activation"): "op data * bias scale reduce_op reduce_res reduce_cmd mask dtype",
    ("legacy", "activation_reduce"): "op data * reduce_op reduce_res bias scale mask dtype",
    ("legacy", "dma_copy"): "* dst src mask dst_rmw_op oob_mode dge_mode",
    ("nki", "nc_matmul"): "dst stationary moving is_stationary_onezero is_moving_onezero is_transpose accumulate "
                          "tile_position tile_size perf_mode name",
    ("nki", "tensor_tensor"): "dst data1 data2 op engine name",
    ("nki", "tensor_scalar"): "dst data op0 operand0 reverse0 op1 operand1 reverse1 engine name",
    ("nki", "activation"): "dst op data bias scale reduce_op reduce_res reduce_cmd name",
    ("nki", "activation_reduce"): "dst op data reduce_op reduce_res bias scale name",
    ("nki", "tensor_reduce"): "dst op data axis negate keepdims name",
    ("nki", "memset"): "dst value engine name",
    ("nki", "dma_copy"): "dst src dst_rmw_op oob_mode dge_mode name",
}

# Parameters a wrapper takes beyond the reference's, and why.
EXTRA_PARAMS = {("legacy", "nc_matmul"): {"perf_mode"}}  # not on the v2.21/v2.26 legacy pages; accepted as before


def named(fn):
    """(positional-or-keyword names, keyword-only names) of a wrapper, without **_."""
    params = inspect.signature(fn).parameters.values()
    return ([p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD],
            [p.name for p in params if p.kind is p.KEYWORD_ONLY])


class Signatures(unittest.TestCase):
    def test_classic_calls_are_the_generated_wrappers(self):
        for generation, gen in (("legacy", signatures.LEGACY), ("nki", signatures.CURRENT)):
            ns = isa.namespace(generation)
            for name, row in signatures.CLASSIC.items():
                with self.subTest(generation=generation, call=name):
                    fn = ns[name]
                    self.assertEqual(fn.__code__.co_filename, isa.__file__)  # front-end frame: locations skip it
                    self.assertEqual(str(inspect.signature(fn)), f"({signatures.signature(row, gen)})")

    def test_the_table_gives_each_generation_its_form(self):
        row = signatures.CLASSIC["tensor_tensor"]
        self.assertEqual(signatures.signature(row, signatures.LEGACY),
                         "data1, data2, op, *, dtype=None, mask=None, engine=None, **_")
        self.assertEqual(signatures.signature(row, signatures.CURRENT), "dst, data1, data2, op, engine=None, **_")
        self.assertIn("_check_dst(dst, 'nisa.memset')",
                      signatures.wrapper_source("memset", signatures.CLASSIC["memset"], signatures.CURRENT))
        self.assertNotIn("_check_dst", signatures.wrapper_source("memset", signatures.CLASSIC["memset"],
                                                                 signatures.LEGACY))

    def test_parameters_follow_the_reference(self):
        for (generation, name), text in DOCUMENTED_PARAMS.items():
            with self.subTest(generation=generation, call=name):
                words = text.split()
                star = words.index("*") if "*" in words else len(words)
                doc_positional, doc_all = words[:star], [w for w in words if w != "*"]
                positional, keyword_only = named(isa.namespace(generation)[name])
                # Ours may take fewer (the rest are swallowed), never others or in another order.
                if generation == "nki" or doc_positional:
                    self.assertEqual(positional, doc_positional[:len(positional)],
                                     f"positional parameters of {name} differ from the reference")
                extra = set(positional + keyword_only) - set(doc_all) - EXTRA_PARAMS.get((generation, name), set())
                self.assertEqual(sorted(extra), [],
                                 f"{name} takes parameters the reference does not name")

    def test_every_documented_call_resolves(self):
        for generation, calls in DOCUMENTED_CALLS.items():
            ns = isa.namespace(generation)
            missing = sorted(c for c in calls if c not in ns and c not in KNOWN_GAPS[generation])
            self.assertEqual(missing, [], f"{generation} calls the reference lists but the front end lacks")
            self.assertEqual(sorted(c for c in KNOWN_GAPS[generation] if c in ns), [], "stale KNOWN_GAPS")
            classic = [c for c in calls if c in signatures.CLASSIC]
            self.assertEqual(len(classic), len(signatures.CLASSIC), "every table row is a documented call")
            for c in classic:
                self.assertEqual(ns[c].__code__.co_filename, isa.__file__, c)

    def test_a_wrong_row_is_caught(self):
        # The reference check above would pass vacuously if `named` saw no parameters.
        self.assertEqual(named(isa.namespace("nki")["tensor_tensor"]), (["dst", "data1", "data2", "op", "engine"], []))
        self.assertEqual(named(isa.namespace("legacy")["tensor_tensor"]),
                         (["data1", "data2", "op"], ["dtype", "mask", "engine"]))


if __name__ == "__main__":
    unittest.main()
