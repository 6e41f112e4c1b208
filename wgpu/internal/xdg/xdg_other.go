//go:build !linux || android

package xdg

// PrepareRuntimeDir does nothing: XDG_RUNTIME_DIR matters to Mesa's drivers
// on Linux only.
func PrepareRuntimeDir() {}
