package fingerprint

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero/api"
)

// failing is an export whose call fails in the wasm (as a trap does).
type failing struct{ api.Function }

func (failing) CallWithStack(context.Context, []uint64) error {
	return errors.New("wasm trap: unreachable")
}

// A failure in an instance's wasm closes it at once (never reused, D19) and is an internal-error, or the
// cancelled context's own error; put then leaves it out of the pool.
func TestAFailedCallClosesItsInstance(t *testing.T) {
	for _, cancel := range []bool{false, true} {
		in, err := engineModule.get()
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		if cancel {
			stop()
		}
		_, err = in.call(ctx, failing{})
		stop()
		var fe *FingerprintError
		if cancel && !errors.Is(err, context.Canceled) ||
			!cancel && (!errors.As(err, &fe) || fe.Code != "internal-error" || !strings.Contains(fe.Message, "unreachable")) {
			t.Fatalf("cancel %v: %v", cancel, err)
		}
		if !in.mod.IsClosed() {
			t.Fatal("the instance was not closed")
		}
		in.put()
		for len(engineModule.idle) > 0 {
			if other := <-engineModule.idle; other == in {
				t.Fatal("a closed instance was pooled")
			} else {
				defer other.put()
			}
		}
	}
}
