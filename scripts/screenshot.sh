#!/usr/bin/env bash
# Opens kernellens under a virtual X display, waits, and saves a screenshot of the whole screen.
# Usage: scripts/screenshot.sh OUT.png [WIDTHxHEIGHT] [kernellens arguments...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: screenshot.sh OUT.png [WxH] [args...]}"; shift
size="${1:-1280x800}"; [ $# -gt 0 ] && shift
build="${KL_BUILD_DIR:-$root/build}"
wait_s="${KL_SCREENSHOT_WAIT:-4}"
xvfb-run -a -s "-screen 0 ${size}x24" bash -c '
  "$0" "$@" & app=$!
  sleep "'"$wait_s"'"
  import -window root "'"$out"'"
  kill $app 2>/dev/null || true
' "$build/app/kernellens" -geometry "$size+0+0" "$@"
echo "wrote $out"
