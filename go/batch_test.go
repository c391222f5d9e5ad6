package fingerprint

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Batches give what one call at a time gives (expected values from the vectors' oracle).
func TestBatchVectors(t *testing.T) {
	var file struct{ Vectors []fpVector }
	readVectors(t, "fingerprint.vectors.json", &file)
	var names, texts, want []string
	for _, v := range file.Vectors {
		if v.ArgsJSON != nil && !v.Error && v.Kind == nil && v.MatchOn == nil && v.IgnoreArgs == nil && !strings.ContainsRune(*v.ArgsJSON+v.Name, 0xFFFD) {
			names, texts, want = append(names, v.Name), append(texts, *v.ArgsJSON), append(want, v.Fingerprint)
		}
	}
	// Enough items for several chunks.
	for len(names) < 10_000 {
		names, texts, want = append(names, names...), append(texts, texts...), append(want, want...)
	}
	got, err := FingerprintBatchJSON(context.Background(), names, texts, nil)
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%d of %d digests, %v", len(got), len(want), err)
	}
	// The first bad item stops the batch, named by the core.
	texts[7000] = "{bad"
	_, err = FingerprintBatchJSON(context.Background(), names, texts, nil)
	var fe *FingerprintError
	if !errors.As(err, &fe) || fe.Index != 7000 || !strings.HasPrefix(fe.Message, "item 7000: ") {
		t.Errorf("bad item: %#v", err)
	}
}

func TestBatchCalls(t *testing.T) {
	var file struct{ Cases []shapeCase }
	readVectors(t, "call-shapes.vectors.json", &file)
	var calls []any
	var want []string
	for _, c := range file.Cases {
		if c.Op == "explain" {
			var e struct{ Fingerprint string }
			json.Unmarshal(c.Expect, &e)
			var value any
			json.Unmarshal([]byte(c.Call), &value)
			calls, want = append(calls, c.Call, value, []byte(c.Call)), append(want, e.Fingerprint, e.Fingerprint, e.Fingerprint)
		}
	}
	got, err := FingerprintBatch(context.Background(), calls, nil)
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%d of %d, %v", len(got), len(want), err)
	}
	_, err = FingerprintBatch(context.Background(), []any{calls[0], map[string]any{"name": "t", "args": []any{make(chan int)}}}, nil)
	var fe *FingerprintError
	// Named from the call, as ExplainCall names it (D15): args[0], not args.args[0].
	if !errors.As(err, &fe) || fe.Index != 1 || fe.Code != "unsupported-value" || fe.Path != "args[0]" ||
		!strings.HasPrefix(fe.Message, "item 1: cannot fingerprint") {
		t.Errorf("a bad value: %#v", err)
	}
	// The first bad item in order: the core's (a cut line) before a later one the host found (before: the host's).
	_, err = FingerprintBatch(context.Background(), []any{`{"name":"x"`, map[string]any{"name": "t", "args": []any{make(chan int)}}}, nil)
	if !errors.As(err, &fe) || fe.Index != 0 || fe.Message != "item 0: invalid JSON: the text ends inside a value at byte 11" {
		t.Errorf("first bad item: %#v", err)
	}
	got, err = FingerprintBatchJSON(context.Background(), []string{"a", "b"}, [][]byte{[]byte(`{"x":1,"y":2}`), []byte(`{"y":3}`)},
		&Options{Kind: "k", MatchOn: []string{"y"}})
	a, _ := FingerprintJSON("a", `{"x":1,"y":2}`, &Options{Kind: "k", MatchOn: []string{"y"}})
	b, _ := FingerprintJSON("b", `{"y":3}`, &Options{Kind: "k", MatchOn: []string{"y"}})
	if err != nil || len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("options: %v, %v; want %s %s", got, err, a, b)
	}
}
