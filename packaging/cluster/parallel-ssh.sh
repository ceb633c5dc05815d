#!/usr/bin/env bash
# A KernelLens batch over ssh hosts with GNU parallel: shard i of N runs on whichever host is free, each writes
# its results file on the shared folder, then the shards are merged here.
#   parallel-ssh.sh HOSTS_FILE TASKS_DIR RESULTS_DIR SHARDS
# HOSTS_FILE lists one ssh login per line (parallel's --sshloginfile format, e.g. "4/user@host" for 4 jobs).
# TASKS_DIR and RESULTS_DIR must be the same path on every host (a shared file system).
set -euo pipefail
hosts="${1:?hosts file}"; tasks="${2:?tasks folder}"; out="${3:?results folder}"; shards="${4:?number of shards}"
mkdir -p "$out"
seq 1 "$shards" | parallel --sshloginfile "$hosts" --jobs 1 --halt never \
  "kernellens-cli batch '$tasks' --out '$out/shard-{}-of-$shards.db' --shard {}/$shards -j 2"
kernellens-cli batch merge "$out"/shard-*-of-"$shards".db -o "$out/all.db"
