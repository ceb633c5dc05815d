#!/usr/bin/env python3
"""Writes a task folder whose kernel traces to about N Kernel IR instructions (default 1,000,000), for measuring
the whole path (trace, load, simulate) and its memory at a size no example reaches.

The kernel is examples/matmul_basic_tiled (a tiled matmul that loads both operand tiles inside the K loop); only
the argument shapes grow. It records 3 instructions per (m, n, k) step (two loads and a matmul) and 2 per output
tile (copy, store), so with M = 8192 and N = 16384 (64 x 32 output tiles) K is chosen as the multiple of 128 that
brings the count closest to N:

  bench/large_kernel.py OUT_DIR [--instructions N]
  build/app/kernellens-cli simulate OUT_DIR            # trace + load + simulate
  build/app/kernellens-cli trace OUT_DIR --format binary -o big.klir && \\
      /usr/bin/time -v build/app/kernellens-cli simulate --ir big.klir   # load + simulate alone
"""
import argparse
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "matmul_basic_tiled")
M, N, TILE_K, TILE_M, TILE_N = 8192, 16384, 128, 128, 512


def k_for(instructions):
    """K (a multiple of 128) whose trace comes closest to `instructions`."""
    tiles = (M // TILE_M) * (N // TILE_N)
    steps = max(1, round((instructions - 2 * tiles) / (3 * tiles)))
    return steps * TILE_K, tiles * (3 * steps + 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir")
    parser.add_argument("--instructions", type=int, default=1_000_000)
    args = parser.parse_args()
    k, expected = k_for(args.instructions)
    os.makedirs(args.out_dir, exist_ok=True)
    shutil.copy(os.path.join(EXAMPLE, "kernel.py"), os.path.join(args.out_dir, "kernel.py"))
    task = {
        "format": 1,
        "title": f"Generated matmul, about {expected:,} instructions",
        "description": f"examples/matmul_basic_tiled at [{k} x {M}] x [{k} x {N}] bfloat16 (bench/large_kernel.py)",
        "kernel_file": "kernel.py",
        "kernel": "nki_matmul_basic_tiled",
        "args": [
            {"name": "lhsT", "shape": [k, M], "dtype": "bfloat16"},
            {"name": "rhs", "shape": [k, N], "dtype": "bfloat16"},
        ],
        "grid": [1],
        "hardware": "trn1",
    }
    with open(os.path.join(args.out_dir, "task.json"), "w", encoding="utf-8") as f:
        json.dump(task, f, indent=2)
        f.write("\n")
    print(f"{args.out_dir}: K={k}, M={M}, N={N}: {expected} instructions")


if __name__ == "__main__":
    main()
