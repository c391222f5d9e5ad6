package fingerprint

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// vectors/errors.vectors.json: the code, message, offset and path of every
// error the core words, through the Go entry points (cases with an SDK's own
// words, host markers, or inputs Go has no spelling for are the other SDKs').
func TestErrorVectors(t *testing.T) {
	var file struct {
		Cases []struct {
			ID, Op string
			Input  struct {
				Name, Text, Recording any
				Bytes                 []byte
				Args, Call            any
				Options               json.RawMessage
				Index                 int
			}
			Expect struct {
				Code, Message string
				Offset        *int
				Path          *string
			}
			TS, PY json.RawMessage
		}
	}
	readVectors(t, "errors.vectors.json", &file)
	str := func(x any) string { s, _ := x.(string); return s }
	for _, c := range file.Cases {
		name, _ := c.Input.Name.(string)
		raw, _ := json.Marshal(c.Input)
		var o struct {
			Kind                *string
			MatchOn, IgnoreArgs []string
			Tools               any
			Limits              *Limits
		}
		if c.TS != nil || c.PY != nil || strings.Contains(string(raw), "$host") || strings.ContainsRune(string(raw), '\uFFFD') ||
			json.Unmarshal(c.Input.Options, &o) != nil && c.Input.Options != nil || name == "" && c.Input.Name != nil && c.Input.Name != "" || o.Kind != nil && *o.Kind == "" {
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			opts := &Options{MatchOn: o.MatchOn, IgnoreArgs: o.IgnoreArgs, Limits: o.Limits}
			if o.Kind != nil {
				opts.Kind = *o.Kind
			}
			text := any(str(c.Input.Text))
			if c.Input.Bytes != nil {
				text = c.Input.Bytes
			}
			co := &CallOptions{Tools: o.Tools, Limits: o.Limits}
			var err error
			switch c.Op {
			case "fingerprintJSON", "canonicalizeJSON", "explainJSON":
				if b, ok := text.([]byte); ok {
					_, err = map[string]func() (any, error){
						"fingerprintJSON":  func() (any, error) { return FingerprintJSON(name, b, opts) },
						"canonicalizeJSON": func() (any, error) { return CanonicalizeJSON(b) },
						"explainJSON":      func() (any, error) { return ExplainJSON(name, b, opts) },
					}[c.Op]()
				} else {
					s := text.(string)
					_, err = map[string]func() (any, error){
						"fingerprintJSON":  func() (any, error) { return FingerprintJSON(name, s, opts) },
						"canonicalizeJSON": func() (any, error) { return CanonicalizeJSON(s) },
						"explainJSON":      func() (any, error) { return ExplainJSON(name, s, opts) },
					}[c.Op]()
				}
			case "fingerprint":
				_, err = Fingerprint(name, c.Input.Args, opts)
			case "explain":
				_, err = Explain(name, c.Input.Args, opts)
			case "fingerprintCall":
				_, err = FingerprintCall(c.Input.Call, co)
			case "explainCall":
				_, err = ExplainCall(c.Input.Call, co)
			case "Recording.load", "Recording.answer":
				src := str(c.Input.Recording) + str(c.Input.Text) + string(c.Input.Bytes)
				var rec *Recording
				if rec, err = LoadRecording(context.Background(), strings.NewReader(src), nil); err == nil {
					defer rec.Close()
					if c.Op == "Recording.load" && len(rec.BadLines) > 0 {
						err = rec.BadLines[0].Err
					} else if c.Op == "Recording.answer" {
						_, err = rec.Answer(c.Input.Call, c.Input.Index)
					}
				}
			default:
				t.Skip("no Go entry point")
			}
			var fe *FingerprintError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v; want %s %q", err, c.Expect.Code, c.Expect.Message)
			}
			off, path := -1, ""
			if c.Expect.Offset != nil {
				off = *c.Expect.Offset
			}
			if c.Expect.Path != nil {
				path = *c.Expect.Path
			}
			if fe.Code != c.Expect.Code || fe.Message != c.Expect.Message || fe.Offset != off || fe.Path != path {
				t.Errorf("got %s %q offset %d path %q; want %s %q offset %d path %q",
					fe.Code, fe.Message, fe.Offset, fe.Path, c.Expect.Code, c.Expect.Message, off, path)
			}
		})
	}
}

// Errors the Go host raises are worded by the core (its word export), as the other SDKs' are.
func TestHostErrorsWordedByCore(t *testing.T) {
	m := map[string]any{}
	m["self"] = []any{m}
	_, err1 := Fingerprint("t", m, nil)
	_, err2 := FingerprintBatchJSON(context.Background(), []string{"a"}, []string{}, nil)
	for i, c := range []struct {
		err             error
		code, msg, path string
	}{
		{err1, "circular-value", "circular reference at args.self[0]", "args.self[0]"},
		{err2, "invalid-argument", "names and argsJSON have different lengths", ""},
	} {
		var fe *FingerprintError
		if !errors.As(c.err, &fe) || fe.Code != c.code || fe.Message != c.msg || fe.Path != c.path {
			t.Errorf("%d: %#v; want %s %q at %q", i, c.err, c.code, c.msg, c.path)
		}
	}
}
