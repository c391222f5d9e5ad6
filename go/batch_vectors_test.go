package fingerprint

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// vectors/batch.vectors.json: a batch gives what one call at a time gives, and
// its first bad item stops it with that item's index and message. (Go's batch
// stops at the first bad item: the items before it are checked; a batch holds
// one text form, so the case mixing strings and bytes runs as strings and as bytes.)
func TestBatchFileVectors(t *testing.T) {
	var file struct {
		Vectors []struct {
			ID    string
			Items [][2]json.RawMessage
			Fill  *struct {
				Count int
				Item  [2]string
			}
			Set     map[string][2]string
			Options struct {
				Kind                string
				MatchOn, IgnoreArgs []string
				Limits              *Limits
			}
			Want  json.RawMessage
			Error *struct {
				Index                        int
				MessageStarts, Code, Message string
			}
		}
	}
	readVectors(t, "batch.vectors.json", &file)
	for _, c := range file.Vectors {
		t.Run(c.ID, func(t *testing.T) {
			var names []string
			var texts [][]byte
			var want []*string
			mixed := false
			if c.Fill != nil {
				var w struct {
					Fill string
					Set  map[string]*string
				}
				json.Unmarshal(c.Want, &w)
				for i := 0; i < c.Fill.Count; i++ {
					it, d := c.Fill.Item, &w.Fill
					if s, ok := c.Set[strconv.Itoa(i)]; ok {
						it, d = s, w.Set[strconv.Itoa(i)]
					}
					names, texts, want = append(names, it[0]), append(texts, []byte(it[1])), append(want, d)
				}
			} else {
				json.Unmarshal(c.Want, &want)
				for _, it := range c.Items {
					var name, text string
					json.Unmarshal(it[0], &name)
					if json.Unmarshal(it[1], &text) != nil {
						var b struct {
							BytesHex string
							Number   *float64
						}
						json.Unmarshal(it[1], &b)
						if b.Number != nil {
							t.Skip("a text of the wrong type: Go's batch is typed")
						}
						raw, _ := hex.DecodeString(b.BytesHex)
						text, mixed = string(raw), true
					}
					names, texts = append(names, name), append(texts, []byte(text))
				}
			}
			o := &Options{Kind: c.Options.Kind, MatchOn: c.Options.MatchOn, IgnoreArgs: c.Options.IgnoreArgs, Limits: c.Options.Limits}
			got, err := FingerprintBatchJSON(context.Background(), names, texts, o)
			if mixed {
				return // one form per batch in Go: the per-item BOM rule is checked by the fingerprint vectors
			}
			stop := len(want)
			if c.Error != nil {
				stop = c.Error.Index
				var fe *FingerprintError
				if !errors.As(err, &fe) || fe.Index != c.Error.Index || !strings.HasPrefix(fe.Message, c.Error.MessageStarts) ||
					(c.Error.Code != "" && (fe.Code != c.Error.Code || fe.Message != c.Error.Message)) {
					t.Errorf("error %#v; want %+v", err, *c.Error)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < stop; i++ {
				if i >= len(got) || want[i] == nil || got[i] != *want[i] {
					t.Fatalf("item %d: got %d digests", i, len(got))
				}
			}
		})
	}
}

// vectors/dates.vectors.json's datetimes as time.Time: the core prints toISOString()'s text.
func TestDateVectors(t *testing.T) {
	var file struct {
		Datetimes []struct {
			Fields   [7]int
			OffsetUs *int
			Iso      string
		}
	}
	readVectors(t, "dates.vectors.json", &file)
	n := 0
	for _, d := range file.Datetimes {
		loc := time.UTC
		if d.OffsetUs != nil {
			if *d.OffsetUs%1_000_000 != 0 {
				continue // Go zones hold whole seconds
			}
			loc = time.FixedZone("", *d.OffsetUs/1_000_000)
		}
		f := d.Fields
		v := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], f[6]*1000, loc)
		if got, err := CanonicalJSON(v); err != nil || got != `"`+d.Iso+`"` {
			t.Errorf("%v: %s, %v; want %s", f, got, err, d.Iso)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d datetimes", n)
	}
}
