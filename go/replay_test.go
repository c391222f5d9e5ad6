package fingerprint

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// vectors/replay.vectors.json: recordings, live calls, answers, bad lines, unused calls.
func TestReplayVectors(t *testing.T) {
	var file struct {
		Cases []struct {
			ID, Op          string
			Recording       *string
			RecordingBase64 *string
			Tools           json.RawMessage
			Calls           []string
			Expect          json.RawMessage
		}
	}
	readVectors(t, "replay.vectors.json", &file)
	for _, c := range file.Cases {
		t.Run(c.ID, func(t *testing.T) {
			var opts *CallOptions
			if len(c.Tools) > 0 && string(c.Tools) != "null" {
				opts = &CallOptions{Tools: []byte(c.Tools)}
			}
			var data []byte
			if c.RecordingBase64 != nil {
				data, _ = base64.StdEncoding.DecodeString(*c.RecordingBase64)
			} else if c.Recording != nil {
				data = []byte(*c.Recording)
			}
			switch c.Op {
			case "tools-error":
				_, err := LoadRecording(context.Background(), strings.NewReader(""), opts)
				errorMatches(t, err, c.Expect, false)
				return
			case "conflict":
				rec, err := LoadRecording(context.Background(), strings.NewReader(""), opts)
				if err != nil {
					t.Fatal(err)
				}
				defer rec.Close()
				_, err = rec.Answer(c.Calls[0], 0)
				errorMatches(t, err, c.Expect, false)
				if a, err := rec.Answer(map[string]any{"name": "other"}, 0); err != nil || a.Hit {
					t.Errorf("after the error: %+v, %v", a, err)
				}
				return
			}
			// Whole, and 7 bytes a read.
			for _, r := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data))} {
				rec, err := LoadRecording(context.Background(), r, opts)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]any{"lines": rec.Lines(), "calls": rec.Len()}
				bad := []int{}
				for _, b := range rec.BadLines {
					bad = append(bad, b.Line)
				}
				got["bad"] = bad
				answers := []any{}
				lines := strings.Split(string(data), "\n")
				for _, call := range c.Calls {
					a, err := rec.Answer(call, 0)
					if err != nil {
						t.Fatal(err)
					}
					m := map[string]any{"name": a.Name, "kind": a.Kind, "fingerprint": a.Fingerprint, "hit": a.Hit}
					if a.Hit {
						m["recordedLine"], m["recordedCall"] = a.RecordedLine, a.RecordedCall
						checkLine(t, lines, a.RecordedLine, a.Text)
					} else {
						m["recordedLine"], m["why"], m["recorded"], m["asked"], m["changes"] = nil, a.Why, a.Recorded, a.Asked, a.Changes
						m["nearest"] = nil
						if a.Nearest != nil {
							m["nearest"] = map[string]int{"line": a.Nearest.Line, "call": a.Nearest.Call}
							checkLine(t, lines, a.Nearest.Line, a.Nearest.Text)
						}
					}
					answers = append(answers, m)
				}
				got["answers"] = answers
				unused, err := rec.Unused()
				if err != nil {
					t.Fatal(err)
				}
				us := []any{}
				for _, u := range unused {
					us = append(us, map[string]any{"line": u.Line, "call": u.Call, "name": u.Name, "fingerprint": u.Fingerprint})
					checkLine(t, lines, u.Line, u.Text)
				}
				got["unused"] = us
				sameJSON(t, got, c.Expect)
				rec.Close()
			}
		})
	}
}

// checkLine: the answer's text is the recorded line (a trailing "\r" and a leading BOM dropped).
func checkLine(t *testing.T, lines []string, n int, text string) {
	t.Helper()
	want := strings.TrimPrefix(strings.TrimSuffix(lines[n-1], "\r"), "\uFEFF")
	if text != want && strings.ToValidUTF8(want, "\uFFFD") == want {
		t.Errorf("line %d: text %q; want %q", n, text, want)
	}
}

var _ = errors.New
