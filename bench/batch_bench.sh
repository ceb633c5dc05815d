#!/usr/bin/env bash
# Batch throughput: generates N small task folders (default 1000; a copy-through kernel of our own) and runs
# `kernellens-cli batch` over them with -j 1 and -j 2 from scratch, printing tasks per minute and the overhead
# per task beyond its steps' own time (worker start, hashing, the results file). Prints figures; asserts nothing.
#   bench/batch_bench.sh [N] [KERNELLENS_CLI]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-1000}"
cli="${2:-$root/build/app/kernellens-cli}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for i in $(seq -w 1 "$n"); do
  d="$work/tasks/t$i"
  mkdir -p "$d"
  printf '{"format": 1, "title": "t%s", "kernel_file": "kernel.py", "kernel": "copy_through",\n "args": [{"name": "a", "shape": [128, %d], "dtype": "float32"}]}\n' "$i" $(( 64 + 10#$i % 64 )) > "$d/task.json"
  printf 'import nki\nimport nki.isa as nisa\nimport nki.language as nl\n\n\n@nki.jit\ndef copy_through(a):\n    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)\n    t = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.sbuf)\n    nisa.dma_copy(dst=t, src=a)\n    nisa.dma_copy(dst=out, src=t)\n    return out\n' > "$d/kernel.py"
done
echo "batch benchmark: $n task folders, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
for j in 1 2; do
  rm -f "$work/r.db"
  start=$(date +%s.%N)
  line="$("$cli" batch "$work/tasks" --out "$work/r.db" -j "$j" 2>/dev/null | head -1)"
  end=$(date +%s.%N)
  overhead=$(echo "$line" | sed -n 's/.* \([0-9]*\) ms overhead per task.*/\1/p')
  awk -v j="$j" -v s="$start" -v e="$end" -v n="$n" -v o="$overhead" \
    'BEGIN { t = e - s; printf "-j %d: %6.1f s, %7.1f tasks/min, overhead %s ms per task beyond its steps\n", j, t, 60 * n / t, o }'
done
