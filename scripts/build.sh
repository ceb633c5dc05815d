#!/usr/bin/env bash
# Configures (once) and builds KernelLens into build/ with Ninja. Shared by run.sh and test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KL_BUILD_DIR:-$root/build}"
jobs="${KL_JOBS:-2}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" -j "$jobs"
