#!/usr/bin/env python3
"""Value execution time of every bundled example at its numerics shapes (issue 15: each under 10 s).

Prints, per example: instructions executed on values, the interpreter's time (value_ms from the
document), and the wall time of the whole front-end run (trace + values + reference + GPU emulation).
Usage: /usr/bin/python3 bench/numerics_bench.py [EXAMPLE ...]
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN = os.path.join(ROOT, "sim", "frontend", "kltrace_main.py")


def main(names):
    tasks = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(ROOT, "examples", "*", "task.json")))
    if names:
        tasks = [t for t in tasks if os.path.basename(t) in names]
    print(f"{'example':<22} {'instr':>6} {'value ms':>9} {'wall s':>7}  nki_vs_exact")
    worst = 0.0
    for task in tasks:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "n.json")
            t0 = time.perf_counter()
            proc = subprocess.run(["/usr/bin/python3", "-E", "-s", "-S", MAIN, "--task", task, "--numerics", "-o", out],
                                  capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if proc.returncode != 0:
                print(f"{os.path.basename(task):<22} failed: {proc.stdout.strip()}")
                continue
            with open(out, encoding="utf-8") as fh:
                doc = json.load(fh)
        worst = max(worst, doc["value_ms"] / 1000.0)
        verdict = ", ".join("pass" if o["comparisons"]["nki_vs_exact"]["passed"] else "FAIL" for o in doc["outputs"])
        print(f"{os.path.basename(task):<22} {doc['instructions']:>6} {doc['value_ms']:>9.1f} {wall:>7.2f}  {verdict}")
    print(f"slowest value execution: {worst:.2f} s (limit 10 s)")


if __name__ == "__main__":
    main(sys.argv[1:])
