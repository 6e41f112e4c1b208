//go:build cgo

package streamgatetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/wgpu"
)

// OpenDevice opens a WebGPU device for t with opts (at most one; none means
// wgpu.Options{}) and closes it when t ends. Without an adapter it skips t,
// or fails it when the environment has STREAMGATE_REQUIRE_ADAPTER=1 (set it
// in CI, so GPU tests never pass by skipping). Any other error opening the
// device fails t.
//
// When XDG_RUNTIME_DIR is unset, OpenDevice first points it at a private
// directory: Mesa's drivers complain on every device without it.
func OpenDevice(t testing.TB, opts ...wgpu.Options) *wgpu.Device {
	t.Helper()
	if len(opts) > 1 {
		panic("streamgatetest: OpenDevice with more than one Options")
	}
	ensureRuntimeDir()
	return gputest.Open(t, opts...)
}

// ensureRuntimeDir sets XDG_RUNTIME_DIR, when unset, to a directory of this
// user's, as the command does. (wgpu.Open does it itself once issue 11's
// change lands; then this goes.)
func ensureRuntimeDir() {
	if os.Getenv("XDG_RUNTIME_DIR") != "" {
		return
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("streamgate-xdg-%d", os.Getuid()))
	if os.MkdirAll(dir, 0o700) == nil && os.Chmod(dir, 0o700) == nil {
		os.Setenv("XDG_RUNTIME_DIR", dir)
	}
}
