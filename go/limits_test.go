package fingerprint

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// vectors/limits.vectors.json: each way in, with the call's own limits and configured ones.
func TestLimitsVectors(t *testing.T) {
	var file struct {
		CallPrefix string
		Cases      []struct {
			ID, Args                                 string
			Limits                                   *Limits
			ArgsText, ArgsValue, CallText, CallValue json.RawMessage
		}
	}
	readVectors(t, "limits.vectors.json", &file)
	for _, c := range file.Cases {
		l := c.Limits
		t.Run(c.ID, func(t *testing.T) {
			var value any
			if err := json.Unmarshal([]byte(c.Args), &value); err != nil {
				t.Fatal(err)
			}
			line := file.CallPrefix + c.Args + "}"
			var call any
			json.Unmarshal([]byte(line), &call)
			for _, configured := range []bool{false, true} {
				o, co := &Options{Limits: l}, &CallOptions{Limits: l}
				if configured {
					Configure(Settings{Limits: l})
					o, co = nil, nil
				}
				check := func(what string, err error, want json.RawMessage) {
					t.Helper()
					var w *struct {
						Code, Message string
						Offset        *int
					}
					json.Unmarshal(want, &w)
					var fe *FingerprintError
					if w == nil {
						if err != nil {
							t.Errorf("%s (configured %v): %v", what, configured, err)
						}
						return
					}
					off := -1
					if w.Offset != nil {
						off = *w.Offset
					}
					if !errors.As(err, &fe) || fe.Code != w.Code || fe.Message != w.Message || fe.Offset != off {
						t.Errorf("%s (configured %v): %#v; want %s", what, configured, err, want)
					}
				}
				_, err := FingerprintJSON("t", c.Args, o)
				check("FingerprintJSON", err, c.ArgsText)
				_, err = Fingerprint("t", value, o)
				check("Fingerprint", err, c.ArgsValue)
				_, err = ExplainCall(line, co)
				check("ExplainCall(text)", err, c.CallText)
				_, err = ExplainCall(call, co)
				check("ExplainCall(value)", err, c.CallValue)
				Configure(Settings{Limits: &Limits{Limit(NoLimit), Limit(NoLimit), Limit(NoLimit)}})
			}
		})
	}
}

// JSON text inside a value (json.RawMessage, a struct's JSON) is as deep as
// where it sits: maxDepth counts the containers around it too.
func TestDepthLimitCountsAroundRawJSON(t *testing.T) {
	l := &Limits{MaxDepth: Limit(3)}
	within := map[string]any{"a": json.RawMessage(`[1]`)}
	over := map[string]any{"a": map[string]any{"b": json.RawMessage(`[[1]]`)}}
	if _, err := Fingerprint("t", within, &Options{Limits: l}); err != nil {
		t.Errorf("within: %v", err)
	}
	_, err := Fingerprint("t", over, &Options{Limits: l})
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.Code != "limit-exceeded" {
		t.Errorf("over: %v", err)
	}
}

// The byte limit is one input's (a call, a recorded line), never a recording's
// whole text: a recording longer than it loads every line.
func TestByteLimitIsPerRecordedLine(t *testing.T) {
	Configure(Settings{Limits: &Limits{MaxInputBytes: Limit(200)}})
	defer Configure(Settings{Limits: &Limits{MaxInputBytes: Limit(NoLimit)}})
	text := strings.Repeat(`{"name":"search","args":{"q":"a fairly long query text"}}`+"\n", 10)
	rec, err := LoadRecording(context.Background(), strings.NewReader(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	if rec.Len() != 10 || len(rec.BadLines) != 0 {
		t.Errorf("calls %d, bad lines %v; want 10 calls, none bad", rec.Len(), rec.BadLines)
	}
}
