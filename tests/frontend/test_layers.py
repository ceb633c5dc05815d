"""The front end's layers (issue 22): each kltrace module imports only from its own layer or lower ones, the
module-level import graph has no cycle, no import hides inside a function body (the old way around a cycle)
except the short allow-list below, and every module imports on its own in a fresh interpreter.

Run as a script (`python3 test_layers.py --facts [FRONTEND_DIR]`) it prints the import graph's facts: the
cycles, the function-level imports and the layer of every module."""
import ast
import os
import subprocess
import sys
import unittest

import kltest

FRONTEND = os.path.join(kltest.ROOT, "sim", "frontend")

# Lowest first. A module may import from its own layer and the layers before it.
LAYERS = (
    ("base", ("errors", "dtypes", "numpy_dtypes", "indexing", "optable", "hwprofile", "signatures")),
    ("values", ("tensor", "views")),
    ("recording", ("tracer", "bytecode", "emit", "pending", "loopcheck", "loopcalls", "loopstate", "replay", "replicate",
                   "loops")),
    ("operators", ("ops", "tensor_engine", "matmul_fused", "matmul_fast", "elementwise_fast", "operators", "placement",
                   "alloc")),
    ("api", ("isa_more", "isa", "language_more", "compiler", "language", "collectives", "accel", "api")),
    ("driver", ("irjson", "irrecords", "ircolumns", "irblock", "irbin", "arguments", "imports", "sandbox", "runner",
                "numerics", "cli")),
)

# (module, imported module) -> why the import sits inside a function.
ALLOWED_LOCAL_IMPORTS = {
    ("cli", "numpy"): "NumPy is optional: only value execution (--numerics) needs it",
    ("cli", "numerics.run"): "imports NumPy; tracing for time must not",
    ("numerics.fields", "numerics.run"): "imports NumPy; tracing for time must not",
    ("cli", "traceback"): "only after a front-end bug",
    ("imports", "numpy"): "only a kernel calling a stand-in member computed with NumPy (scipy.linalg.circulant)",
    ("sandbox", "_socket"): "a C module patched only when the network is blocked, absent from some builds",
    ("language_more", "dataclasses"): "start-up: only kernels whose NKI dataclasses miss fields need it",
    ("replicate", "errors"): "replicate.py belongs to the tracer-speed work (issue 20) this round; errors is the "
                             "base layer, so it is no cycle, just not moved yet",
}


def module_names(root):
    """Dotted names (relative to the kltrace package) of every module, e.g. 'views', 'numerics.run'."""
    pkg = os.path.join(root, "kltrace")
    names = []
    for folder, _, files in os.walk(pkg):
        for f in sorted(files):
            if f.endswith(".py") and f != "__init__.py":
                rel = os.path.relpath(os.path.join(folder, f[:-3]), pkg)
                names.append(rel.replace(os.sep, "."))
    return sorted(names)


def _resolve(module, node, known):
    """The kltrace modules (or outside module names) one import statement of `module` names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level == 0:
        return [node.module]
    base = module.split(".")[:-node.level]  # 'numerics.run' with `from ..errors`: []
    prefix = base + (node.module.split(".") if node.module else [])
    out = []
    for a in node.names:
        full = ".".join(prefix + [a.name])
        out.append(full if full in known else ".".join(prefix))
    return [o for o in out if o]


def imports_of(root, module, known):
    """(module-level imports, [(line, imported) inside functions]) of one kltrace module."""
    path = os.path.join(root, "kltrace", *module.split(".")) + ".py"
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    top, local = set(), []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                names = _resolve(module, child, known)
                if in_function:
                    local.extend((child.lineno, n) for n in names)
                else:
                    top.update(names)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
    visit(tree, False)
    return top, local


def layer_of(module):
    head = module.split(".")[0]
    for i, (_, members) in enumerate(LAYERS):
        if module in members or head in members:
            return i
    return None


def graph(root):
    known = set(module_names(root))
    edges, local = {}, {}
    for m in known:
        top, loc = imports_of(root, m, known)
        edges[m] = {t for t in top if t in known and t != m}
        local[m] = loc
    return edges, local


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


class Layers(unittest.TestCase):
    def setUp(self):
        self.edges, self.local = graph(FRONTEND)

    def test_every_module_has_a_layer(self):
        missing = [m for m in self.edges if layer_of(m) is None]
        self.assertEqual(missing, [], "add new kltrace modules to LAYERS in test_layers.py")

    def test_imports_go_down_the_layers(self):
        wrong = [f"{m} ({LAYERS[layer_of(m)][0]}) imports {t} ({LAYERS[layer_of(t)][0]})"
                 for m, targets in sorted(self.edges.items()) for t in sorted(targets)
                 if layer_of(t) is not None and layer_of(m) is not None and layer_of(t) > layer_of(m)]
        self.assertEqual(wrong, [])

    def test_no_import_cycle(self):
        self.assertEqual(cycles(self.edges), [])

    def test_no_import_inside_functions_but_the_allowed(self):
        found = {(m, n) for m, loc in self.local.items() for _, n in loc}
        self.assertEqual(sorted(found - set(ALLOWED_LOCAL_IMPORTS)), [],
                         "import at module level, or add the pair to ALLOWED_LOCAL_IMPORTS with a reason")
        self.assertEqual(sorted(set(ALLOWED_LOCAL_IMPORTS) - found), [], "stale ALLOWED_LOCAL_IMPORTS entries")

    def test_checker_sees_a_cycle_and_an_upward_import(self):
        # The checks above would pass vacuously if the graph were read wrongly.
        self.assertIn("views", self.edges["emit"])
        self.assertEqual(cycles({"a": {"b"}, "b": {"a"}, "c": set()}), [["a", "b"]])
        self.assertGreater(layer_of("ops"), layer_of("views"))

    def test_each_module_imports_alone(self):
        # A cycle broken by import order shows up as an ImportError when the "wrong" module comes first.
        code = ("import importlib, sys\nsys.path.insert(0, sys.argv[1])\nbad = []\nfor m in sys.argv[2:]:\n"
                "    for k in [k for k in sys.modules if k.startswith('kltrace')]:\n        del sys.modules[k]\n"
                "    try:\n        importlib.import_module('kltrace.' + m)\n"
                "    except Exception as e:\n        bad.append(f'{m}: {type(e).__name__}: {e}')\n"
                "print('\\n'.join(bad))\n")
        out = subprocess.run([sys.executable, "-c", code, FRONTEND] + sorted(self.edges), capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), "")

    def test_values_know_no_recorder_until_the_api_binds_operators(self):
        code = ("import sys\nsys.path.insert(0, sys.argv[1])\nfrom kltrace import views\n"
                "print('__add__' in vars(views.Tensor), '__setitem__' in vars(views.Tensor))\n"
                "import kltrace.api\nprint('__add__' in vars(views.Tensor), '__setitem__' in vars(views.Tensor),"
                " views.IndirectTensor.__iadd__ is views.Tensor.__iadd__)\n"
                )
        out = subprocess.run([sys.executable, "-c", code, FRONTEND], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.split("\n")[:2], ["False False", "True True True"])


def facts(root):
    edges, local = graph(root)
    print("modules:", len(edges), " module-level edges:", sum(len(t) for t in edges.values()))
    for c in cycles(edges):
        print("cycle:", " ".join(c))
    for m in sorted(local):
        for line, n in local[m]:
            print(f"import in a function: {m}.py:{line} -> {n}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--facts":
        facts(os.path.join(sys.argv[2], "sim", "frontend") if len(sys.argv) > 2 else FRONTEND)
    else:
        unittest.main()
