#!/usr/bin/env python3
"""Prints how many Kernel IR instructions per second the NKI front end records.

Default: the basic tiled matmul of [4096, 8192] x [8192, 8192] bf16 (128x128 stationary, 512 moving),
about 32k matmuls plus 64k loads. Any kernel file can be measured:
  bench/trace_throughput.py KERNEL.py --arg lhsT=8192x4096:bfloat16 --arg rhs=8192x8192:bfloat16 [--grid N]
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "sim", "frontend"))

from kltrace import cli, runner  # noqa: E402
from kltrace.tracer import T  # noqa: E402

DEFAULT_KERNEL = os.path.join(ROOT, "tests", "frontend", "good", "matmul_tiled_legacy.py")
DEFAULT_ARGS = ["lhsT=8192x4096:bfloat16", "rhs=8192x8192:bfloat16"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kernel_file", nargs="?", default=DEFAULT_KERNEL)
    p.add_argument("--kernel")
    p.add_argument("--arg", action="append")
    p.add_argument("--grid", default="1")
    flags = p.parse_args()
    args = [cli.parse_arg(a) for a in (flags.arg or (DEFAULT_ARGS if flags.kernel_file == DEFAULT_KERNEL else []))]
    spec = runner.KernelSpec(os.path.abspath(flags.kernel_file), flags.kernel, args, cli.parse_grid(flags.grid), {})
    runner.prepare_imports()
    started, cpu_started = time.perf_counter(), time.process_time()
    text = runner.trace(spec)
    total, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    n = len(T.instrs)
    print(f"kernel: {os.path.relpath(flags.kernel_file, ROOT)}")
    print(f"instructions: {n}   buffers: {sum(1 for b in T.buffers if not b.dropped)}   IR bytes: {len(text)}")
    print(f"trace + IR JSON: {total:.3f} s wall, {cpu:.3f} s CPU")
    # CPU time is the steadier figure on a shared machine.
    print(f"throughput: {n / total:,.0f} instructions/s (wall), {n / cpu:,.0f} instructions/s (CPU)")


if __name__ == "__main__":
    main()
