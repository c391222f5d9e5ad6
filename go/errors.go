package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"strconv"
)

// FingerprintError is every error of this package for bad input (D19): a
// stable Code ("invalid-json" kinds, "unsupported-value", "limit-exceeded",
// ...), the message, and where: Offset, the byte offset into JSON text (-1
// when none), or Path, the offending value's path (args.items[3].when).
// Use errors.As to get it.
type FingerprintError struct {
	Code    string
	Message string
	Offset  int
	Path    string
	// Index is the failing item of a batch (-1 otherwise).
	Index int
}

func (e *FingerprintError) Error() string { return e.Message }

func newError(code, message, path string) *FingerprintError {
	return &FingerprintError{Code: code, Message: message, Offset: -1, Path: path, Index: -1}
}

// coreError is the FingerprintError of a failed request: code and reason
// from the generated table (assembly/abi.ts), the core's detail when it
// wrote one.
func coreError(r *result) *FingerprintError {
	code, reason := "bad-request", "core status "+strconv.Itoa(int(r.status))
	if r.status >= 1 && int(r.status) <= len(abi.CoreErrors) {
		code, reason = abi.CoreErrors[r.status-1][0], abi.CoreErrors[r.status-1][1]
	}
	part := "args"
	if r.part >= 0 && int(r.part) < len(abi.Parts) {
		part = abi.Parts[r.part]
	}
	e := newError(code, reason, "")
	if r.offset >= 0 {
		e.Offset = int(r.offset)
	}
	switch {
	case len(r.text) > 0:
		e.Message = string(r.text)
	case (part == "args" || part == "call" || part == "argsJSON" || part == "tools") && r.offset >= 0:
		where := map[string]string{"argsJSON": "argsJSON: ", "tools": "tools: "}[part]
		e.Message = where + "invalid JSON: " + reason + " at byte " + strconv.Itoa(int(r.offset))
	case part == "selection":
		e.Message = "invalid matchOn/ignoreArgs: " + reason
	case part == "kind" || part == "name":
		e.Message = "invalid " + part + ": " + reason
	}
	return e
}
