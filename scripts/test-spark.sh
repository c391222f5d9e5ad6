#!/usr/bin/env bash
# Runs the Spark example's test (python/spark_tests) on Spark local mode, in
# its own venv (.venv-spark) with pinned PySpark 4.1.4 (needs Java 17+), the
# Python SDK installed from ./python with its [arrow] extra. Slow (Spark
# start-up, 100,000 rows), so not part of `npm test`; .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PIP_NO_INPUT=1

if [ ! -f build/fingerprint.wasm ]; then
  echo "build/fingerprint.wasm is missing: run node scripts/build-wasm.mjs first" >&2
  exit 1
fi
if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  else
    echo "Spark needs Java 17+ (java is not on PATH)" >&2
    exit 1
  fi
fi
V=.venv-spark
if [ ! -x "$V/bin/python" ]; then
  python3 -m venv "$V"
fi
"$V/bin/python" -m pip install -q "pyspark==4.1.4" "pyarrow==26.0.1" "pandas==2.3.3" "wasmtime==50.0.1" "pytest==9.2.0"
"$V/bin/python" -m pip install -q --force-reinstall --no-deps ./python
# Spark's Python workers start `python3` from PATH unless told: they need this venv's packages.
export PYSPARK_PYTHON="$PWD/$V/bin/python" PYSPARK_DRIVER_PYTHON="$PWD/$V/bin/python"
"$V/bin/python" -m pytest python/spark_tests python/tests/test_batch.py -q -p no:cacheprovider "$@"
