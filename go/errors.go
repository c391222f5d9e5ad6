package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"context"
	"strings"
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

// coreError is the FingerprintError of a failed request: its code from the
// generated table (assembly/abi.ts), its whole message the core's (base/words.ts).
func coreError(r *result) *FingerprintError {
	e := &FingerprintError{Code: "bad-request", Message: string(r.text), Offset: max(int(r.offset), -1), Index: -1}
	if r.status >= 1 && int(r.status) <= len(abi.CoreErrors) {
		e.Code = abi.CoreErrors[r.status-1][0]
	}
	return e
}

// word is an error this host raises, worded by the core (the fingerprint
// module's word export, base/words.ts: a word id and its parameters, NUL
// between them, at wordBuf(); the message at wordBuf() + WORD_OUT).
func word(id int, path string, params ...string) *FingerprintError {
	msg := strings.Join(params, "; ") // no module to word it
	if in, err := fastModule.get(); err == nil {
		ctx, p := context.Background(), []byte(strings.Join(params, "\x00"))
		at, err := in.call(ctx, in.mod.ExportedFunction("wordBuf"))
		if err == nil && in.mem.Write(uint32(at), p[:min(len(p), abi.WORD_OUT)]) {
			n, _ := in.call(ctx, in.mod.ExportedFunction("word"), uint64(id), uint64(min(len(p), abi.WORD_OUT)))
			if b, ok := in.mem.Read(uint32(at)+abi.WORD_OUT, uint32(n)); ok {
				msg = string(b)
			}
		}
		in.put()
	}
	return &FingerprintError{Code: abi.WordCodes[id-1], Message: msg, Offset: -1, Path: path, Index: -1}
}
