#!/usr/bin/env python3
"""Prints how many Kernel IR instructions per second the NKI front end records (trace + IR JSON + write).

Without arguments: three large matmuls, each traced in a fresh interpreter:
  - tests/frontend/good/matmul_tiled_legacy.py at [4096, 8192] x [8192, 8192] bf16 (about 99k instructions)
  - examples/matmul_optimized    (task.json arguments, about 39k instructions)
  - examples/matmul_basic_tiled  (task.json arguments, about 99k instructions)
One kernel file or task folder can be measured on its own:
  bench/trace_throughput.py KERNEL.py --arg lhsT=8192x4096:bfloat16 --arg rhs=8192x8192:bfloat16 [--grid N]
  bench/trace_throughput.py --task examples/matmul_optimized
Wall-clock figures are noisy on a shared machine; CPU time (time.process_time) is the steadier one.
  --repeat N        run each suite kernel N times (fresh interpreters) and report the run with least CPU
  --frontend DIR    measure another copy of sim/frontend (e.g. an older commit's, from `git archive`),
                    to compare before/after on the same machine at the same time
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRONTEND = os.path.join(ROOT, "sim", "frontend")
for _i, _a in enumerate(sys.argv):
    if _a == "--frontend" and _i + 1 < len(sys.argv):
        FRONTEND = os.path.abspath(sys.argv[_i + 1])
    elif _a.startswith("--frontend="):
        FRONTEND = os.path.abspath(_a.split("=", 1)[1])
sys.path.insert(0, FRONTEND)
sys.dont_write_bytecode = True

DEFAULT_KERNEL = os.path.join(ROOT, "tests", "frontend", "good", "matmul_tiled_legacy.py")
DEFAULT_ARGS = ["lhsT=8192x4096:bfloat16", "rhs=8192x8192:bfloat16"]
SUITE = [[DEFAULT_KERNEL], ["--task", os.path.join(ROOT, "examples", "matmul_optimized")],
         ["--task", os.path.join(ROOT, "examples", "matmul_basic_tiled")]]


def measure(flags):
    """Trace one kernel in this process; returns (label, instructions, wall s, CPU s, IR bytes)."""
    from kltrace import cli, runner
    from kltrace.tracer import T
    if flags.task:
        ns = argparse.Namespace(task=flags.task, kernel=flags.kernel, kernel_file=None, arg=flags.arg,
                                grid=flags.grid, scalar=None)
        spec = cli.build_spec(ns)
        spec.kernel_file = os.path.abspath(spec.kernel_file)
        spec.base_dir = os.path.abspath(spec.base_dir)
        label = os.path.relpath(os.path.abspath(flags.task), ROOT)
    else:
        kernel_file = flags.kernel_file or DEFAULT_KERNEL
        arg_texts = flags.arg or (DEFAULT_ARGS if kernel_file == DEFAULT_KERNEL else [])
        spec = runner.KernelSpec(os.path.abspath(kernel_file), flags.kernel, [cli.parse_arg(a) for a in arg_texts],
                                 cli.parse_grid(flags.grid or "1"), {})
        label = os.path.relpath(os.path.abspath(kernel_file), ROOT)
    runner.prepare_imports()
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "ir.json")
        started, cpu_started = time.perf_counter(), time.process_time()
        text = runner.trace(spec)
        with open(out_path, "w", encoding="utf-8") as fh:
            fh.write(text)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return label, len(T.instrs), wall, cpu, len(text)


def report(label, n, wall, cpu, nbytes):
    print(f"{label}: {n} instructions, {nbytes} IR bytes, {wall:.3f} s wall, {cpu:.3f} s CPU, "
          f"{n / wall:,.0f} instructions/s (wall), {n / cpu:,.0f} instructions/s (CPU)")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kernel_file", nargs="?")
    p.add_argument("--task")
    p.add_argument("--kernel")
    p.add_argument("--arg", action="append")
    p.add_argument("--grid")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--frontend")
    p.add_argument("--machine", action="store_true", help=argparse.SUPPRESS)  # one tab-separated line
    flags = p.parse_args()
    if flags.kernel_file or flags.task or flags.arg:
        result = measure(flags)
        if flags.machine:
            print("\t".join(str(x) for x in result))
        else:
            report(*result)
        return 0
    # The suite: one fresh interpreter per kernel, so caches and memory of one run do not help the next.
    rows = []
    fe = ["--frontend", FRONTEND] if flags.frontend else []
    for extra in SUITE:
        best = None
        for _ in range(max(1, flags.repeat)):
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--machine", *fe, *extra],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                sys.stderr.write(proc.stdout + proc.stderr)
                return 1
            label, n, wall, cpu, nbytes = proc.stdout.strip().splitlines()[-1].split("\t")
            row = (label, int(n), float(wall), float(cpu), int(nbytes))
            if best is None or row[3] < best[3]:
                best = row
        rows.append(best)
        report(*rows[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
