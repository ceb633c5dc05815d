#!/usr/bin/env bash
# Run `kernellens-cli compat` over local checkouts of the public NKI kernel corpora, one manifest each.
#
#   bench/compat/run.sh NKI_LIBRARY_DIR NKI_SAMPLES_DIR [NKI_SAMPLES_LEGACY_DIR]
#
#   NKI_LIBRARY_DIR         checkout of aws-neuron/nki-library          -> nki-library.json
#   NKI_SAMPLES_DIR         checkout of aws-neuron/nki-samples (HEAD)   -> nki-samples-head.json
#   NKI_SAMPLES_LEGACY_DIR  nki-samples at the legacy commit (optional) -> nki-samples-legacy.json
#                           e.g. git -C NKI_SAMPLES_DIR worktree add /tmp/nki-samples-legacy fc5c69f
#
# Environment:
#   KL_CLI           kernellens-cli binary (default: build/app/kernellens-cli in this repository)
#   KL_COMPAT_OUT    folder for the results (default: /tmp/kernellens-compat); per manifest NAME:
#                    NAME.json (compat --json), NAME.txt (the table), NAME.log (progress on stderr)
#   KL_COMPAT_ARGS   extra options for every compat run, e.g. "--timeout 300"
#
# Every manifest runs even when an earlier one reports failures (compat exits 1 when any kernel fails).
# Exit status: 0 when every run exited 0, 2 when a run could not start or compat reported a usage error
# (exit 2), 1 otherwise.
set -euo pipefail

usage() {
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

if [[ $# -lt 2 || $# -gt 3 ]]; then
    usage
fi

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$script_dir/../.." && pwd)"
cli="${KL_CLI:-$repo_root/build/app/kernellens-cli}"
out_dir="${KL_COMPAT_OUT:-/tmp/kernellens-compat}"
read -r -a extra_args <<< "${KL_COMPAT_ARGS:-}"

if [[ ! -x "$cli" ]]; then
    echo "run.sh: kernellens-cli not found or not executable: $cli (build it, or set KL_CLI)" >&2
    exit 2
fi
mkdir -p "$out_dir"

# name:checkout pairs, in order.
runs=("nki-library:$1" "nki-samples-head:$2")
if [[ $# -eq 3 ]]; then
    runs+=("nki-samples-legacy:$3")
fi

# The commit a manifest was written against: the word after '@' in its "source".
manifest_commit() {
    sed -n 's/.*"source": *"[^"]*@ *\([0-9a-fA-F]\{7,40\}\).*/\1/p' "$1" | head -n 1
}

overall=0
summaries=()
for run in "${runs[@]}"; do
    name="${run%%:*}"
    root="${run#*:}"
    manifest="$script_dir/$name.json"
    json="$out_dir/$name.json"
    table="$out_dir/$name.txt"
    log="$out_dir/$name.log"

    if [[ ! -d "$root" ]]; then
        summaries+=("$name: checkout not found: $root")
        overall=2
        continue
    fi

    # Warn (do not stop) when the checkout is not at the commit the shapes were taken from.
    want="$(manifest_commit "$manifest")"
    have="$(git -C "$root" rev-parse HEAD 2>/dev/null || true)"
    if [[ -n "$want" && -n "$have" && "$have" != "$want"* ]]; then
        echo "run.sh: warning: $root is at ${have:0:7}, $name.json was written for $want" >&2
    fi

    echo "== $name: $cli compat --manifest $manifest --root $root --json $json" >&2
    status=0
    "$cli" compat --manifest "$manifest" --root "$root" --json "$json" ${extra_args[@]+"${extra_args[@]}"} \
        > "$table" 2> >(tee "$log" >&2) || status=$?

    # The table's last line counts the kernels: "N simulated, N failed, N skipped".
    counts="$(grep -E '^[0-9]+ simulated' "$table" | tail -n 1 || true)"
    summaries+=("$name: exit $status; ${counts:-no summary line (see $log)}; results in $json")

    if [[ $status -eq 2 || ( $status -ne 0 && $status -ne 1 ) ]]; then
        overall=2
    elif [[ $status -eq 1 && $overall -eq 0 ]]; then
        overall=1
    fi
done

echo
for line in "${summaries[@]}"; do
    echo "$line"
done
exit "$overall"
