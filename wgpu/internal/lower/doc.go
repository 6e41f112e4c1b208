// Package lower takes a user's WGSL module to the source the driver
// compiles: today's WGSL in, the dialect of wgpu-native 0.17's compiler
// (naga 0.13) out. It is pure Go and needs no device; package wgpu's
// CheckModule, Compile and Launch call its one entry point, [Lower].
//
// The pipeline, each step on a syntax tree of package wgsl, none on text:
//
//	source ──wgsl.Parse──▶ tree + the front-end's checks (limits, layout,
//	   │                   bindings per entry point), errors at the user's
//	   │                   line and column
//	   ├─BindOverrides──▶ overrides become consts with their values, in
//	   │                   the tree; printed (wgsl.SprintMarks) with the
//	   │                   marks that map the print back to the source
//	   ├─naga 30 (wasm)─▶ validated by today's rules, written in the
//	   │                   driver's dialect (bounded by Options.Timeout)
//	   └─ForDriver─────▶ naga's output read once as a tree: the driver
//	                      checks (*UnsupportedError), array values indexed
//	                      through variables, the packed 4x8 polyfills,
//	                      and the Map from the driver's positions back to
//	                      the user's, for the driver's own errors
//
// The user's source is read once (a second analysis of the rewritten tree
// when overrides changed it, no second parse), naga's output once; a
// module no pass changes reaches the driver as naga wrote it, byte for
// byte.
//
// Each pass is tested on golden files under testdata/, as go/printer's
// tests are (go test ./wgpu/internal/lower -update rewrites the expected
// outputs); the entry point's tests check the overrides, the error kinds
// and the positions.
package lower
