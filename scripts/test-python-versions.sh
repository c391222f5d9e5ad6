#!/usr/bin/env bash
# The Python suite (scripts/test-python.sh) on the oldest and the newest
# Python the package supports (3.9, 3.13): the C json encoder's and marshal's
# recursion, the C recursion limit and the stdlib differ between them, and a
# value that is safe on one can crash another. Each gets its own venv
# (.venv-3.9, .venv-3.13). An interpreter is found as python3.X on PATH or
# under pyenv's versions; one this machine lacks is named and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

# One that runs (a pyenv shim for a version not selected is on PATH but fails).
find_python() {
  local v="$1" p
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/"python$v" "$(command -v "python$v" 2>/dev/null)"; do
    if [ -x "$p" ] && "$p" -c "import sys; assert sys.version_info[:2] == (${v/./, })" 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

for v in 3.9 3.13; do
  if ! py=$(find_python "$v"); then
    echo "python $v: not installed on this machine, skipped" >&2
    continue
  fi
  echo "python $v: $("$py" --version 2>&1) ($py)"
  PYTHON="$py" VENV=".venv-$v" bash scripts/test-python.sh "$@"
done
