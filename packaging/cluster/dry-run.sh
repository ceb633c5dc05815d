#!/usr/bin/env bash
# Shows what each index of a Slurm array or Kubernetes Indexed Job would run on a folder of task folders, and
# the tasks that index would take, without a scheduler: dry-run.sh TASKS_DIR SHARDS
set -euo pipefail
tasks="${1:?tasks folder}"; shards="${2:?number of shards}"
cli="${KL_CLI:-kernellens-cli}"
for index in $(seq 1 "$shards"); do
  echo "# Slurm SLURM_ARRAY_TASK_ID=$index / Kubernetes JOB_COMPLETION_INDEX=$((index - 1))"
  echo "kernellens-cli batch $tasks --out results/shard-$index-of-$shards.db --shard $index/$shards"
  "$cli" batch plan "$tasks" --shard "$index/$shards" | sed 's/^/  task /'
done
