package naga

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestEmbeddedChecksum(t *testing.T) {
	sum := sha256.Sum256(wasmBinary)
	if got := hex.EncodeToString(sum[:]); got != wasmSHA256 {
		t.Fatalf("sha256(naga_bg.wasm) = %s, want %s (run scripts/fetch-naga-wasm.sh)", got, wasmSHA256)
	}
	// naga's crate version is in the panic locations of its sources.
	if !strings.Contains(string(wasmBinary), "naga-"+nagaVersion+"/") {
		t.Errorf("naga_bg.wasm does not mention naga-%s/", nagaVersion)
	}
}

func TestVersion(t *testing.T) {
	if got, want := Version(), "naga 30.0.1 (naga-wasm 30.1.0)"; got != want {
		t.Errorf("Version() = %q, want %q", got, want)
	}
}
