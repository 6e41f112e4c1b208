package naga

import _ "embed"

// What naga_bg.wasm is. scripts/fetch-naga-wasm.sh reads these lines with
// sed: keep each on one line, as name = "value".
const (
	npmPackage       = "naga-wasm"
	npmVersion       = "30.1.0"
	nagaVersion      = "30.0.1"
	license          = "MIT OR Apache-2.0"
	tarballIntegrity = "sha512-uROKRlHP61ZIBab0ztBIFN8dWloDm+fdgO+cg5A7m7KK50HeHECiV0C2HvV1a+XNYiHVQZ6VV7EYGWbW7LS3Ug=="
	wasmSHA256       = "c7c5cd7322c14c5a0da57bf707fef71d1a51ee2c5094c0786d8216e04cfee4de"
)

// wasmBinary is naga_bg.wasm, checked against wasmSHA256 by
// TestEmbeddedChecksum. It is read-only.
//
//go:embed naga_bg.wasm
var wasmBinary []byte

// Version reports the naga inside the sandbox, as
// "naga 30.0.1 (naga-wasm 30.1.0)". It is safe for concurrent use and does
// not start the sandbox.
func Version() string {
	return "naga " + nagaVersion + " (" + npmPackage + " " + npmVersion + ")"
}
