#!/usr/bin/env bash
# Opens kernellens under a virtual X display, waits, and saves a screenshot of the whole screen.
# Usage: scripts/screenshot.sh OUT.png [WIDTHxHEIGHT] [kernellens arguments...]
#   e.g. scripts/screenshot.sh /tmp/shots/ws-review-1280-dark.png 1280x800 --workspace review --theme dark examples/softmax
# KL_SCREENSHOT_FRESH=1 starts from fresh settings (a first start: no saved layout, theme or recent files).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: screenshot.sh OUT.png [WxH] [args...]}"; shift
size="${1:-1280x800}"; [ $# -gt 0 ] && shift
build="${KL_BUILD_DIR:-$root/build}"
wait_s="${KL_SCREENSHOT_WAIT:-4}"
if [ "${KL_SCREENSHOT_FRESH:-0}" = 1 ]; then
  XDG_CONFIG_HOME="$(mktemp -d)"; export XDG_CONFIG_HOME
fi
xvfb-run -a -s "-screen 0 ${size}x24" bash -c '
  "$0" "$@" & app=$!
  sleep "'"$wait_s"'"
  import -window root "'"$out"'"
  kill $app 2>/dev/null || true
' "$build/app/kernellens" -geometry "$size+0+0" "$@"
echo "wrote $out"
