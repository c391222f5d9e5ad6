package fingerprint

import (
	"github.com/overturn/fingerprint/go/internal/abi"

	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
)

func toolsText(o *CallOptions) ([]byte, error) {
	if o == nil || o.Tools == nil {
		return nil, nil
	} else if t, ok := callArg(o.Tools).(textArg); ok {
		return t.b, nil
	}
	b, err := json.Marshal(o.Tools)
	if err != nil {
		return nil, word(abi.W_GO_TOOLS, "", err.Error())
	}
	return b, nil
}

// callArg: a call as JSON text (string, []byte, json.RawMessage) or a Go value.
func callArg(call any) any {
	switch c := call.(type) {
	case string:
		return asText(c)
	case []byte:
		return asText(c)
	case json.RawMessage:
		return asText(c)
	}
	return call
}

// explain reads one call (RQ_EXPLAIN) or, at index ALL_CALLS, every call of a message (RQ_EXPLAIN_ALL): the
// core writes each call's whole Explanation (a JSON array of them for all).
func explain[T any](c any, o *CallOptions, flags uint32, index []byte) (out T, err error) {
	tools, err := toolsText(o)
	if err != nil {
		return out, err
	}
	if tools != nil {
		flags |= abi.F_TOOLS
	}
	r, err := call(engineModule, flags, [][]byte{index, nil, nil, tools}, callArg(c), cmp.Or(o, &noCallOptions).Limits)
	return out, decode(r, err, &out)
}

// decode reads the core's JSON answer into v, unless the request failed (err).
func decode(r *result, err error, v any) error {
	if err != nil {
		return err
	}
	if err := json.Unmarshal(r.text, v); err != nil {
		return internalError(err)
	}
	return nil
}

// ExplainCall explains one call: a recording line or a provider's tool call,
// as JSON text or a Go value; the core reads its shape.
func ExplainCall(call any, opts *CallOptions) (*Explanation, error) {
	return explain[*Explanation](call, opts, abi.RQ_EXPLAIN, nil)
}

// ExplainCalls explains every call of a message holding several (a single call is one); none gives an empty list.
func ExplainCalls(message any, opts *CallOptions) ([]Explanation, error) {
	return explain[[]Explanation](message, opts, abi.RQ_EXPLAIN_ALL, words(abi.ALL_CALLS))
}

// FingerprintCall is the fingerprint of a call read whole (as ExplainCall reads it).
func FingerprintCall(call any, opts *CallOptions) (string, error) {
	e, err := explain[Explanation](call, opts, abi.RQ_EXPLAIN, nil)
	return e.Fingerprint, err
}

// Explain explains the call Fingerprint(name, args, opts) makes.
func Explain(name string, args any, opts *Options) (*Explanation, error) {
	// Members selection leaves out stay as keys (the explanation lists them), their values unread (D9).
	flags, p, o := parts(name, opts)
	args, err := keepMask(flags, p, args, o.Limits, true)
	return explainAs(name, o, "args", args, err)
}

// ExplainJSON explains the call FingerprintJSON(name, argsJSON, opts) makes.
func ExplainJSON[T Text](name string, argsJSON T, opts *Options) (*Explanation, error) {
	o, t := cmp.Or(opts, &noOptions), asText(argsJSON)
	if t.flag != 0 {
		return explainAs(name, o, "argsJSON", string(argsJSON), nil)
	}
	// Bytes are read by the core first (UTF-8, a BOM: D12, D14); their canonical text stands in (D13).
	r, err := call(fastModule, abi.F_TEXT, nil, t, o.Limits)
	return explainAs(name, o, "argsJSON", string(r.text), err)
}

// explainAs explains the call object of a name, options and its args member (unless err: the args failed);
// null members are absent, as in a recording.
func explainAs(name string, o *Options, member string, args any, err error) (*Explanation, error) {
	if err != nil {
		return nil, err
	}
	c := map[string]any{"name": name, "matchOn": o.MatchOn, "ignoreArgs": o.IgnoreArgs, member: args}
	if o.Kind != "" {
		c["kind"] = o.Kind
	}
	return ExplainCall(c, &CallOptions{Limits: o.Limits})
}

// Diff compares two calls (or their Explanations) by their canonical args,
// kind and name; the core answers (assembly/ops/compare.ts).
func Diff(a, b any) (*DiffResult, error) {
	d := &DiffResult{}
	return d, engineModule.with(func(in *instance) error { // d is filled in place
		r, err := compare(in, abi.D_DIFF, a, b)
		return decode(r, err, d)
	})
}

// words: u32s as little-endian bytes (a request's kind part).
func words(ws ...uint32) []byte {
	b, _ := binary.Append(nil, binary.LittleEndian, ws) // a []uint32: no reflection
	return b
}

// compare runs one F_DIFF request on in: the kind part says the op and how
// the name part's value (a) and the args' (b) are sent (JSON text, or a Go value's stream).
func compare(in *instance, op uint32, a, b any) (*result, error) {
	a, b = callArg(a), callArg(b)
	side, err := writeValue(nil, a, -1, true)
	if err != nil {
		return nil, err
	}
	return in.do(context.Background(), abi.F_DIFF, [][]byte{words(op, 0, sentAs(a), sentAs(b)), side}, b, nil)
}

// Nearest finds the recorded call of the same tool and kind with the fewest
// changes (the first of equals; an exact match ends the search); nil when
// none. The core decides (assembly/ops/compare.ts): the instance held for
// the search keeps the target, is handed each recorded call and names the
// nearest so far.
func Nearest(call any, recording []any) (best *NearestMatch, err error) {
	err = engineModule.with(func(in *instance) error {
		_, err := compare(in, abi.D_NEAR_START, []byte(nil), call)
		for i, step := 0, uint32(0); err == nil && i < len(recording) && step != abi.NEAR_EXACT; i++ {
			// The step (NEAR_*), then the nearest so far when this call is it.
			var r *result
			if r, err = compare(in, abi.D_NEAR_STEP, []byte(nil), recording[i]); err == nil {
				step, r.text = binary.LittleEndian.Uint32(r.text), r.text[4:]
			}
			if err == nil && len(r.text) > 0 {
				best = &NearestMatch{Call: recording[i]}
				if err = decode(r, nil, best); best.Explanation == nil {
					switch e := recording[i].(type) { // a null explanation: the recorded item is an Explanation, its own
					case Explanation:
						best.Explanation = &e
					case *Explanation:
						best.Explanation = e
					}
				}
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return best, nil
}
