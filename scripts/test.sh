#!/usr/bin/env bash
# Set-up, build, then run every test headless. Ends with ctest's summary; non-zero exit on any failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
if [ "${KL_SKIP_FORMAT:-0}" != 1 ]; then
  "$root/scripts/check-format.sh" # clang-format 14 and pyflakes; fails before a long build
fi
"$root/scripts/build.sh"
build="${KL_BUILD_DIR:-$root/build}"
export QT_QPA_PLATFORM=offscreen
export KL_PYTHON=/usr/bin/python3
cd "$build"
ctest --output-on-failure -j "${KL_JOBS:-2}" "$@"
