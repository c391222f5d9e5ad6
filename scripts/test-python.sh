#!/usr/bin/env bash
# Runs the Python SDK's test suite (python/tests) against a fresh install of
# ./python, so the tests see the package exactly as users get it, including
# the build/fingerprint.wasm it carries. Makes .venv at the repository root
# on first use; reinstalls the package on every run so a rebuilt wasm is
# picked up. Non-interactive (CI=true, root are fine). Needs python3 ≥ 3.9;
# node is optional (only the cross-language parity test uses it).
set -euo pipefail
cd "$(dirname "$0")/.."

export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1

if [ ! -f build/fingerprint.wasm ]; then
  echo "build/fingerprint.wasm is missing: run node scripts/build-wasm.mjs first" >&2
  exit 1
fi
# PYTHON picks the interpreter and VENV its environment (defaults: python3,
# .venv), e.g. PYTHON=python3.9 VENV=/tmp/v39 for the oldest supported Python.
PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
# Pins with environment markers, so every supported Python gets a pytest it runs on.
"$VENV/bin/python" -m pip install -q -r python/tests/requirements.txt
# The provider SDKs whose real objects the tests build offline (test-only,
# never a dependency of the package; each pin skips interpreters it needs no).
"$VENV/bin/python" -m pip install -q -r python/tests/requirements-sdks.txt
"$VENV/bin/python" -m pip install -q --force-reinstall --no-deps ./python
"$VENV/bin/python" -m pytest python/tests -q "$@"
