//go:build !(js && wasm)

package wgpu

// The version of the code whose results the kernel cache keeps (the
// lowering, the front-end, the checks that make a ModuleInfo, the entry
// format), part of every key. TestKernelCodeVersion hashes that code and
// fails when kernelCodeHash is not its hash: whoever changes it bumps
// kernelCodeVersion (every entry of the old code becomes a miss) and
// records the new hash, as the test's message says. This file is not in
// the hash.
const (
	kernelCodeVersion = 3
	kernelCodeHash    = "c29c6bbfacfc5b17788ca3aae06610c298158f14e8f362a48957d947fe2d32f0"
)
