package fingerprint

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

type key string

type ticket struct {
	Title    string    `json:"title"`
	Priority int       `json:"priority,omitempty"`
	Labels   []string  `json:"labels"`
	When     time.Time `json:"when"`
}

type inner struct{ A int }

type outer struct {
	inner
	B string
	c int
}

type money struct{ Cents int }

func (m money) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`{"amount":"%d.%02d"}`, m.Cents/100, m.Cents%100)), nil
}

type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`{"n":%d,"by":"pointer"}`, p.N)), nil
}

type color int

func (c color) MarshalText() ([]byte, error) { return []byte([]string{"red", "green", "blue"}[c]), nil }

var (
	seven  = 7
	pSeven = &seven
	when   = time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
)

// The Go value of each case of vectors/go-values.vectors.json (its "go" member says the same).
var goValues = map[string]any{
	"typed-map-int":                  map[string]int{"b": 2, "a": 1},
	"typed-map-named-string-keys":    map[key]float32{"x": 0.1},
	"int64-nearest-double":           map[string]int64{"n": 1<<53 + 1},
	"uint64-max":                     []uint64{math.MaxUint64},
	"int8-negative":                  []int8{-128, 127},
	"float32-widened":                []float32{0.1, 1e30},
	"float-nan-inf-null":             map[string]any{"a": math.NaN(), "b": []float64{1, math.Inf(1)}},
	"negative-zero":                  []any{math.Copysign(0, -1)},
	"array-fixed":                    [3]string{" a ", "b", ""},
	"slice-of-maps":                  []map[string]bool{{"t": true}, {"f": false}},
	"pointers-followed":              map[string]*int{"p": &seven, "nil": nil},
	"pointer-to-pointer":             &pSeven,
	"interface-nil":                  []any{nil, (*int)(nil), []any(nil), map[string]any(nil)},
	"nil-top-level":                  nil,
	"json-number":                    map[string]any{"a": json.Number("1.0"), "b": json.Number("1E2"), "c": json.Number("-0")},
	"json-number-overflow":           []any{json.Number("1e400"), json.Number("1e-400")},
	"json-number-big-integer":        []json.Number{"9007199254740993"},
	"raw-message":                    map[string]any{"r": json.RawMessage(`{"b": 1e2, "a": [1.0, " x "], "a": [2]}`)},
	"raw-message-top":                json.RawMessage(`[NaN, {"k": null}]`),
	"raw-message-surrogates":         json.RawMessage(`"\ud83d\ude00 \udc00"`),
	"time-utc":                       time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC),
	"time-zone-to-utc":               map[string]time.Time{"t": time.Date(2024, 1, 1, 1, 0, 0, 999999999, time.FixedZone("", 3600))},
	"time-before-1970":               []time.Time{time.Date(1969, 12, 31, 23, 59, 59, 1500000, time.UTC)},
	"time-pointer":                   []*time.Time{&when},
	"struct-tags-omitempty":          ticket{Title: " Login 500 ", Priority: 0, Labels: nil, When: when},
	"struct-embedded-and-unexported": outer{inner: inner{A: 1}, B: "b", c: 3},
	"struct-pointer":                 &ticket{Title: "t", Priority: 2, Labels: []string{"x"}, When: when},
	"marshal-json-value":             map[string]any{"m": money{Cents: 1050}},
	"marshal-json-pointer-receiver":  []any{&ptrMarshaler{N: 2}},
	"marshal-text":                   map[string]any{"c": color(2)},
	"map-int-keys":                   map[int]string{10: "x", 2: "y"},
	"selection-typed-map":            map[string]string{"q": " cats ", "page": "2", "trace": "t-1"},
	"selection-struct":               ticket{Title: "a", Priority: 1, When: when},
}

func TestGoValueVectors(t *testing.T) {
	var file struct {
		Cases []struct {
			ID, Canonical, Fingerprint string
			MatchOn, IgnoreArgs        []string
		}
	}
	readVectors(t, "go-values.vectors.json", &file)
	seen := map[string]bool{}
	for _, c := range file.Cases {
		seen[c.ID] = true
		t.Run(c.ID, func(t *testing.T) {
			v, ok := goValues[c.ID]
			if !ok {
				t.Fatalf("no Go value for %s", c.ID)
			}
			o := &Options{MatchOn: c.MatchOn, IgnoreArgs: c.IgnoreArgs}
			if got, err := Fingerprint("go_tool", v, o); err != nil || got != c.Fingerprint {
				t.Errorf("Fingerprint: %q, %v; want %q", got, err, c.Fingerprint)
			}
			if o.MatchOn == nil && o.IgnoreArgs == nil {
				if got, err := CanonicalJSON(v); err != nil || got != c.Canonical {
					t.Errorf("CanonicalJSON: %q, %v; want %q", got, err, c.Canonical)
				}
			}
		})
	}
	for id := range goValues {
		if !seen[id] {
			t.Errorf("%s is not in vectors/go-values.vectors.json (node scripts/gen-go-vectors.mjs)", id)
		}
	}
}

