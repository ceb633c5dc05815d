#!/usr/bin/env bash
# Installs the Debian packages KernelLens needs to build, test and run, and nothing when all are present.
# Idempotent: safe to run before every build. Uses sudo when not root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6 libqscintilla2-qt6-dev
  libfmt-dev libsqlite3-dev nlohmann-json3-dev libgtest-dev sqlite3
  python3 python3-numpy python3-yaml python3-dev
  bubblewrap libseccomp-dev
  xvfb xauth imagemagick poppler-utils fonts-dejavu-core
  help2man desktop-file-utils appstream lintian
  clang-format python3-pyflakes
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
