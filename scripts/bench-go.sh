#!/usr/bin/env bash
# The Go benchmark (go/bench): the Go host vs github.com/gowebpki/jcs + crypto/sha256
# and encoding/json + crypto/sha256, on bench/payloads.mjs's payloads, in one process.
#   bash scripts/bench-go.sh [go test flags, e.g. -benchtime=2s -count=5]
set -euo pipefail
cd "$(dirname "$0")/.."
node bench/payloads.mjs --write go/bench/testdata >/dev/null
cd go/bench
go test -run '^$' -bench . -benchmem "$@"
