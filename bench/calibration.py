#!/usr/bin/env python3
"""Calibration and validation table: simulates every public kernel with a published time
(bench/calibration_data.json) and prints simulated vs published, the error, whether the point was
fitted or is validation, and the ranking agreement (do faster variants simulate faster?).

  python3 bench/calibration.py [--cli build/app/kernellens-cli] [--public /tmp/public/nki-samples]
                               [--hw trn1,trn2,trn3] [--only SUBSTRING] [--work DIR] [--json OUT] [--check]

Points whose kernel is one of our examples/ run from the task folder. Points whose kernel is a public
sample need a checkout of that repository (--public, a folder outside this repository); they are
skipped, and said so, without one. Each kernel is traced once and simulated on every --hw profile;
the error is computed on the hardware the figure was published for (the point's "hardware")."""

import argparse
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}\n{r.stderr.strip() or r.stdout.strip()}")
    return r.stdout


def trace(args, point, work):
    """Kernel IR of the point's kernel (cached in `work` by point id)."""
    ir = work / (point["id"].replace(" ", "_") + ".ir.json")
    if ir.exists():
        return ir
    env = dict(os.environ, KL_PYTHON=os.environ.get("KL_PYTHON", "/usr/bin/python3"))
    if "task" in point:
        run([args.cli, "trace", str(ROOT / point["task"]), "-o", str(ir)], env)
        return ir
    pk = point["public_kernel"]
    if not args.public:
        return None
    kernel = Path(args.public) / pk["path"]
    if not kernel.exists():
        return None
    cmd = [args.cli, "trace", str(kernel), "--kernel", pk["kernel"], "-o", str(ir), "--timeout", "600"]
    for a in point["args"]:
        cmd += ["--arg", a]
    run(cmd, env)
    return ir


def simulate(args, ir, hw, work, pid):
    out = work / f"{pid.replace(' ', '_')}.{hw}.json"
    run([args.cli, "simulate", "--ir", str(ir), "--hw", hw, "--json", str(out)])
    return json.loads(out.read_text())["summary"]["total_time_ns"] / 1e6


def ranking(points, sim):
    """Pairs of variants of one computation (same group) whose published times differ by more than 5 %:
    how many the simulator orders the same way."""
    agree = total = 0
    disagreements = []
    groups = {}
    for p in points:
        if p["id"] in sim:
            groups.setdefault(p["group"], []).append(p)
    for members in groups.values():
        for a, b in itertools.combinations(members, 2):
            pa, pb = a["published_ms"], b["published_ms"]
            if abs(pa - pb) <= 0.05 * max(pa, pb):
                continue
            total += 1
            if (pa < pb) == (sim[a["id"]] < sim[b["id"]]):
                agree += 1
            else:
                disagreements.append(f"{a['id']} vs {b['id']}")
    return agree, total, disagreements


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=str(ROOT / "build/app/kernellens-cli"))
    ap.add_argument("--data", default=str(ROOT / "bench/calibration_data.json"))
    ap.add_argument("--public", default=None, help="checkout of aws-neuron/nki-samples (outside the repository)")
    ap.add_argument("--hw", default="trn1,trn2,trn3")
    ap.add_argument("--only", default=None)
    ap.add_argument("--work", default="/tmp/kl-calibration")
    ap.add_argument("--json", default=None)
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every selected point ran and is within the data file's tolerance (ctest)")
    args = ap.parse_args()
    data = json.loads(Path(args.data).read_text())
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    hws = [h for h in args.hw.split(",") if h]
    points = [p for p in data["points"] if not args.only or args.only in p["id"]]

    rows, sim, skipped = [], {}, []
    for p in points:
        try:
            ir = trace(args, p, work)
        except RuntimeError as e:
            skipped.append(f"{p['id']}: trace failed: {str(e).splitlines()[-1]}")
            continue
        if ir is None:
            skipped.append(f"{p['id']}: needs --public (a checkout of {p['public_kernel']['repo']})")
            continue
        times = {hw: simulate(args, ir, hw, work, p["id"]) for hw in sorted(set(hws) | {p["hardware"]})}
        s = times[p["hardware"]]
        sim[p["id"]] = s
        err = 100.0 * (s - p["published_ms"]) / p["published_ms"]
        rows.append({"id": p["id"], "hardware": p["hardware"], "published_ms": p["published_ms"],
                     "simulated_ms": round(s, 4), "error_pct": round(err, 1), "role": p["role"],
                     "simulated_ms_by_hw": {h: round(t, 4) for h, t in times.items()}, "source": p["source"]})

    hwcols = "".join(f"{h:>10}" for h in hws)
    print(f"{'kernel':<26}{'hw':>5}{'published':>11}{'simulated':>11}{'error':>9}  {'role':<11}{hwcols}")
    for r in rows:
        extra = "".join(f"{r['simulated_ms_by_hw'].get(h, float('nan')):>10.3f}" for h in hws)
        print(f"{r['id']:<26}{r['hardware']:>5}{r['published_ms']:>9.3f}ms{r['simulated_ms']:>9.3f}ms"
              f"{r['error_pct']:>+8.1f}%  {r['role']:<11}{extra}")
    for role in ("fitted", "validation"):
        errs = [abs(r["error_pct"]) for r in rows if r["role"] == role]
        if errs:
            inside = sum(e <= data["tolerance_pct"] for e in errs)
            print(f"{role}: {len(errs)} point(s), mean |error| {sum(errs) / len(errs):.1f} %, max {max(errs):.1f} %, "
                  f"{inside} within {data['tolerance_pct']} %")
    agree, total, bad = ranking(points, sim)
    print(f"ranking agreement: {agree} of {total} pairs of variants ordered as published"
          + (f" (reversed: {', '.join(bad)})" if bad else ""))
    for s in skipped:
        print(f"skipped {s}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "ranking": {"agree": agree, "pairs": total,
                                                                        "reversed": bad}, "skipped": skipped},
                                              indent=1) + "\n")
    if args.check:
        outside = [r["id"] for r in rows if abs(r["error_pct"]) > data["tolerance_pct"]]
        if outside or skipped or not rows:
            print(f"FAILED: outside {data['tolerance_pct']} %: {outside or 'none'}; not run: {len(skipped)}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
