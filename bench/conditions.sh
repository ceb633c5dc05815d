#!/usr/bin/env bash
# Runs a benchmark command N times and prints, beside each run's own output, the conditions it ran under: the
# date (UTC), the machine (cores, model), the load average before and after, and the share of the machine's CPU
# time that other processes used during the run (busy jiffies of /proc/stat minus the benchmark's own CPU time,
# over all jiffies, steal included). Figures written into docs/ carry these lines (issue 24: a figure without its conditions
# cannot be compared with a later one).
#   bench/conditions.sh N COMMAND [ARG...]
set -euo pipefail
[ $# -ge 2 ] && [[ "$1" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 N COMMAND [ARG...]" >&2; exit 2; }
runs="$1"; shift
ticks=$(getconf CLK_TCK)

cpu_jiffies() { # prints "busy total" from the first line of /proc/stat
  awk '/^cpu /{busy=$2+$3+$4+$7+$8; total=busy+$5+$6+$9; print busy, total}' /proc/stat
}

echo "# command: $*"
echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); cores: $(nproc); cpu: $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)"
echo "# git: $(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
for ((i = 1; i <= runs; i++)); do
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  read -r busy0 total0 < <(cpu_jiffies)
  own0=$(awk '{print $16 + $17}' /proc/$$/stat) # cutime + cstime: the waited-for children of this shell
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  own1=$(awk '{print $16 + $17}' /proc/$$/stat)
  read -r busy1 total1 < <(cpu_jiffies)
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  awk -v r="$i" -v b="$((busy1 - busy0))" -v t="$((total1 - total0))" -v o="$((own1 - own0))" \
      -v s="$start" -v e="$end" -v la="$load_before" -v lb="$load_after" -v hz="$ticks" -v n="$(nproc)" 'BEGIN {
    others = t > 0 ? 100 * (b - o) / t : 0; if (others < 0) others = 0
    printf "# run %d: wall %.2f s, own CPU %.2f s, other processes %.0f %% of the %d cores, load %s -> %s\n",
           r, e - s, o / hz, others, n, la, lb }'
done
