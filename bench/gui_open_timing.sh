#!/bin/bash
# Open -> timeline on screen for a task in the GUI, two ways (docs/simulator.md, "Performance"):
#  1. the instrumented log line (KL_TIMING_LOG=1): "first timeline paint at N ms" from the process's start;
#  2. a screenshot poll under Xvfb as a cross-check: the screen is captured every ~50 ms from launch, and the time of
#     the first capture whose CROP region (the timeline) already equals the final capture's is printed.
# The poll's resolution is the capture interval plus the capture's own time (tens of ms on a busy machine).
# The captures also take CPU from the two processes being measured (ImageMagick's `import` of the whole screen,
# every ~50 ms, on a 2-core machine): KL_POLL_MS=0 takes only the log line, without captures, and with
# KL_CHECK_AT_MS=N one capture N ms after launch, compared with one taken at the end: the timeline region was
# final on screen by then when they agree.
#
#   bench/gui_open_timing.sh BUILD_DIR TASK_DIR [CROP]     e.g. bench/gui_open_timing.sh build examples/matmul_optimized
set -u
BUILD=${1:?build dir}
TASK=${2:?task folder}
CROP=${3:-640x120+350+268}
OUT=$(mktemp -d /tmp/kl-gui-timing.XXXXXX)
DISPLAY_NUM=:$((90 + RANDOM % 100))
Xvfb "$DISPLAY_NUM" -screen 0 1600x1000x24 >/dev/null 2>&1 &
XVFB=$!
sleep 1
export DISPLAY=$DISPLAY_NUM
start=$(date +%s%N)
KL_TIMING_LOG=1 KL_PYTHON=${KL_PYTHON:-/usr/bin/python3} "$BUILD/app/kernellens" "$TASK" 2>"$OUT/log.txt" &
APP=$!
if [ "${KL_POLL_MS:-12000}" = 0 ]; then
    if [ -n "${KL_CHECK_AT_MS:-}" ]; then
        left=$(( KL_CHECK_AT_MS - ($(date +%s%N) - start) / 1000000 ))
        [ "$left" -gt 0 ] && sleep "$(printf '%d.%03d' $((left / 1000)) $((left % 1000)))"
        taken=$(( ($(date +%s%N) - start) / 1000000 ))
        import -window root -crop "$CROP" "$OUT/at.png" 2>/dev/null
    fi
    for i in $(seq 1 300); do
        grep -q "first timeline paint" "$OUT/log.txt" && break
        sleep 0.05
    done
    if [ -n "${KL_CHECK_AT_MS:-}" ]; then
        sleep 2
        import -window root -crop "$CROP" "$OUT/end.png" 2>/dev/null
        diff=$(compare -metric AE "$OUT/at.png" "$OUT/end.png" null: 2>&1 | cut -d' ' -f1)
    fi
    kill "$APP" 2>/dev/null
    wait "$APP" 2>/dev/null
    kill "$XVFB" 2>/dev/null
    grep "kernellens:" "$OUT/log.txt"
    if [ -n "${KL_CHECK_AT_MS:-}" ]; then
        echo "one capture at ${taken} ms after launch: ${diff} pixels of the timeline region differ from the final one"
    fi
    exit 0
fi
for i in $(seq 1 300); do
    now=$(( ($(date +%s%N) - start) / 1000000 ))
    import -window root -crop "$CROP" "$OUT/$(printf %06d "$now").png" 2>/dev/null
    sleep 0.05
    if [ "$now" -gt "${KL_POLL_MS:-12000}" ]; then break; fi
done
kill "$APP" 2>/dev/null
wait "$APP" 2>/dev/null
kill "$XVFB" 2>/dev/null
grep "kernellens:" "$OUT/log.txt"
last=$(ls "$OUT"/*.png | tail -1)
for f in "$OUT"/*.png; do
    diff=$(compare -metric AE "$f" "$last" null: 2>&1 | cut -d' ' -f1)
    if [ "${diff%.*}" -lt 50 ] 2>/dev/null; then
        echo "screenshot poll: timeline region final at $(basename "$f" .png | sed 's/^0*//') ms after launch (captures in $OUT)"
        break
    fi
done
