#!/usr/bin/env python3
"""Prints the interpreter's work per recorded instruction of a plain (non-replicated) trace: Python bytecodes,
Python calls and C calls, counted with sys.settrace (f_trace_opcodes) and sys.setprofile around the trace (the IR
writer left out). Unlike CPU time these counts do not move with the machine's load, so a change to the front end's
per-instruction path can be compared on a shared machine (issue 20). Each count runs in a fresh interpreter;
bytecode counting is slow (about 30 s per matmul example).
  bench/trace_counts.py [--task DIR ...] [--no-bytecodes] [--replicated]
With --replicated the trace replicates loops (KL_TRACE_REPLICATE=1) and the counts are per traced record (the
records the front end made itself; the IR repeats the others), with the whole trace's bytecodes beside them.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = ["matmul_basic_tiled", "matmul_hoisted", "matmul_blocked", "matmul_optimized"]


def count(task, what, replicated="0"):
    """In this process: (instructions, {event: count}) of one plain trace of an example task (with replicated "1",
    a replicated trace: its traced records)."""
    sys.path.insert(0, os.path.join(ROOT, "sim", "frontend"))
    sys.dont_write_bytecode = True
    os.environ["KL_TRACE_REPLICATE"] = replicated
    from kltrace import cli, irbin, runner
    from kltrace.tracer import T
    ns = argparse.Namespace(task=task, kernel=None, kernel_file=None, arg=None, grid=None, scalar=None)
    spec = cli.build_spec(ns)
    spec.kernel_file = os.path.abspath(spec.kernel_file)
    spec.base_dir = os.path.abspath(spec.base_dir)
    spec.binary = True
    runner.prepare_imports()
    counts = {"call": 0, "c_call": 0, "opcode": 0}
    done = []

    def profile(frame, event, arg):
        if event in counts:
            counts[event] += 1

    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode":
            counts["opcode"] += 1
        elif event == "call" and replicated == "1":  # a profile hook turns replication off: Python calls counted here
            counts["call"] += 1
        return trace

    def render(*_args, **_kw):  # the end of the trace: stop counting, write nothing
        sys.setprofile(None)
        sys.settrace(None)
        done.append(len(T.instrs))

    irbin.render = render
    if what == "calls":
        sys.setprofile(profile)
    else:
        sys.settrace(trace)
    runner.trace(spec)
    return done[0], counts


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", action="append", help="an example task folder (repeatable); default: the matmul suite")
    p.add_argument("--no-bytecodes", action="store_true", help="count calls only (fast)")
    p.add_argument("--replicated", action="store_true", help="count a replicated trace, per traced record")
    p.add_argument("--one", nargs=3, help=argparse.SUPPRESS)  # internal: TASK calls|opcodes 0|1, prints one JSON row
    flags = p.parse_args()
    if flags.one:
        print(json.dumps(count(*flags.one)))
        return 0
    tasks = flags.task or [os.path.join(ROOT, "examples", t) for t in SUITE]
    rep = "1" if flags.replicated else "0"
    print(f"{'kernel':24s} {'records' if flags.replicated else 'instrs':>8s} {'bytecodes/i':>12s} {'py calls/i':>11s} "
          f"{'C calls/i':>10s} {'bytecodes':>11s}")
    for task in tasks:
        row = {}
        # Replication is off under a profile hook (replicate.py), so a replicated count takes Python calls from the
        # bytecode pass and leaves C calls out.
        whats = ("opcodes",) if flags.replicated else ("calls",) + (() if flags.no_bytecodes else ("opcodes",))
        for what in whats:
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", task, what, rep],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                sys.stderr.write(proc.stdout + proc.stderr)
                return 1
            n, counts = json.loads(proc.stdout.strip().splitlines()[-1])
            row.update({k: v for k, v in counts.items() if v})
        ops = f"{row['opcode'] / n:12.1f}" if "opcode" in row else f"{'-':>12s}"
        total = f"{row['opcode']:11d}" if "opcode" in row else f"{'-':>11s}"
        ccalls = f"{row['c_call'] / n:10.2f}" if "c_call" in row else f"{'-':>10s}"
        print(f"{os.path.basename(task):24s} {n:8d} {ops} {row['call'] / n:11.2f} {ccalls} {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
