package fingerprint

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/overturn/fingerprint/go/internal/abi"
)

// The records are declared once (interface/records.json) and generated
// (records_gen.go). Each record the core writes must fill its struct: no
// member the struct lacks (encoding/json would drop it silently), and every
// member it names unless omitempty or only one variant's (partial: a union's
// struct, ReplayAnswer). The oracle is the core's own answer.
func checkRecord(t *testing.T, raw []byte, v any, partial bool, extra ...string) {
	t.Helper()
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	typ := reflect.TypeOf(v).Elem()
	want := map[string]bool{}
	for _, e := range extra {
		want[e] = true
	}
	for _, f := range reflect.VisibleFields(typ) {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous || name == "" || name == "-" {
			continue
		}
		want[name] = true
		if _, ok := members[name]; !ok && opts != "omitempty" && !partial {
			t.Errorf("%s: the core wrote no %q: %s", typ.Name(), name, raw)
		}
	}
	for k := range members {
		if !want[k] {
			t.Errorf("%s: the core wrote %q, which the struct lacks: %s", typ.Name(), k, raw)
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Errorf("%s: %v", typ.Name(), err)
	}
}

func TestRecordsFillTheirStructs(t *testing.T) {
	e, err := explain[json.RawMessage](map[string]any{"name": "t", "args": map[string]any{"a": 1, "b": 2}},
		&CallOptions{Tools: `{"t":{"ignoreArgs":["b"]}}`}, abi.RQ_EXPLAIN, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkRecord(t, e, &Explanation{}, false)
	var x struct{ Selected json.RawMessage }
	_ = json.Unmarshal(e, &x)
	checkRecord(t, x.Selected, &Selection{}, false)

	var d []byte
	err = engineModule.with(func(in *instance) (err error) {
		r, err := compare(in, abi.D_DIFF, `{"name":"t","args":{"p":"P0"}}`, `{"name":"t","args":{"p":"P1","q":1}}`)
		if err == nil {
			d = r.text
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkRecord(t, d, &DiffResult{}, false)
	var changes struct{ Changes []json.RawMessage }
	_ = json.Unmarshal(d, &changes)
	for _, c := range changes.Changes {
		checkRecord(t, c, &Change{}, false)
	}

	rec, err := LoadRecording(context.Background(), strings.NewReader("{\"name\":\"t\",\"args\":{\"p\":1}}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	ask := func(op uint32, call any) []byte {
		var out json.RawMessage
		if err := rec.op(context.Background(), op, 0, 0, call, &out); err != nil {
			t.Fatal(err)
		}
		record, _, _ := bytes.Cut(out, []byte{'\n'})
		return record
	}
	// Go's ReplayAnswer leaves out a hit's "line" and "call" (RecordedLine and RecordedCall hold them) and
	// reads its "text" beside the struct (a line the core left out is the one the recording holds).
	checkRecord(t, ask(abi.R_ANSWER, callArg(`{"name":"t","args":{"p":1}}`)), &ReplayAnswer{}, true, "line", "call", "text")
	miss := ask(abi.R_ANSWER, callArg(`{"name":"t","args":{"p":2}}`))
	checkRecord(t, miss, &ReplayAnswer{}, true)
	var near struct{ Nearest json.RawMessage }
	_ = json.Unmarshal(miss, &near)
	checkRecord(t, near.Nearest, &RecordedCall{}, false)

	rec2, err := LoadRecording(context.Background(), strings.NewReader("{\"name\":\"u\",\"args\":{}}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec2.Close()
	var unused []json.RawMessage
	if err := rec2.op(context.Background(), abi.R_UNUSED, 0, 0, textArg{}, &unused); err != nil || len(unused) != 1 {
		t.Fatalf("%v %v", unused, err)
	}
	checkRecord(t, unused[0], &UnusedCall{}, false)

	rec3 := &Recording{in: rec2.in}
	var report json.RawMessage
	if err := rec3.op(context.Background(), abi.R_LOAD, abi.LOAD_LAST, 0, textArg{b: []byte("not json\n")}, &report); err != nil {
		t.Fatal(err)
	}
	checkRecord(t, report, &loadReport{}, false)
	var bad struct{ Bad []json.RawMessage }
	_ = json.Unmarshal(report, &bad)
	if len(bad.Bad) != 1 {
		t.Fatalf("one bad line: %s", report)
	}
	checkRecord(t, bad.Bad[0], &loadBadLine{}, false)
}
