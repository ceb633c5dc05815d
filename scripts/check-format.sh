#!/usr/bin/env bash
# Formatting and lint checks, run by scripts/test.sh before the build (KL_SKIP_FORMAT=1 skips them).
# - C++: the tree is formatted by clang-format 14 (Debian 12's, .clang-format at the root). Other major versions
#   format some constructs differently, so a different version fails with a message instead of reporting a diff
#   that is not ours; install clang-format-14 or point KL_CLANG_FORMAT at one.
# - Python front end, scripts and front-end tests: pyflakes (python3-pyflakes). The shims' `from . import ...`
#   lines are their packages' public submodules, not unused imports, so sim/frontend/shims is left out; the test
#   kernels under tests/frontend/{good,bad,current} are kernels written as users write them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

fail() { echo "check-format: $*" >&2; exit 1; }

formatter="${KL_CLANG_FORMAT:-}"
if [ -z "$formatter" ]; then
  for candidate in clang-format-14 clang-format; do
    if command -v "$candidate" >/dev/null; then formatter="$candidate"; break; fi
  done
fi
[ -n "$formatter" ] || fail "clang-format not found: install clang-format (Debian 12: version 14)"
major="$("$formatter" --version | sed -nE 's/.*version ([0-9]+)\..*/\1/p')"
[ "$major" = 14 ] || fail "$formatter is version ${major:-unknown}; the tree is formatted with clang-format 14 (set KL_CLANG_FORMAT)"

if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t cxx < <(git ls-files '*.cpp' '*.h' '*.c')
else
  mapfile -t cxx < <(find app core sim views tests bench -name '*.cpp' -o -name '*.h' -o -name '*.c' | sort)
fi
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
if ! "$formatter" --dry-run --Werror "${cxx[@]}" 2>"$report"; then
  head -40 "$report" >&2
  fail "C++ files are not clang-formatted: run $formatter -i on the files above"
fi
echo "check-format: ${#cxx[@]} C++ files formatted ($formatter $major)"

command -v pyflakes3 >/dev/null || fail "pyflakes3 not found: install python3-pyflakes (scripts/setup.sh)"
python=(sim/frontend/kltrace sim/frontend/kltrace_main.py sim/frontend/numpy_shim scripts tests/frontend/*.py)
pyflakes3 "${python[@]}" || fail "pyflakes found problems in the Python above"
echo "check-format: pyflakes clean"
