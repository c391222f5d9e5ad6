package fingerprint

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type shapeCase struct {
	ID, Op     string
	Call, Line string
	A, B       string
	Recording  []string
	Expect     json.RawMessage
}

func errorMatches(t *testing.T, err error, expect json.RawMessage, includes bool) {
	t.Helper()
	var want struct{ Code, Message, Includes string }
	json.Unmarshal(expect, &want)
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.Code != want.Code ||
		(!includes && fe.Message != want.Message) || (includes && !strings.Contains(fe.Message, want.Includes)) {
		t.Errorf("got %v; want %s", err, expect)
	}
}

func sameJSON(t *testing.T, got any, want json.RawMessage) {
	t.Helper()
	b, _ := json.Marshal(got)
	var g, w any
	json.Unmarshal(b, &g)
	json.Unmarshal(want, &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// vectors/call-shapes.vectors.json: tool calls in the shapes agents emit, as text and as Go values.
func TestCallShapeVectors(t *testing.T) {
	var file struct{ Cases []shapeCase }
	readVectors(t, "call-shapes.vectors.json", &file)
	for _, c := range file.Cases {
		t.Run(c.ID, func(t *testing.T) {
			var value any
			json.Unmarshal([]byte(c.Call), &value)
			for _, call := range []any{c.Call, []byte(c.Call), value} {
				switch c.Op {
				case "explain":
					e, err := ExplainCall(call, nil)
					if err != nil {
						t.Fatal(err)
					}
					sameJSON(t, e, c.Expect)
				case "calls":
					e, err := ExplainCalls(call, nil)
					if err != nil {
						t.Fatal(err)
					}
					if e == nil {
						e = []Explanation{}
					}
					sameJSON(t, e, c.Expect)
				case "error", "error-includes":
					_, err := ExplainCall(call, nil)
					errorMatches(t, err, c.Expect, c.Op == "error-includes")
				case "calls-error":
					_, err := ExplainCalls(call, nil)
					errorMatches(t, err, c.Expect, false)
				default:
					t.Fatalf("unknown op %s", c.Op)
				}
			}
		})
	}
}

// vectors/diagnostics.vectors.json: explain, diff, nearest and the errors of recording lines.
func TestDiagnosticsVectors(t *testing.T) {
	var file struct{ Cases []shapeCase }
	readVectors(t, "diagnostics.vectors.json", &file)
	for _, c := range file.Cases {
		t.Run(c.ID, func(t *testing.T) {
			switch c.Op {
			case "explain":
				e, err := ExplainCall(c.Line, nil)
				if err != nil {
					t.Fatal(err)
				}
				sameJSON(t, e, c.Expect)
			case "error":
				_, err := ExplainCall(c.Line, nil)
				errorMatches(t, err, c.Expect, false)
			case "diff", "diff-calls":
				d, err := Diff(c.A, c.B)
				if err != nil {
					t.Fatal(err)
				}
				sameJSON(t, d, c.Expect)
			case "diff-mixed": // an Explanation (a Go value) against a call's text, each way
				ea, err := ExplainCall(c.A, nil)
				if err != nil {
					t.Fatal(err)
				}
				eb, err := ExplainCall(c.B, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, sides := range [][2]any{{ea, c.B}, {c.A, *eb}} {
					d, err := Diff(sides[0], sides[1])
					if err != nil {
						t.Fatal(err)
					}
					sameJSON(t, d, c.Expect)
				}
			case "nearest", "nearest-calls":
				// nearest-calls: the calls as Go values (what a JSON decoder gives), the rest as text.
				value := func(s string) any {
					var v any
					if c.Op == "nearest" || json.Unmarshal([]byte(s), &v) != nil {
						return s
					}
					return v
				}
				rec := make([]any, len(c.Recording))
				for i, r := range c.Recording {
					rec[i] = value(r)
				}
				m, err := Nearest(value(c.Line), rec)
				if err != nil {
					t.Fatal(err)
				}
				var want *struct {
					Index int
					Diff  json.RawMessage
				}
				json.Unmarshal(c.Expect, &want)
				if (m == nil) != (want == nil) || m != nil && m.Index != want.Index {
					t.Fatalf("nearest %+v; want %s", m, c.Expect)
				}
				if m != nil {
					sameJSON(t, m.Diff, want.Diff)
				}
			}
		})
	}
}
