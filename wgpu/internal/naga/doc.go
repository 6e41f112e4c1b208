// Package naga lowers WGSL written by today's rules into WGSL that the
// driver's own, older shader compiler accepts.
//
// The driver (wgpu-native 0.17) compiles shaders with naga 0.13, from 2023.
// That naga refuses much of current WGSL: abstract numeric literals
// (var v: f32 = 0;), const-expressions in array sizes and in
// @workgroup_size, untyped case selectors, and more. [Lower] runs a current
// naga (naga 30, built to WebAssembly) inside the process, under the
// pure-Go WebAssembly runtime wazero: it parses and validates the source by
// naga 30's rules and writes the module back out as WGSL in which every
// literal is concrete and every constant is evaluated, a form naga 0.13
// compiles.
//
// # The sandbox
//
// The WebAssembly module runs in a sandbox: it sees only its own linear
// memory (at most 1 GiB) and the few host functions that
// wasm-bindgen's glue needs, none of which reach files, the network or the
// clock. A trap (a Rust panic, an out-of-bounds access, a stack overflow)
// or a canceled context ends the call with an error and the instance that
// ran it is thrown away; the process carries on. Compiling the module to
// machine code is the slow part of a start, so it is done once per
// process, on first use, and kept in wazero's compilation cache under
// os.UserCacheDir()/streamgate/wazero (several megabytes) so that later
// processes start from it (BenchmarkLower's cold-start cases, with and
// without the cache, show both). An unusable or damaged cache directory
// only costs that compile; a binary that does not record wazero's version
// (a test binary) does not use the directory.
//
// # Provenance
//
// naga_bg.wasm is the file dist/wasm/naga_bg.wasm of the npm package
// naga-wasm 30.1.0 (https://github.com/kekkon-nexus/naga-wasm), which
// contains naga 30.0.1 from https://github.com/gfx-rs/wgpu. It is fetched
// and checked by scripts/fetch-naga-wasm.sh, which pins the tarball's
// integrity and the file's SHA-256:
//
//	c7c5cd7322c14c5a0da57bf707fef71d1a51ee2c5094c0786d8216e04cfee4de
//
// naga and naga-wasm are licensed "MIT OR Apache-2.0"; both license texts
// are in this directory (LICENSE-MIT, LICENSE-APACHE).
package naga
