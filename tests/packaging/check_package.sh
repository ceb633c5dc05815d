#!/usr/bin/env bash
# The Debian package as a user gets it: desktop file and AppStream metainfo valid, the .deb built by CPack
# passes lintian without errors, and once unpacked into a scratch root (dpkg -x) it runs from there with the
# source and build trees hidden: `kernellens --version`, `kernellens-cli simulate` on an installed example, a PDF
# report through the CLI's Qt half, and the .klreview MIME type registered. A validator that is not installed is
# skipped with a message.
# Usage: check_package.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"; build="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$src/packaging/io.github.kernellens.KernelLens.desktop" || fail "desktop file"
  echo "ok: desktop-file-validate"
else
  echo "skipped: desktop-file-validate is not installed (Debian package desktop-file-utils)"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$build/packaging/generated/io.github.kernellens.KernelLens.metainfo.xml" \
    || fail "AppStream metainfo"
  echo "ok: appstreamcli validate"
else
  echo "skipped: appstreamcli is not installed (Debian package appstream)"
fi

(cd "$build" && cpack -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1) || { cat "$scratch/cpack.log"; fail "cpack"; }
deb="$(ls "$scratch"/out/kernellens_*_amd64.deb)"
version="$(dpkg-deb -f "$deb" Version)"
[ "$(basename "$deb")" = "kernellens_${version}_amd64.deb" ] || fail "package file name $(basename "$deb")"
dpkg-deb -f "$deb" Depends | grep -q "libqt6widgets6" || fail "shlibdeps did not add the Qt libraries"
echo "ok: built $(basename "$deb")"

if command -v lintian >/dev/null; then
  lintian "$deb" >"$scratch/lintian.txt" 2>&1 || true
  cat "$scratch/lintian.txt"
  ! grep -q "^E:" "$scratch/lintian.txt" || fail "lintian reports errors"
  echo "ok: lintian, no errors"
else
  echo "skipped: lintian is not installed (Debian package lintian)"
fi

root="$scratch/root"
dpkg -x "$deb" "$root"
for f in usr/bin/kernellens usr/bin/kernellens-cli usr/libexec/kernellens/kernellens-cli-qt \
         usr/share/man/man1/kernellens-cli.1.gz \
         usr/share/applications/io.github.kernellens.KernelLens.desktop usr/share/mime/packages/kernellens.xml \
         usr/share/icons/hicolor/256x256/apps/kernellens.png usr/share/bash-completion/completions/kernellens-cli \
         usr/share/kernellens/resources/hw/trn2.json usr/share/kernellens/sim/frontend/kltrace_main.py \
         usr/share/kernellens/resources/numerics/tolerances.json \
         usr/share/kernellens/sim/frontend/kltrace/numerics/tolerances.json \
         usr/share/kernellens/sim/frontend/kltrace/ops.def; do
  [ -e "$root/$f" ] || fail "missing /$f"
done
! find "$root" -name "__pycache__" | grep -q . || fail "bytecode caches in the package"
# The bytecode is compiled at install instead (packaging/postinst) and removed before removal (prerm).
control="$scratch/control"
dpkg-deb -e "$deb" "$control"
for script in postinst prerm; do
  [ -x "$control/$script" ] || fail "no executable $script in the package's control files"
  sh -n "$control/$script" || fail "$script is not valid shell"
done
grep -q "py3compile -p kernellens /usr/share/kernellens/sim/frontend" "$control/postinst" \
  || fail "postinst does not compile the installed front end"
cp -r "$root/usr/share/kernellens/sim/frontend" "$scratch/frontend-bytecode"
/usr/bin/python3 -m compileall -q "$scratch/frontend-bytecode" >/dev/null \
  || fail "the installed front end does not compile with $(/usr/bin/python3 --version)"
echo "ok: postinst compiles the front end's bytecode (it compiles), prerm removes it"

# Run from the scratch root with the source and build trees out of sight: anything still read from
# them would fail here.
run_hidden() {
  bwrap --dev-bind / / --tmpfs "$src" --tmpfs "$build" --setenv HOME "$scratch/home" \
        --setenv QT_QPA_PLATFORM offscreen --unsetenv KL_DATA_DIR --unsetenv KL_PYTHON "$@"
}
mkdir -p "$scratch/home"
run_hidden "$root/usr/bin/kernellens" --version | grep -q "$version" || fail "kernellens --version"
run_hidden "$root/usr/bin/kernellens-cli" --version | grep -q "$version" || fail "kernellens-cli --version"
if ! run_hidden "$root/usr/bin/kernellens-cli" simulate "$root/usr/share/kernellens/examples/vector_add_nki" \
      >"$scratch/sim.txt" 2>&1; then
  cat "$scratch/sim.txt"
  fail "simulate on an installed example"
fi
grep -qi "instructions" "$scratch/sim.txt" || { cat "$scratch/sim.txt"; fail "simulate printed no summary"; }
echo "ok: installed kernellens-cli simulates an installed example with the source tree hidden"
if ls "$src"/sim/frontend/kltrace/_klaccel*.so >/dev/null 2>&1; then
  # The front end's C functions (kltrace._klaccel) are installed under lib/, where the installed front end finds them.
  status="$(run_hidden /usr/bin/python3 -c "import sys; sys.path.insert(0, '$root/usr/share/kernellens/sim/frontend')
from kltrace import api, accel; print(accel.STATUS)")"
  case "$status" in "c: $root/usr/lib/kernellens/_klaccel"*) ;; *) fail "installed front end: $status" ;; esac
  echo "ok: the installed front end binds its C functions from /usr/lib/kernellens"
fi
run_hidden "$root/usr/bin/kernellens-cli" review new "$scratch/r.klreview" >/dev/null || fail "review new"
run_hidden "$root/usr/bin/kernellens-cli" report "$scratch/r.klreview" --no-simulate -o "$scratch/r.pdf" \
  || fail "a PDF report through the installed Qt half (libexec/kernellens/kernellens-cli-qt)"
[ "$(head -c 5 "$scratch/r.pdf")" = "%PDF-" ] || fail "the installed CLI's PDF report is not a PDF"
# With --trust the half traces the stored kernel: it needs the installed front end and resources, not its own
# libexec neighbourhood's.
run_hidden "$root/usr/bin/kernellens-cli" review add-task "$scratch/r.klreview" \
  "$root/usr/share/kernellens/examples/vector_add_nki" >/dev/null || fail "review add-task"
run_hidden "$root/usr/bin/kernellens-cli" report "$scratch/r.klreview" --trust -o "$scratch/r.html" \
  >"$scratch/report.txt" 2>&1 || { cat "$scratch/report.txt"; fail "a trusted HTML report through the Qt half"; }
grep -q "data:image/png" "$scratch/r.html" \
  || { cat "$scratch/report.txt"; fail "the trusted HTML report has no timeline image"; }
echo "ok: installed kernellens-cli writes a PDF report, and a trusted HTML one with its timeline, through its Qt half"

if command -v update-mime-database >/dev/null; then
  update-mime-database "$root/usr/share/mime"
  grep -q "application/x-kernellens-review:\*\.klreview" "$root/usr/share/mime/globs2" || fail "MIME glob"
  grep -q "MimeType=application/x-kernellens-review;" "$root/usr/share/applications/io.github.kernellens.KernelLens.desktop" \
    || fail "desktop file does not open reviews"
  echo "ok: .klreview is application/x-kernellens-review, opened by the desktop entry"
else
  echo "skipped: update-mime-database is not installed (Debian package shared-mime-info)"
fi
echo "package checks passed"
