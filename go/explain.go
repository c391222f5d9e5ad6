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
		return nil, newError("invalid-argument", "tools: "+err.Error(), "")
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

// explain reads one call (all false) or every call of a message: the core
// writes each call's whole Explanation (a JSON array of them for all).
func explain[T any](c any, o *CallOptions, all bool) (out T, err error) {
	tools, err := toolsText(o)
	flags, index := uint32(abi.RQ_EXPLAIN), []byte(nil)
	if all {
		flags, index = abi.RQ_EXPLAIN_ALL, words(abi.ALL_CALLS)
	}
	if tools != nil {
		flags |= abi.F_TOOLS
	}
	if err == nil {
		var r *result
		if r, err = call(engineModule, flags, [][]byte{index, nil, nil, tools}, callArg(c), cmp.Or(o, &noCallOptions).Limits); err == nil {
			err = decode(r.text, &out)
		}
	}
	return out, err
}

// decode reads the core's JSON answer into v.
func decode(text []byte, v any) error {
	if err := json.Unmarshal(text, v); err != nil {
		return internalError(err)
	}
	return nil
}

// ExplainCall explains one call: a recording line or a provider's tool call,
// as JSON text or a Go value; the core reads its shape.
func ExplainCall(call any, opts *CallOptions) (*Explanation, error) {
	return explain[*Explanation](call, opts, false)
}

// ExplainCalls explains every call of a message holding several (a single call is one); none gives an empty list.
func ExplainCalls(message any, opts *CallOptions) ([]Explanation, error) {
	return explain[[]Explanation](message, opts, true)
}

// FingerprintCall is the fingerprint of a call read whole (as ExplainCall reads it).
func FingerprintCall(call any, opts *CallOptions) (string, error) {
	e, err := explain[Explanation](call, opts, false)
	return e.Fingerprint, err
}

// Explain explains the call Fingerprint(name, args, opts) makes.
func Explain(name string, args any, opts *Options) (*Explanation, error) {
	// Members selection leaves out stay as keys (the explanation lists them), their values unread (D9).
	flags, p, o := parts(name, opts)
	c := asCall(name, o)
	var err error
	if c["args"], err = keepMask(flags, p, args, o.Limits, true); err != nil {
		return nil, err
	}
	return ExplainCall(c, &CallOptions{Limits: o.Limits})
}

// ExplainJSON explains the call FingerprintJSON(name, argsJSON, opts) makes.
func ExplainJSON[T Text](name string, argsJSON T, opts *Options) (*Explanation, error) {
	o := cmp.Or(opts, &noOptions)
	c := asCall(name, o)
	c["argsJSON"] = string(argsJSON)
	if t := asText(argsJSON); t.flag == 0 {
		// Bytes are read by the core first (UTF-8, a BOM: D12, D14); their canonical text stands in (D13).
		r, err := call(fastModule, abi.F_TEXT, nil, t, o.Limits)
		if err != nil {
			return nil, err
		}
		c["argsJSON"] = string(r.text)
	}
	return ExplainCall(c, &CallOptions{Limits: o.Limits})
}

// asCall is the call object of a name and options (null members are absent, as in a recording).
func asCall(name string, o *Options) map[string]any {
	c := map[string]any{"name": name, "matchOn": o.MatchOn, "ignoreArgs": o.IgnoreArgs}
	if o.Kind != "" {
		c["kind"] = o.Kind
	}
	return c
}

// Diff compares two calls (or their Explanations) by their canonical args,
// kind and name; the core answers (assembly/ops/compare.ts).
func Diff(a, b any) (*DiffResult, error) {
	d := &DiffResult{}
	err := engineModule.with(func(in *instance) error {
		text, err := compare(in, abi.D_DIFF, a, b)
		if err == nil {
			err = decode(text, d)
		}
		return err
	})
	return d, err
}

// words: u32s as little-endian bytes (a request's kind part).
func words(ws ...uint32) (b []byte) {
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// compare runs one F_DIFF request on in: the kind part says the op and how
// the name part's value (a) and the args' (b) are sent (JSON text, or a Go value's stream).
func compare(in *instance, op uint32, a, b any) ([]byte, error) {
	a, b = callArg(a), callArg(b)
	side, err := writeValue(nil, a, -1, true)
	if err != nil {
		return nil, err
	}
	r, err := in.do(context.Background(), abi.F_DIFF, [][]byte{words(op, 0, sentAs(a), sentAs(b)), side}, b, nil)
	if err != nil {
		return nil, err
	}
	return r.text, nil
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
			var out []byte
			if out, err = compare(in, abi.D_NEAR_STEP, []byte(nil), recording[i]); err == nil && len(out) > 4 {
				// A null explanation: the recorded item is an Explanation, its own.
				best = &NearestMatch{Call: recording[i]}
				if err = decode(out[4:], best); best.Explanation == nil {
					best.Explanation = asExplanation(recording[i])
				}
			}
			if err == nil {
				step = binary.LittleEndian.Uint32(out)
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return best, nil
}

func asExplanation(x any) *Explanation {
	if e, ok := x.(Explanation); ok {
		return &e
	}
	e, _ := x.(*Explanation)
	return e
}
