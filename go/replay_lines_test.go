package fingerprint

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/overturn/fingerprint/go/internal/abi"
)

// One message holding n calls answered in order: each answer has the line's
// text, which the core brings once while the recording holds it (linear in
// the line, not n times it); a failed answer or another line in between
// makes it come again. Expected texts are the recorded lines themselves.
func TestReplayLineOfManyCallsAnsweredInOrder(t *testing.T) {
	const n = 2000
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"id":"c%d","type":"function","function":{"name":"t","arguments":"{\"i\":%d}"}}`, i, i)
	}
	line := `{"role":"assistant","tool_calls":[` + strings.Join(calls, ",") + `]}`
	other := `{"name":"u","args":{},"result":"other"}`
	rec, err := LoadRecording(context.Background(), strings.NewReader(line+"\n"+other+"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	for i := 0; i < n; i++ {
		switch i {
		case 7: // a failed answer
			if _, err := rec.Answer("{", 0); err == nil {
				t.Fatal("a bad call answered")
			}
		case 9: // another line
			if a, err := rec.Answer(map[string]any{"name": "u", "args": map[string]any{}}, 0); err != nil || a.Text != other {
				t.Fatalf("line 2: %+v, %v", a, err)
			}
		}
		a, err := rec.Answer(map[string]any{"name": "t", "args": map[string]any{"i": i}}, 0)
		if err != nil || !a.Hit || a.RecordedLine != 1 || a.RecordedCall != i || a.Text != line {
			t.Fatalf("call %d: hit %v line %d call %d, text of %d bytes, %v", i, a != nil && a.Hit, a.RecordedLine, a.RecordedCall, len(a.Text), err)
		}
	}
	miss, err := rec.Answer(map[string]any{"name": "t", "args": map[string]any{"i": 1, "x": 1}}, 0)
	if err != nil || miss.Hit || miss.Nearest == nil || miss.Nearest.Line != 1 || miss.Nearest.Text != line || miss.Text != "" {
		t.Fatalf("miss: %+v, %v", miss, err)
	}
	// The core's own answer: the line held is left out (no "text").
	var raw struct{ Nearest map[string]any }
	rec.mu.Lock()
	err = rec.op(context.Background(), abi.R_ANSWER, 0, 1, textArg{b: []byte(`{"name":"t","args":{"i":1}}`)}, &raw)
	rec.mu.Unlock()
	if _, sent := raw.Nearest["text"]; err != nil || sent || raw.Nearest["line"] != 1.0 {
		t.Fatalf("held line sent again: %v, %v", raw.Nearest, err)
	}
}
