#!/bin/bash
# kernellens-cli links no Qt and hands a visual report to kernellens-cli-qt beside it; alone, it refuses a PDF
# with what to do instead. Usage: cli_visual_report.sh KERNELLENS_CLI SCRATCH_DIR SOURCE_DIR
set -u
cli=$1 scratch=$2 src=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch" && mkdir -p "$scratch" || fail "cannot make $scratch"

! ldd "$cli" | grep -q "libQt6" || fail "kernellens-cli links Qt: $(ldd "$cli" | grep libQt6 | head -1)"
echo "ok: kernellens-cli links no Qt"

"$cli" review new "$scratch/r.klreview" >/dev/null || fail "review new"
"$cli" review add-task "$scratch/r.klreview" "$src/examples/vector_add_nki" >/dev/null || fail "review add-task"
QT_QPA_PLATFORM=offscreen "$cli" report "$scratch/r.klreview" --no-simulate -o "$scratch/r.pdf" \
  || fail "report --format pdf through kernellens-cli-qt"
[ "$(head -c 5 "$scratch/r.pdf")" = "%PDF-" ] || fail "r.pdf is not a PDF"
echo "ok: a PDF report is written through the Qt half"

# The same program without its Qt half beside it (a hard link, or a copy on another file system).
mkdir "$scratch/alone"
ln "$cli" "$scratch/alone/kernellens-cli" 2>/dev/null || cp "$cli" "$scratch/alone/kernellens-cli"
out=$("$scratch/alone/kernellens-cli" report "$scratch/r.klreview" --no-simulate -o "$scratch/alone.pdf" 2>&1)
status=$?
[ "$status" = 1 ] || fail "alone: exit status $status, expected 1 ($out)"
echo "$out" | grep -q "no Qt half (kernellens-cli-qt) and cannot write PDF" || fail "alone: message: $out"
[ ! -e "$scratch/alone.pdf" ] || fail "alone: a PDF was written"
"$scratch/alone/kernellens-cli" report "$scratch/r.klreview" --no-simulate -o "$scratch/r.md" || fail "alone: Markdown"
echo "ok: without the Qt half, PDF is refused with the reason and Markdown is still written"
rm -rf "$scratch"
