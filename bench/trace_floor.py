#!/usr/bin/env python3
"""The floor of plain tracing: how long an example kernel's own Python takes when every NKI call is a trivial
Python function (no view, no instruction, no check), and so the fastest any Python front end that runs the kernel
once per iteration could trace it (issue 20). Prints the floor and the rate it allows for the IR's instruction count:
  bench/trace_floor.py --task examples/matmul_optimized [--instructions N] [--repeat 7]
The instruction count defaults to a plain trace's (one run of the front end, in this process).
"""
import argparse
import json
import os
import sys
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Stub:
    """Any NKI value: indexing, arithmetic, attributes and calls give a stub back (each a Python call, as the
    front end's methods are)."""
    __slots__ = ()

    def __getitem__(self, key):
        return self

    def __setitem__(self, key, value):
        pass

    def __call__(self, *args, **kwargs):
        return self

    def __getattr__(self, name):
        return self

    def _same(self, other):
        return self

    __add__ = __radd__ = __iadd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _same


STUB = Stub()
TILE = types.SimpleNamespace(pmax=128, gemm_stationary_fmax=128, gemm_moving_fmax=512, psum_fmax=2048,
                             bn_stats_fmax=512)


class Namespace(types.ModuleType):
    """nl / nisa / nki: the loop ranges are Python ranges, tile sizes integers, everything else a stub."""

    def __getattr__(self, name):
        if name in ("affine_range", "sequential_range", "static_range"):
            return range
        if name == "tile_size":
            return TILE
        if name == "jit":
            return lambda f=None, **_: f if f is not None else (lambda g: g)
        return STUB


class Arg:
    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = dtype

    def __getitem__(self, key):
        return STUB


def names_of(code):
    """Every attribute or global name the kernel file's code reads (its code objects' co_names)."""
    out = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            out |= names_of(c)
    return out


def install(names):
    """Stub modules whose attributes, and the stubs' own, are plain attributes (read at C speed, as the front
    end's module members and its tensors' slots are): __getattr__ only answers names the kernel builds at run time."""
    for name in names:
        if not name.startswith("__"):
            setattr(Stub, name, STUB)
    modules = ["neuronxcc", "neuronxcc.nki", "neuronxcc.nki.language", "neuronxcc.nki.isa", "nki", "nki.language",
               "nki.isa"]
    mods = {n: Namespace(n) for n in modules}
    for m in mods.values():
        for name in names:
            if not name.startswith("__"):
                setattr(m, name, getattr(m, name))
    for n, m in mods.items():
        if "." in n:
            parent, _, child = n.rpartition(".")
            setattr(mods[parent], child, m)
    sys.modules.update(mods)


def plain_instructions(task):
    """The IR's instruction count of a plain trace (trace_speed.measure, in this process)."""
    os.environ["KL_TRACE_REPLICATE"] = "0"
    import trace_speed
    return trace_speed.measure(task)[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", required=True)
    ap.add_argument("--instructions", type=int)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    with open(os.path.join(a.task, "task.json"), encoding="utf-8") as fh:
        task = json.load(fh)
    n = a.instructions or plain_instructions(a.task)
    path = os.path.join(a.task, task.get("kernel_file", "kernel.py"))
    with open(path, encoding="utf-8") as fh:
        code = compile(fh.read(), path, "exec")
    install(names_of(code))
    scope = {"__name__": "floor_kernel"}
    exec(code, scope)
    func = scope[task["kernel"]] if "kernel" in task else next(
        v for k, v in scope.items() if callable(v) and getattr(v, "__module__", None) == "floor_kernel")
    args = [Arg(x["shape"], x.get("dtype", "float32")) for x in task["args"]]
    kwargs = task.get("scalars", {})
    best = min(_timed(func, args, kwargs) for _ in range(a.repeat))
    print(f"{os.path.basename(os.path.normpath(a.task))}: {n} instructions; the kernel's own Python with trivial NKI "
          f"calls {best * 1e3:.1f} ms (best of {a.repeat}) = {best / n * 1e6:.2f} us an instruction, "
          f"so at most {n / best / 1e3:.0f} k instructions/s for any front end that runs it")


def _timed(func, args, kwargs):
    t = time.perf_counter()
    func(*args, **kwargs)
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
