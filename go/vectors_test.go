package fingerprint

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The shared vectors (vectors/, expected values from the independent
// oracle in test/reference/), as the TypeScript and Python suites run them.

func readVectors(t testing.TB, name string, into any) {
	t.Helper()
	b, err := os.ReadFile("../vectors/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

// A lone surrogate escape: Go strings cannot hold one (its decoder makes it U+FFFD).
var loneSurrogate = regexp.MustCompile(`(?i)(^|[^\\])(\\\\)*\\ud[89a-f]`)

// decodeTagged: vectors-decode.mjs's tags as Go values ({"$ov": ...}); ok false for undefined.
func decodeTagged(v any) (any, bool) {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			d, ok := decodeTagged(e)
			if !ok {
				return nil, false
			}
			out[i] = d
		}
		return out, true
	case map[string]any:
		if tag, ok := x["$ov"]; ok {
			switch tag {
			case "NaN":
				return math.NaN(), true
			case "Infinity":
				return math.Inf(1), true
			case "-Infinity":
				return math.Inf(-1), true
			case "-0":
				return math.Copysign(0, -1), true
			case "date":
				t, err := time.Parse(time.RFC3339Nano, x["iso"].(string))
				return t, err == nil
			case "object":
				out := map[string]any{}
				for _, e := range x["entries"].([]any) {
					kv := e.([]any)
					d, ok := decodeTagged(kv[1])
					if !ok {
						return nil, false
					}
					out[kv[0].(string)] = d
				}
				return out, true
			}
			return nil, false
		}
		out := map[string]any{}
		for k, e := range x {
			d, ok := decodeTagged(e)
			if !ok {
				return nil, false
			}
			out[k] = d
		}
		return out, true
	}
	return v, true
}

// withNumbers: the same value as a decoder with UseNumber gives it (json.Number for every number).
func withNumbers(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil // NaN and other values JSON cannot hold
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

type fpVector struct {
	ID, Decision, Name string
	Kind               *string
	MatchOn            *[]string
	IgnoreArgs         *[]string
	ArgsJSON           *string
	ArgsBytesHex       *string
	Args               json.RawMessage
	Canonical          string
	Fingerprint        string
	Error              bool
}

func TestFingerprintVectors(t *testing.T) {
	var file struct {
		FINGERPRINT_VERSION int
		Vectors             []json.RawMessage
	}
	readVectors(t, "fingerprint.vectors.json", &file)
	if file.FINGERPRINT_VERSION != FingerprintVersion || len(file.Vectors) < 200 {
		t.Fatalf("vectors file: version %d, %d vectors", file.FINGERPRINT_VERSION, len(file.Vectors))
	}
	skipped := 0
	for _, raw := range file.Vectors {
		var v fpVector
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if loneSurrogate.Match(raw) {
			skipped++
			continue
		}
		t.Run(v.ID, func(t *testing.T) {
			o := &Options{}
			if v.Kind != nil {
				o.Kind = *v.Kind
			}
			if v.MatchOn != nil {
				o.MatchOn = *v.MatchOn
				if o.MatchOn == nil {
					o.MatchOn = nil
				}
			}
			if v.IgnoreArgs != nil {
				o.IgnoreArgs = *v.IgnoreArgs
			}
			selects := o.MatchOn != nil || o.IgnoreArgs != nil
			if v.Kind != nil && *v.Kind == "" {
				t.Skip("an empty kind is the default in Go (the zero value)")
			}
			var text []byte
			if v.ArgsBytesHex != nil {
				text, _ = hex.DecodeString(*v.ArgsBytesHex)
			} else if v.ArgsJSON != nil {
				text = []byte(*v.ArgsJSON)
			}
			hasText := v.ArgsBytesHex != nil || v.ArgsJSON != nil
			var values []any
			if v.Args != nil {
				var a any
				if err := json.Unmarshal(v.Args, &a); err != nil {
					t.Fatal(err)
				}
				if d, ok := decodeTagged(a); ok {
					values = append(values, d)
					if n := withNumbers(t, d); n != nil && !bytes.Contains(v.Args, []byte(`"date"`)) {
						values = append(values, n)
					}
				}
			}
			check := func(what string, got string, err error, want string) {
				t.Helper()
				if v.Error {
					var fe *FingerprintError
					if !errors.As(err, &fe) {
						t.Errorf("%s: want a FingerprintError, got %q, %v", what, got, err)
					}
					return
				}
				if err != nil || got != want {
					t.Errorf("%s: got %q, %v; want %q", what, got, err, want)
				}
			}
			if hasText {
				if v.ArgsBytesHex == nil {
					got, err := FingerprintJSON(v.Name, string(text), o)
					check("FingerprintJSON(string)", got, err, v.Fingerprint)
				} else {
					got, err := FingerprintJSON(v.Name, text, o)
					check("FingerprintJSON", got, err, v.Fingerprint)
				}
				if !selects && !v.Error {
					got, err := CanonicalizeJSON(text)
					check("CanonicalizeJSON", got, err, v.Canonical)
				}
			}
			for _, val := range values {
				got, err := Fingerprint(v.Name, val, o)
				check("Fingerprint", got, err, v.Fingerprint)
				if !selects && !v.Error {
					got, err := CanonicalJSON(val)
					check("CanonicalJSON", got, err, v.Canonical)
				}
			}
		})
	}
	if skipped > 40 {
		t.Errorf("%d vectors skipped for lone surrogates", skipped)
	}
}

// Every text of the reject corpus is an error (never a crash, never a digest).
func TestRejectCorpus(t *testing.T) {
	f, err := os.Open("../vectors/reject.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<24)
	n := 0
	for s.Scan() {
		var c struct{ ID, Hex, Why string }
		if err := json.Unmarshal(s.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		b, _ := hex.DecodeString(c.Hex)
		got, err := FingerprintJSON("t", b, nil)
		var fe *FingerprintError
		if !errors.As(err, &fe) || fe.Code == "internal-error" || !strings.Contains(fe.Message, "") {
			t.Errorf("%s (%s): got %q, %v", c.ID, c.Why, got, err)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d reject cases", n)
	}
}