// D20's errors: code and the path of the offending value.
func TestGoValueErrors(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = []any{cyclic}
	list := []any{1, nil}
	list[1] = list
	type node struct{ Next *node }
	loop := &node{}
	loop.Next = loop
	cases := []struct {
		name       string
		value      any
		code, path string
	}{
		{"invalid-utf8", map[string]any{"s": "a\xffb"}, "invalid-utf8", "args.s"},
		{"invalid-utf8-key", map[string]any{"k\xff": 1}, "invalid-utf8", "args[\"k\uFFFD\"]"},
		{"invalid-utf8-in-struct", []any{ticket{Title: "\xff"}}, "invalid-utf8", "args[0]"},
		{"bytes", map[string]any{"items": []any{1, map[string]any{"b": []byte("x")}}}, "unsupported-value", "args.items[1].b"},
		{"chan", map[string]any{"c": make(chan int)}, "unsupported-value", "args.c"},
		{"func", []any{func() {}}, "unsupported-value", "args[0]"},
		{"complex", map[string]any{"z": complex(1, 2)}, "unsupported-value", "args.z"},
		{"chan-in-struct", struct{ C chan int }{make(chan int)}, "unsupported-value", "args"},
		{"json-number-not-a-number", []any{json.Number("abc")}, "unsupported-value", "args[0]"},
		{"json-number-with-spaces", []any{json.Number(" 1")}, "unsupported-value", "args[0]"}, // not a number literal: never read as 0
		{"cycle-map", cyclic, "circular-value", "args.self[0]"},
		{"cycle-slice", list, "circular-value", "args[1]"},
		{"cycle-struct", loop, "unsupported-value", "args"},
		{"key-with-space", map[string]any{"a b": []any{make(chan int)}}, "unsupported-value", `args["a b"][0]`},
		// Quoted as JSON.stringify quotes (D15, the core writes every host's paths): short escapes, \u00xx.
		{"key-with-controls", map[string]any{"a\nb\x01\"": make(chan int)}, "unsupported-value", `args["a\nb\u0001\""]`},
		{"key-identifier", map[string]any{"$_x9": map[string]any{"9x": make(chan int)}}, "unsupported-value", `args.$_x9["9x"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Fingerprint("t", c.value, nil)
			var fe *FingerprintError
			if !errors.As(err, &fe) || fe.Code != c.code || fe.Path != c.path || !strings.Contains(fe.Message, c.path) {
				t.Errorf("got %#v; want code %s at %s", err, c.code, c.path)
			}
		})
	}
}

// A refused value is named by its Go type; the words around it are the core's.
func TestUnsupportedNamesItsType(t *testing.T) {
	for _, c := range []struct {
		value any
		want  string
	}{
		{map[string]any{"c": make(chan int)}, "cannot fingerprint a value of type chan int at args.c"},
		{map[string]any{"b": []byte("x")}, "cannot fingerprint a value of type []byte at args.b"},
		{[]any{complex(1, 2)}, "cannot fingerprint a value of type complex128 at args[0]"},
		{[]any{ticket{Title: "\xff"}}, "cannot fingerprint a string that is not valid UTF-8 in a value of type fingerprint.ticket at args[0]"},
	} {
		_, err := Fingerprint("t", c.value, nil)
		var fe *FingerprintError
		if !errors.As(err, &fe) || fe.Message != c.want {
			t.Errorf("got %v; want %q", err, c.want)
		}
	}
}

// A value dropped by selection is never read (D9): an unsupported one there is no error.
func TestSelectionNeverReadsDropped(t *testing.T) {
	args := map[string]any{"q": " cats ", "debug": make(chan int), "raw": []byte("x")}
	want, _ := FingerprintJSON("t", `{"q":"cats"}`, nil)
	for _, o := range []*Options{{MatchOn: []string{"q"}}, {IgnoreArgs: []string{"debug", "raw"}}} {
		if got, err := Fingerprint("t", args, o); err != nil || got != want {
			t.Errorf("%+v: %q, %v; want %q", o, got, err, want)
		}
	}
	if _, err := Fingerprint("t", args, &Options{MatchOn: []string{"q", "raw"}}); err == nil {
		t.Error("a kept []byte must be an error")
	}
	e, err := Explain("t", args, &Options{MatchOn: []string{"q", "missing"}})
	if err != nil || e.Fingerprint != want || strings.Join(e.Selected.Dropped, ",") != "debug,raw" || e.Selected.Missing[0] != "missing" {
		t.Errorf("Explain: %+v, %v", e, err)
	}
}

// A value refused in a whole call is named from the call (D15), in every operation that reads one.
func TestWholeCallPathsStartAtTheCall(t *testing.T) {
	bad := map[string]any{"name": "b", "args": map[string]any{"x": []any{1, make(chan int)}}}
	_, e1 := ExplainCall(bad, nil)
	_, e2 := FingerprintCall(bad, nil)
	_, e3 := Diff(bad, map[string]any{"name": "b"})
	_, e4 := Fingerprint("b", bad["args"], nil)
	_, e5 := ExplainCall(map[string]any{"name": "b", "x": make(chan int)}, nil)
	for i, c := range []struct {
		err  error
		path string
	}{{e1, "args.x[1]"}, {e2, "args.x[1]"}, {e3, "args.x[1]"}, {e4, "args.x[1]"}, {e5, "x"}} {
		var fe *FingerprintError
		if !errors.As(c.err, &fe) || fe.Path != c.path || !strings.HasSuffix(fe.Message, "at "+c.path) {
			t.Errorf("%d: %v, want the path %s", i, c.err, c.path)
		}
	}
}

// Explain's "dropped" names the members selection leaves out that hold a value, as the other SDKs
// do: a member holding null (nil, a nil pointer, map or slice) is not named, and none is read.
func TestExplainDroppedNamesMembersHoldingAValue(t *testing.T) {
	var np *int
	args := map[string]any{"a": nil, "b": 1, "d": map[string]any{"x": make(chan int)}, "e": np, "f": []any(nil), "g": struct{}{}}
	e, err := Explain("t", args, &Options{MatchOn: []string{"b"}})
	if err != nil || strings.Join(e.Selected.Dropped, ",") != "d,g" || strings.Join(e.Selected.Kept, ",") != "b" {
		t.Fatalf("%+v %v", e, err)
	}
}
