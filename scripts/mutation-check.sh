#!/usr/bin/env bash
# Mutation check: applies each one-line mutation of scripts/mutations.tsv to a separate checkout of HEAD, builds
# the affected test target incrementally, runs the matching tests, and reports which mutations the tests kill
# (a build or test failure) and which survive. The working tree is never touched. Slow (a build per mutation):
# run it before a closing note, not in CI.
#   scripts/mutation-check.sh [--only SUBSTRING]      # e.g. --only TextEscape
#   scripts/mutation-check.sh --last N                # only the list's last N entries (the ones just added)
#   KL_MUTATION_DIR=. scripts/mutation-check.sh        # in this checkout and its build/ (refused unless clean)
# Needs the packages scripts/setup.sh installs. Exit status 1 when a mutation survives.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
list="$root/scripts/mutations.tsv"
work="${KL_MUTATION_DIR:-/tmp/kl-mutation}"
only=""
last=0
case "${1:-}" in
  --only) only="${2:-}" ;;
  --last) last="${2:-}"; [[ "$last" =~ ^[1-9][0-9]*$ ]] || { echo "--last needs a positive count" >&2; exit 2; } ;;
  "") ;;
  *) echo "usage: $0 [--only SUBSTRING | --last N]" >&2; exit 2 ;;
esac
# Entries (not comments or blank lines) to skip before the first one checked.
entries=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$list")
skip=$(( last > 0 && entries > last ? entries - last : 0 ))

if [ "$(cd "$work" 2>/dev/null && pwd)" = "$root" ]; then
  # In place: faster (the build exists), but only on a clean tree, since every file is restored from git.
  [ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ] || { echo "uncommitted changes: refusing to mutate this tree" >&2; exit 2; }
elif [ ! -e "$work/.git" ]; then
  git -C "$root" worktree add --detach "$work" HEAD >/dev/null
else
  git -C "$work" checkout -q --detach "$(git -C "$root" rev-parse HEAD)"
  git -C "$work" reset -q --hard
fi
if [ ! -f "$work/build/build.ninja" ]; then
  cmake -S "$work" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
echo "building the unmutated tests once (later builds are incremental)..."
cmake --build "$work/build" -j "${KL_JOBS:-2}" >/dev/null

export QT_QPA_PLATFORM=offscreen KL_PYTHON=/usr/bin/python3
killed=0; survived=0; results=()
while IFS=$'\t' read -r file from to target regex why; do
  [ -z "$file" ] || [ "${file:0:1}" = "#" ] && continue
  [ "$skip" -gt 0 ] && { skip=$((skip - 1)); continue; }
  [ -n "$only" ] && [[ "$file $why" != *$only* ]] && continue
  # Exactly one occurrence, replaced with Python (no shell quoting of C++ text).
  if ! /usr/bin/python3 - "$work/$file" "$from" "$to" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"stale mutation list: {path} holds the text {text.count(old)} times: {old}")
open(path, "w").write(text.replace(old, new))
PY
  then exit 2; fi
  verdict="survived"
  if ! cmake --build "$work/build" -j "${KL_JOBS:-2}" --target "$target" >/dev/null 2>&1; then
    verdict="killed (build)"
  elif ! (cd "$work/build" && ctest -j "${KL_JOBS:-2}" --no-tests=error -R "$regex" >/dev/null 2>&1); then
    verdict="killed"
  fi
  git -C "$work" checkout -q -- "$file"
  if [ "$verdict" = "survived" ]; then survived=$((survived + 1)); else killed=$((killed + 1)); fi
  results+=("$(printf '%-16s %-40s %s' "$verdict" "$file" "$why")")
  echo "${results[-1]}"
done < "$list"
cmake --build "$work/build" -j "${KL_JOBS:-2}" >/dev/null 2>&1 || true # leave the checkout built unmutated
echo "mutations: $killed killed, $survived survived"
[ "$survived" -eq 0 ]
