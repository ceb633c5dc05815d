#!/usr/bin/env python3
"""Prints how fast the NKI front end traces, with and without loop replication (issue 20), and whether
both ways agree on a corpus of kernels.

Speed (default): each kernel is traced in a fresh interpreter, once plainly (KL_TRACE_REPLICATE=0) and once
with replication, and the CPU time (time.process_time, steadier than wall time on a shared machine) is split
into tracing (running the kernel) and writing the binary IR (IR us/i: microseconds per instruction; blocks:
replicated loops whose iterations the writer wrote as one block, irblock.py; nested: replicated loops that hold
inner loops; traced%: the share of the instructions the kernel really traced, the others being written from
templates):
  bench/trace_speed.py [--repeat N] [--task DIR ...]
Agreement (a measurement, not a test): every entry of a compat manifest traced both ways, JSON compared:
  bench/trace_speed.py --agree bench/compat/nki-library.json --root /tmp/public/nki-library [--min-trips 6]
With --accel, the two ways are the front end's Python functions and its C ones (KL_TRACE_ACCEL=0 and 1, plain
tracing) instead of plain and replicated tracing.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRONTEND = os.path.join(ROOT, "sim", "frontend")
MAIN = os.path.join(FRONTEND, "kltrace_main.py")
SUITE = ["matmul_basic_tiled", "matmul_hoisted", "matmul_blocked", "matmul_optimized", "softmax", "rmsnorm",
         "attention_fused"]


def measure(task):
    """In this process: (instructions, trace CPU s, IR CPU s, replicated loops) of one example task."""
    sys.path.insert(0, FRONTEND)
    sys.dont_write_bytecode = True
    from kltrace import cli, irbin, irblock, replay, replicate, runner
    from kltrace.tracer import T
    ns = argparse.Namespace(task=task, kernel=None, kernel_file=None, arg=None, grid=None, scalar=None)
    spec = cli.build_spec(ns)
    spec.kernel_file = os.path.abspath(spec.kernel_file)
    spec.base_dir = os.path.abspath(spec.base_dir)
    spec.binary = True
    spec.parts = True  # as kltrace_main writes it: pieces, not joined (irbin.render_parts)
    runner.prepare_imports()
    render = irbin.render_parts
    spent = [0.0]

    def timed(*args):
        started = time.process_time()
        try:
            return render(*args)
        finally:
            spent[0] += time.process_time() - started

    irbin.render_parts = timed
    written = [0]
    write = irblock.write

    def counted(*args):
        end = write(*args)
        written[0] += bool(end)
        return end

    irblock.write = counted
    started = time.process_time()
    runner.trace(spec)
    total = time.process_time() - started
    return (replay.counts(T)[0], total - spent[0], spent[0], replicate.STATS["loops"], written[0],
            replicate.STATS["nested"], replay.counts(T)[0] - replicate.STATS["records"])


def speed(flags):
    tasks = flags.task or [os.path.join(ROOT, "examples", t) for t in SUITE]
    print(f"{'kernel':24s} {'instrs':>8s} {'mode':>10s} {'trace s':>8s} {'IR s':>7s} {'trace/s':>11s} "
          f"{'trace+IR/s':>11s} {'IR us/i':>7s} loops blocks nested traced%")
    for task in tasks:
        for mode in ("0", "1"):
            best = None
            for _ in range(max(1, flags.repeat)):
                proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", task],
                                      capture_output=True, text=True, env=dict(os.environ, KL_TRACE_REPLICATE=mode))
                if proc.returncode != 0:
                    sys.stderr.write(proc.stdout + proc.stderr)
                    return 1
                row = tuple(json.loads(proc.stdout.strip().splitlines()[-1]))
                if best is None or row[1] + row[2] < best[1] + best[2]:
                    best = row
            n, tr, ir, loops, blocks, nested, objects = best
            print(f"{os.path.basename(task):24s} {n:8d} {'replicate' if mode == '1' else 'plain':>10s} {tr:8.3f} "
                  f"{ir:7.3f} {n / tr:11,.0f} {n / (tr + ir):11,.0f} {ir / n * 1e6:7.2f} {loops:5d} {blocks:6d} "
                  f"{nested:6d} {100 * objects / n:6.1f}")
    return 0


def manifest_args(entry, root):
    args = ["--kernel-file", os.path.join(root, entry["file"])]
    if entry.get("kernel"):
        args += ["--kernel", entry["kernel"]]
    if entry.get("package_root"):
        args += ["--package-root", os.path.join(root, entry["package_root"])]
    for a in entry.get("args", []):
        args += ["--arg", f"{a['name']}={'x'.join(map(str, a['shape']))}:{a['dtype']}"]
    for k, v in entry.get("scalars", {}).items():
        args += ["--scalar", f"{k}={v}"]
    if entry.get("grid"):
        args += ["--grid", "x".join(map(str, entry["grid"]))]
    if entry.get("hw") in ("trn1", "trn2", "trn3"):
        args += ["--target", entry["hw"]]
    return args


def agree(flags):
    with open(flags.agree, encoding="utf-8") as fh:
        entries = json.load(fh)["entries"]
    counts = {"same": 0, "differ": 0, "both failed alike": 0, "failed differently": 0}
    replicated = 0
    env = dict(os.environ)
    if flags.min_trips:
        env["KL_TRACE_REPLICATE_MIN_TRIPS"] = str(flags.min_trips)
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            out = {}
            for mode in ("0", "1"):
                ways = dict(KL_TRACE_REPLICATE=mode)
                if flags.accel:  # the Python functions against the C ones, both plain
                    ways = dict(KL_TRACE_ACCEL=mode, KL_TRACE_REPLICATE="0")
                path = os.path.join(tmp, f"ir{mode}.json")
                if os.path.exists(path):
                    os.remove(path)
                proc = subprocess.run(["/usr/bin/python3", MAIN, *manifest_args(e, flags.root), "-o", path,
                                       "--timeout", "600"], capture_output=True, text=True,
                                      env=dict(env, **ways))
                text = open(path, encoding="utf-8").read() if proc.returncode == 0 else proc.stdout
                out[mode] = (proc.returncode, text, proc.stderr)
            (r0, t0, _), (r1, t1, err1) = out["0"], out["1"]
            if r0 == 0 and r1 == 0:
                kind = "same" if t0 == t1 else "differ"
                loops = err1.split("replicated ")[-1].split(" loops")[0] if "replicated " in err1 else "0"
                replicated += int(loops)
            else:
                kind = "both failed alike" if (r0, t0) == (r1, t1) else "failed differently"
            counts[kind] += 1
            if kind in ("differ", "failed differently"):
                print(f"  {kind}: {e['file']} {e.get('kernel', '')}")
    print(f"{os.path.basename(flags.agree)}: {len(entries)} kernels: " +
          ", ".join(f"{v} {k}" for k, v in counts.items()) + f"; {replicated} loops replicated")
    return 0 if counts["differ"] == 0 and counts["failed differently"] == 0 else 1


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", action="append", help="an example task folder (repeatable); default: the suite")
    p.add_argument("--repeat", type=int, default=1, help="runs per kernel and mode; the least CPU is reported")
    p.add_argument("--agree", help="a compat manifest: trace every entry both ways and compare")
    p.add_argument("--root", help="the corpus folder the manifest's files are relative to")
    p.add_argument("--min-trips", type=int, help="KL_TRACE_REPLICATE_MIN_TRIPS for --agree")
    p.add_argument("--accel", action="store_true", help="--agree: compare the Python and the C functions instead")
    p.add_argument("--one", help=argparse.SUPPRESS)  # internal: measure one task, print one JSON row
    flags = p.parse_args()
    if flags.one:
        print(json.dumps(measure(flags.one)))
        return 0
    if flags.agree:
        return agree(flags)
    return speed(flags)


if __name__ == "__main__":
    sys.exit(main())
