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
	kernelCodeVersion = 2
	kernelCodeHash    = "07cdeba06d52f771d9544c6b04ddb5ffb44e5a3e48572c7357164b7add6bbb5e"
)
