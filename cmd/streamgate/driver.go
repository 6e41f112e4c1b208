//go:build cgo

package main

import (
	"fmt"
	"os"
	"path/filepath"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// init quiets the driver before any device opens, as internal/gputest does
// for tests: wgpu-native logs only errors (the wgpu package has no knob for
// it), and when XDG_RUNTIME_DIR is unset — lavapipe complains on every
// device — it points at a private directory, as the Makefile's is.
func init() {
	gowgpu.SetLogLevel(gowgpu.LogLevel_Error)
	if os.Getenv("XDG_RUNTIME_DIR") != "" {
		return
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("streamgate-xdg-%d", os.Getuid()))
	if os.MkdirAll(dir, 0o700) == nil && os.Chmod(dir, 0o700) == nil {
		os.Setenv("XDG_RUNTIME_DIR", dir)
	}
}
