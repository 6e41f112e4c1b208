//go:build (!linux || android) && !(js && wasm)

package wgpu

// prepareRuntimeDir does nothing: XDG_RUNTIME_DIR matters to Mesa's drivers
// on Linux only.
func prepareRuntimeDir() {}
