#!/usr/bin/env bash
# The Go host's tests (go/): every vector file, D20's Go values, the Go CLI
# against the CLI vectors (and the Node CLI when dist/cli.js is built), under
# the race detector. The module's one dependency (wazero) comes from the Go
# module proxy, pinned by go/go.sum; after `go mod download` no network is used.
set -euo pipefail
cd "$(dirname "$0")/../go"
go version
go mod download
go vet ./...
test -z "$(gofmt -l .)" || { echo "gofmt: $(gofmt -l .)" >&2; exit 1; }
# -race needs cgo (a C compiler); without one the same tests run without it.
if command -v gcc >/dev/null 2>&1; then RACE=-race; else RACE=; echo "no C compiler: go test without -race" >&2; fi
go test -count=1 $RACE ./... "$@"
