package fingerprint

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Bad arguments are FingerprintErrors with the core's codes, never a panic.
func TestBadArguments(t *testing.T) {
	cases := []struct {
		name string
		f    func() error
		code string
	}{
		{"empty name", func() error { _, err := Fingerprint("", 1, nil); return err }, "bad-name"},
		{"name not UTF-8", func() error { _, err := FingerprintJSON("a\xff", "1", nil); return err }, "invalid-utf8"},
		{"kind with a line feed", func() error { _, err := Fingerprint("t", 1, &Options{Kind: "a\nb"}); return err }, "bad-kind"},
		{"matchOn key not UTF-8", func() error { _, err := FingerprintJSON("t", "{}", &Options{MatchOn: []string{"\xff"}}); return err }, "invalid-utf8"},
		{"negative limit", func() error { return Configure(Settings{Limits: &Limits{MaxDepth: Limit(-5)}}) }, "invalid-argument"},
		{"a closed recording", func() error {
			rec, err := LoadRecording(context.Background(), strings.NewReader(`{"name":"t","args":{}}`), nil)
			if err != nil {
				return err
			}
			rec.Close()
			_, err = rec.Answer(`{"name":"t","args":{}}`, 0)
			return err
		}, "invalid-argument"},
		{"a cancelled load", func() error {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := LoadRecording(ctx, strings.NewReader("{}"), nil)
			if errors.Is(err, context.Canceled) {
				return &FingerprintError{Code: "cancelled"}
			}
			return err
		}, "cancelled"},
	}
	for _, c := range cases {
		var fe *FingerprintError
		if err := c.f(); !errors.As(err, &fe) || fe.Code != c.code {
			t.Errorf("%s: %v; want code %s", c.name, err, c.code)
		}
	}
	if e, err := ExplainCalls(`{"role":"assistant","content":"hi"}`, nil); err != nil || len(e) != 0 {
		t.Errorf("a message without calls: %v, %v", e, err)
	}
}
