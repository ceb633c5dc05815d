#!/usr/bin/env bash
# Fails when a file under sim/ or core/ includes a Qt header: those layers are shared with the headless CLI.
set -u
root="${1:?usage: check_no_qt.sh SOURCE_DIR}"
hits=$(grep -rnE '^\s*#\s*include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/[^>"]*|q[a-z]+\.h|qcustomplot\.h|Qsci/[^>"]*)[>"]' \
         "$root/sim" "$root/core" --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' 2>/dev/null)
if [ -n "$hits" ]; then
  echo "Qt headers are not allowed in sim/ or core/:"
  echo "$hits"
  exit 1
fi
echo "no Qt includes in sim/ or core/"
