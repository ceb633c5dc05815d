"""The one op table (sim/frontend/kltrace/ops.def) against the front end and the docs: every op the front end
records is in it, every nisa call maps to one of its ops, and docs/simulator.md's cost table is generated from it."""
import ast
import importlib.util
import os
import sys
import unittest

import kltest

FRONTEND = os.path.join(kltest.ROOT, "sim", "frontend")
sys.path.insert(0, FRONTEND)
from kltrace import isa, isa_more, optable  # noqa: E402

ENGINES = {"tensor", "vector", "scalar", "gpsimd", "dma"}

# nisa calls that are neither an op of ops.def nor a COSTED_AS entry: what they record (None: no instruction).
# A new call must be added here, to COSTED_AS or to ops.def, or test_every_isa_call_maps_to_a_known_op fails.
LOWERED = {"nc_matmul_mx": "nc_matmul", "dma_transpose": "dma_copy", "dma_compute": "dma_copy",
           "sendrecv": "dma_copy", "scalar_load": "tensor_copy", "scalar_store": "memset", "core_barrier": None,
           "register_alloc": None, "register_move": None, "get_nc_version": None, "get_nc_sub_version": None}


def recorded_op_literals():
    """(file, line, op) of every `emit("op", ...)` / `_simple("op", ...)` in the front end's sources."""
    found = []
    root = os.path.join(FRONTEND, "kltrace")
    for folder, _, files in os.walk(root):
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                        and isinstance(node.args[0].value, str) \
                        and getattr(node.func, "id", getattr(node.func, "attr", None)) in ("emit", "_simple"):
                    found.append((os.path.relpath(path, FRONTEND), node.lineno, node.args[0].value))
    return found


class OpTable(unittest.TestCase):
    def test_rows_are_well_formed(self):
        self.assertGreaterEqual(len(optable.ROWS), 18)
        self.assertEqual(optable.ROWS[-1].name, "unknown", "Unknown stays last (the loader's fallback)")
        self.assertEqual(len(optable.OPS), len(optable.ROWS), "an IR name appears twice in ops.def")
        for r in optable.ROWS:
            self.assertIn(optable.DEFAULT_ENGINE[r.name], ENGINES, r.name)
            self.assertIn(r.evidence, ("Documented", "Assumed"), r.name)
            self.assertEqual(r.evidence == "Assumed", r.source.startswith("ASSUMPTION:"), r.name)

    def test_every_recorded_op_is_in_the_table(self):
        found = recorded_op_literals()
        self.assertGreater(len(found), 20, "the scan for emit(...) calls found too few: has emit been renamed?")
        for path, line, op in found:
            self.assertTrue(op in optable.OPS, f"{path}:{line} records {op!r}, which ops.def does not define")

    def test_costed_as_targets_are_known_ops_and_engines(self):
        for call, (op, engine) in isa_more.COSTED_AS.items():
            self.assertIn(op, optable.OPS, call)
            self.assertIn(engine, ENGINES, call)

    def test_every_isa_call_maps_to_a_known_op(self):
        for generation in ("legacy", "standalone"):
            for name, value in isa.namespace(generation).items():
                if not callable(value) or isinstance(value, type):
                    continue
                with self.subTest(generation=generation, call=name):
                    if name in optable.OPS:
                        continue
                    if name in isa_more.COSTED_AS:
                        continue
                    self.assertTrue(name in LOWERED, f"nisa.{name}: add it to ops.def, COSTED_AS or LOWERED")
                    self.assertIn(LOWERED[name], set(optable.OPS) | {None})

    def test_a_row_with_a_missing_field_is_refused(self):
        with self.assertRaises(ValueError):
            optable.parse('KL_OP(Foo, "foo", Vector, ElementWise, Documented, "x")')
        rows = optable.parse('// c\n#ifndef KL_OP\nKL_OP(Foo, "f" "oo", Vector, ElementWise, Assumed, "a \\"b\\"", '
                             '"c", "d", "e", "f")\n#undef KL_OP\n')
        self.assertEqual(rows[0].name, "foo")
        self.assertEqual(rows[0].source, 'a "b"')

    def test_docs_table_is_generated_from_the_op_table(self):
        spec = importlib.util.spec_from_file_location("gen_op_docs",
                                                      os.path.join(kltest.ROOT, "scripts", "gen_op_docs.py"))
        gen = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(gen)
        with open(gen.DOC, encoding="utf-8") as f:
            _, committed, _ = gen.split_doc(f.read().split("\n"))
        self.assertEqual(committed, gen.table_lines(), "docs/simulator.md: run scripts/gen_op_docs.py --write")


if __name__ == "__main__":
    unittest.main()
