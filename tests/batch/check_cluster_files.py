"""The cluster recipes under packaging/cluster are valid for their tools and run the shard each index should.

Without a scheduler at hand: the Kubernetes Job is parsed as YAML and checked against the Job API's fields, the
Slurm script's #SBATCH directives are checked against sbatch's options, every script passes `bash -n`, and each
script's command is run with the variables the scheduler would set and a stand-in kernellens-cli that prints
its arguments. dry-run.sh is run on real task folders: its shards are disjoint and cover every task.
Usage: check_cluster_files.py SOURCE_DIR KERNELLENS_CLI SCRATCH_DIR
"""
import os
import re
import subprocess
import sys

import yaml

src, cli, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
cluster = os.path.join(src, "packaging", "cluster")
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(args, env=None):
    full = dict(os.environ, **(env or {}))
    return subprocess.run(args, capture_output=True, text=True, env=full)


for script in ("kernellens-batch.sbatch", "parallel-ssh.sh", "dry-run.sh"):
    check(run(["bash", "-n", os.path.join(cluster, script)]).returncode == 0, f"{script} parses (bash -n)")

# A stand-in for kernellens-cli that prints its arguments, one per line.
fake = os.path.join(scratch, "bin", "kernellens-cli")
os.makedirs(os.path.dirname(fake), exist_ok=True)
with open(fake, "w") as f:
    f.write('#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n')
os.chmod(fake, 0o755)

# Slurm: directives and the command array task 2 of 3 runs.
sbatch = open(os.path.join(cluster, "kernellens-batch.sbatch")).read()
directives = dict(re.findall(r"^#SBATCH --([a-z-]+)=(\S+)$", sbatch, re.M))
known = {"job-name", "array", "cpus-per-task", "mem", "time", "output"}
check(set(directives) <= known and "array" in directives, f"#SBATCH options are sbatch's: {sorted(directives)}")
check(re.fullmatch(r"\d+-\d+(%\d+)?", directives.get("array", "")) is not None, "--array is a range")
check(re.fullmatch(r"\d+(:\d\d){1,2}|\d+-\d+(:\d\d){0,2}", directives.get("time", "")) is not None, "--time format")
check(re.fullmatch(r"\d+[KMGT]?", directives.get("mem", "")) is not None, "--mem format")
out = run(["bash", os.path.join(cluster, "kernellens-batch.sbatch")],
          {"KL_TASKS": "/shared/tasks", "KL_OUT": os.path.join(scratch, "res"), "SLURM_ARRAY_TASK_ID": "2",
           "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_CPUS_PER_TASK": "4", "KL_CLI": fake})
argv = out.stdout.split("\n")
check(out.returncode == 0 and "--shard" in argv and argv[argv.index("--shard") + 1] == "2/3",
      f"Slurm array task 2 of 3 runs shard 2/3: {argv}")
check(any(a.endswith("shard-2-of-3.db") for a in argv), "and writes its own results file")

# Kubernetes: the Job's fields, then the command pod index 1 runs.
job = yaml.safe_load(open(os.path.join(cluster, "kernellens-batch-job.yaml")))
spec = job.get("spec", {})
pod = spec.get("template", {}).get("spec", {})
containers = pod.get("containers", [])
check(job.get("apiVersion") == "batch/v1" and job.get("kind") == "Job", "a batch/v1 Job")
check(spec.get("completionMode") == "Indexed", "completionMode Indexed (the pod index is the shard)")
check(isinstance(spec.get("completions"), int) and spec.get("parallelism") == spec.get("completions"),
      "completions and parallelism agree")
check(pod.get("restartPolicy") in ("Never", "OnFailure"), "a Job's restartPolicy")
check(len(containers) == 1 and containers[0].get("image"), "one container with an image")
claims = {v["name"] for v in pod.get("volumes", []) if "persistentVolumeClaim" in v}
mounts = {m["name"] for m in containers[0].get("volumeMounts", [])} if containers else set()
check(mounts <= claims, "every volume mount has a volume")
shards = spec.get("completions")
command = containers[0]["command"] + containers[0]["args"] if containers else []
check(f"/{shards}" in command[-1] and f"-of-{shards}.db" in command[-1], "the command's shard count is completions")
out = run(command, {"JOB_COMPLETION_INDEX": "1", "PATH": os.path.dirname(fake) + ":" + os.environ["PATH"]})
argv = out.stdout.split("\n")
check(out.returncode == 0 and argv[argv.index("--shard") + 1] == f"2/{shards}",
      f"pod index 1 runs shard 2/{shards}: {argv}")

# dry-run.sh on real task folders: disjoint shards that cover every task.
tasks = os.path.join(scratch, "tasks")
for name in ("alpha", "beta", "gamma", "delta", "epsilon"):
    os.makedirs(os.path.join(tasks, name), exist_ok=True)
    with open(os.path.join(tasks, name, "task.json"), "w") as f:
        f.write('{"format": 1, "title": "t", "kernel_file": "k.py", "kernel": "k", "args": []}')
out = run(["bash", os.path.join(cluster, "dry-run.sh"), tasks, "3"], {"KL_CLI": cli})
taken = re.findall(r"^  task (\S+)$", out.stdout, re.M)
check(out.returncode == 0 and sorted(taken) == sorted(["alpha", "beta", "gamma", "delta", "epsilon"]),
      f"dry-run: three shards take every task exactly once: {taken}")
check(out.stdout.count("--shard") == 3, "dry-run shows the command of each index")

print("cluster recipes: " + ("all checks passed" if not failures else f"{len(failures)} failed"))
sys.exit(1 if failures else 0)
