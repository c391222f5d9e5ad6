// Package bench compares the Go host with the peers a Go user would pick:
// an RFC 8785 package (github.com/gowebpki/jcs) + crypto/sha256, and
// encoding/json + crypto/sha256 as the non-canonical floor (no trimming,
// no key sort of values, no D1-D8). A module of its own, so that the SDK's
// go.mod keeps wazero as its one dependency. Payloads: bench/payloads.mjs
// (run `node bench/payloads.mjs --write go/bench/testdata` first, as
// scripts/bench-go.sh does).
//
//	cd go/bench && go test -bench . -benchmem
package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/gowebpki/jcs"
	fingerprint "github.com/overturn/fingerprint/go"
)

var payloads = []string{"small", "medium", "large", "wide"}

func load(b *testing.B, name string) ([]byte, any) {
	text, err := os.ReadFile("testdata/" + name + ".json")
	if err != nil {
		b.Skip("no payloads: node bench/payloads.mjs --write go/bench/testdata")
	}
	var value any
	if err := json.Unmarshal(text, &value); err != nil {
		b.Fatal(err)
	}
	return text, value
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func BenchmarkFingerprint(b *testing.B) {
	for _, name := range payloads {
		text, value := load(b, name)
		b.Run(name+"/overturn-text", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := fingerprint.FingerprintJSON("search", text, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/overturn-value", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := fingerprint.Fingerprint("search", value, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/jcs+sha256", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c, err := jcs.Transform(text)
				if err != nil {
					b.Fatal(err)
				}
				digest(append([]byte("tool_call\nsearch\n"), c...))
			}
		})
		b.Run(name+"/encoding-json+sha256", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c, err := json.Marshal(value)
				if err != nil {
					b.Fatal(err)
				}
				digest(append([]byte("tool_call\nsearch\n"), c...))
			}
		})
	}
}

// The peers agree with the core where the contract and RFC 8785 agree (no
// spaces to trim, no nulls): a check that the benchmark compares like work.
func TestSamePreimageWithoutTrimming(t *testing.T) {
	text := []byte(`{"b":[1,2.5,"x"],"a":{"z":true,"y":"\u00e9"}}`)
	c, err := jcs.Transform(text)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fingerprint.FingerprintJSON("search", text, nil)
	if err != nil || got != digest(append([]byte("tool_call\nsearch\n"), c...)) || !bytes.Equal(c, []byte(`{"a":{"y":"é","z":true},"b":[1,2.5,"x"]}`)) {
		t.Errorf("%s %v %s", got, err, c)
	}
}
