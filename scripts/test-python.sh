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
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q "wasmtime==50.0.1" "pytest==9.2.0" "hatchling==1.27.0" "mypy==2.4.1; python_version >= '3.10'"
# The provider SDKs whose real objects the tests build offline (test-only,
# never a dependency of the package; each pin skips interpreters it needs no).
.venv/bin/python -m pip install -q -r python/tests/requirements-sdks.txt
.venv/bin/python -m pip install -q --force-reinstall --no-deps ./python
.venv/bin/pytest python/tests -q "$@"
