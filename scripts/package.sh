#!/usr/bin/env bash
# Builds the Debian package: kernellens_VERSION_amd64.deb in build-package/ (or $KL_PACKAGE_DIR).
# Installs what the build needs (scripts/setup.sh), builds the application only (no tests, no benchmarks),
# then CPack. Install the result with `sudo apt install ./build-package/kernellens_*_amd64.deb`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${KL_PACKAGE_DIR:-$root/build-package}"
"$root/scripts/setup.sh"
if [ ! -f "$out/build.ninja" ]; then
  cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKL_BUILD_TESTS=OFF -DKL_BUILD_BENCH=OFF
fi
cmake --build "$out" -j "${KL_JOBS:-2}"
(cd "$out" && cpack -G DEB)
deb="$(ls -t "$out"/kernellens_*_amd64.deb | head -1)"
if command -v lintian >/dev/null; then
  lintian "$deb" || true
fi
echo "package: $deb"
