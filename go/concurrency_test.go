package fingerprint

import (
	"fmt"
	"sync"
	"testing"
)

// Many goroutines at once (run under -race): the pool gives each its own
// instance, and every digest equals the one computed alone.
func TestConcurrentCalls(t *testing.T) {
	want := make([]string, 50)
	for i := range want {
		want[i], _ = FingerprintJSON("t", fmt.Sprintf(`{"i":%d,"s":" x "}`, i), nil)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 500; n++ {
				i := (n + g) % len(want)
				got, err := Fingerprint("t", map[string]any{"i": i, "s": " x "}, nil)
				if err == nil && got != want[i] {
					err = fmt.Errorf("call %d: %s, want %s", i, got, want[i])
				}
				if _, e := ExplainCall(fmt.Sprintf(`{"name":"t","args":{"i":%d}}`, i), nil); err == nil {
					err = e
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
