//go:build cgo

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/streamgate/streamgate/wgpu"
)

// init quiets the driver before any device opens, as internal/gputest does
// for tests: wgpu-native logs only errors, and when XDG_RUNTIME_DIR is unset — lavapipe complains on every
// device — it points at a private directory, as the Makefile's is.
func init() {
	wgpu.SetLogLevel(wgpu.LogError)
	if os.Getenv("XDG_RUNTIME_DIR") != "" {
		return
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("streamgate-xdg-%d", os.Getuid()))
	if os.MkdirAll(dir, 0o700) == nil && os.Chmod(dir, 0o700) == nil {
		os.Setenv("XDG_RUNTIME_DIR", dir)
	}
}
