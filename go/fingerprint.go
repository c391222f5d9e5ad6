// Package fingerprint computes Overturn tool-call fingerprints:
// sha256(kind "\n" name "\n" canonicalJSON(select(args))), 64 lowercase hex
// digits, the same value as the TypeScript and Python SDKs for the same call.
// Every rule lives in the WebAssembly core this package embeds (run by
// wazero, no cgo); this package moves bytes. Safe for concurrent use.
package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
)

// FingerprintVersion is the contract version these fingerprints follow (D18).
const FingerprintVersion = abi.FINGERPRINT_VERSION

// NoLimit in a Limits field is none (Infinity in the other SDKs; the core
// takes any value from 2^32-1 up as none).
const NoLimit = math.MaxInt

// Limit is a Limits field of n.
func Limit(n int) *int { return &n }

// over lays the given fields over base (noLimit for none), as the core read
// and decided them, or its error; the last answer is kept (the same limits
// call after call).
func (l *Limits) over(base [3]uint32) ([3]uint32, error) {
	if l == nil {
		return base, nil
	}
	// Each limit a number as Go prints it, null when not given (ops/limit_args.ts).
	members, _ := json.Marshal(struct {
		Bytes   *int `json:"maxInputBytes,string"`
		Depth   *int `json:"maxDepth,string"`
		Members *int `json:"maxMembers,string"`
	}{l.MaxInputBytes, l.MaxDepth, l.MaxMembers})
	last := lastLimits.Load()
	if last == nil || last.members != string(members) {
		r, err := call(fastModule, abi.RQ_LIMITS, make([][]byte, 4), textArg{members, abi.F_STRING_INPUT}, nil)
		if err != nil {
			return base, err
		}
		last = &limitAnswer{string(members), [4]uint32(r.words[:4])}
		lastLimits.Store(last)
	}
	for i := range base {
		if last.w[0]&(1<<i) != 0 {
			base[i] = last.w[1+i]
		}
	}
	return base, nil
}

// The last limits the core read (their members) and its answer (given, bytes, depth, members).
type limitAnswer struct {
	members string
	w       [4]uint32
}

// Limits as the core takes them: u32 each, noLimit for none.
const noLimit = 0xFFFFFFFF

var (
	lastLimits  atomic.Pointer[limitAnswer]
	none        = [3]uint32{noLimit, noLimit, noLimit}
	configured  atomic.Pointer[[3]uint32]
	retainBytes atomic.Int64
	// The options of a call given none (read only).
	noOptions     Options
	noCallOptions CallOptions
)

func init() {
	configured.Store(&none)
	retainBytes.Store(abi.RETAIN_BYTES)
}

// Configure sets the process-wide limits and memory retention; on an error nothing changes.
func Configure(s Settings) error {
	if s.RetainMemoryBytes < 0 {
		return word(abi.W_NON_NEGATIVE, "", "RetainMemoryBytes", strconv.FormatInt(s.RetainMemoryBytes, 10))
	}
	c, err := s.Limits.over(*configured.Load())
	if err != nil {
		return err
	}
	configured.Store(&c)
	if s.RetainMemoryBytes > 0 {
		retainBytes.Store(s.RetainMemoryBytes)
	}
	return nil
}

// Text is JSON text: a string, or bytes (which may start with a UTF-8 BOM, D12).
type Text interface{ ~string | ~[]byte }

// parts of a request for a call with options: its flags, kind, name, matchOn
// and ignoreArgs parts, and the options (nil: none). Their limits are checked
// (in.tell) before any work.
func parts(name string, opts *Options) (uint32, [][]byte, *Options) {
	var flags uint32
	o := cmp.Or(opts, &noOptions)
	list := func(keys []string, f uint32) []byte {
		if keys == nil {
			return nil
		}
		flags |= f
		b := []byte{'['}
		for _, k := range keys {
			b = append(appendQuoted(b, k), ',')
		}
		return append(b[:len(b)-min(len(keys), 1)], ']') // the last comma, if any, becomes the bracket
	}
	p := [][]byte{nil, appendQuoted(nil, name), list(o.MatchOn, abi.F_MATCH_ON), list(o.IgnoreArgs, abi.F_IGNORE)}
	if o.Kind != "" {
		p[0] = appendQuoted(nil, o.Kind)
	}
	return flags, p, o
}

// Fingerprint of a tool call whose args are a Go value (D20).
func Fingerprint(name string, args any, opts *Options) (string, error) {
	flags, p, o := parts(name, opts)
	// A map's members are selected by the core's keep-mask (the selection,
	// applied again, keeps them all); other values (a struct's JSON, JSON
	// text) by the core as it reads them.
	args, err := keepMask(flags, p, args, o.Limits, nil)
	if err != nil {
		return "", err
	}
	r, err := call(fastModule, flags|abi.F_DIGEST, p, args, o.Limits)
	return r.digest, err
}

// FingerprintJSON is the fingerprint of a tool call whose args are JSON
// text, such as the arguments string an LLM returns; the core reads it.
func FingerprintJSON[T Text](name string, argsJSON T, opts *Options) (string, error) {
	return Fingerprint(name, asText(argsJSON), opts)
}

// CanonicalJSON is the canonical JSON text of a Go value (no selection).
func CanonicalJSON(value any) (string, error) {
	r, err := call(fastModule, abi.F_TEXT, nil, value, nil)
	return string(r.text), err
}

// CanonicalizeJSON is the canonical JSON text of JSON text.
func CanonicalizeJSON[T Text](text T) (string, error) {
	return CanonicalJSON(asText(text))
}

// textArg: args that are JSON text (the core reads it), not a Go value.
type textArg struct {
	b    []byte
	flag uint32 // F_STRING_INPUT from a Go string: no BOM is skipped (D12)
}

// sentAs is the request flag for how args travel: a Go value's stream, or JSON text.
func sentAs(args any) uint32 {
	if t, ok := args.(textArg); ok {
		return t.flag
	}
	return abi.F_VALUES
}

func asText[T Text](t T) textArg {
	if _, str := any(t).(string); str {
		return textArg{[]byte(t), abi.F_STRING_INPUT}
	}
	return textArg{b: []byte(t)}
}

// call runs one request on a pooled instance of m.
func call(m *module, flags uint32, p [][]byte, args any, own *Limits) (r *result, err error) {
	// A digest is hashed here (crypto/sha256 uses the CPU's SHA instructions,
	// several times the wasm's speed): the core writes the preimage instead.
	host := flags&(abi.F_DIGEST|abi.F_TEXT|abi.F_CALL|abi.F_KEEP_MASK) == abi.F_DIGEST
	if host {
		flags = flags&^abi.F_DIGEST | abi.F_PREIMAGE
	}
	err = m.with(func(in *instance) error {
		r, err = in.do(context.Background(), flags, p, args, own)
		return err
	})
	if err != nil {
		return &result{}, err // its fields empty: a caller returns them with err
	}
	if host {
		h := sha256.Sum256(r.text)
		r.digest = hex.EncodeToString(h[:])
	}
	return r, nil
}

// appendQuoted appends s as a JSON string literal (the core checks its UTF-8).
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			b = fmt.Appendf(b, `\u%04x`, c)
		} else {
			b = append(b, c)
		}
	}
	return append(b, '"')
}
