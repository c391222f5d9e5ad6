package fingerprint

import (
	"bytes"
	"os"
	"testing"
)

// The embedded modules are the committed build/ bytes (scripts/build-wasm.mjs copies them here).
func TestEmbeddedWasmIsBuild(t *testing.T) {
	files, err := wasmFiles.ReadDir("wasm")
	if err != nil || len(files) != 2 {
		t.Fatalf("go/wasm: %v, %v (want the two modules)", files, err)
	}
	for _, f := range files {
		embedded, _ := wasmFiles.ReadFile("wasm/" + f.Name())
		b, err := os.ReadFile("../build/" + f.Name())
		if err != nil || !bytes.Equal(b, embedded) {
			t.Errorf("go/wasm/%s differs from build/%s (%v): run node scripts/build-wasm.mjs", f.Name(), f.Name(), err)
		}
	}
}
