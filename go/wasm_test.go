package fingerprint

import (
	"bytes"
	"os"
	"testing"
)

// The embedded modules are the committed build/ bytes (scripts/build-wasm.mjs copies them here).
func TestEmbeddedWasmIsBuild(t *testing.T) {
	for name, embedded := range map[string][]byte{"fingerprint.wasm": fingerprintWasm, "diagnostics.wasm": engineWasm} {
		b, err := os.ReadFile("../build/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, embedded) {
			t.Errorf("go/wasm/%s differs from build/%s: run node scripts/build-wasm.mjs", name, name)
		}
	}
}
