#!/usr/bin/env bash
# Set-up, build, then open the KernelLens window on the bundled default example.
# Extra arguments are passed to kernellens instead of the default example.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build="${KL_BUILD_DIR:-$root/build}"
if [ $# -eq 0 ]; then
  default="$root/examples/matmul_basic_tiled"
  [ -d "$default" ] && set -- "$default"
fi
exec "$build/app/kernellens" "$@"
