package streamgatetest

import (
	"errors"
	"os"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

// OpenDevice opens a WebGPU device for t with opts (at most one; none means
// wgpu.Options{}) and closes it when t ends. Without an adapter — or in a
// program built without cgo, which WebGPU needs — it skips t, or fails it
// when the environment has STREAMGATE_REQUIRE_ADAPTER=1 (set it in CI, so
// GPU tests never pass by skipping). Any other error opening the device
// fails t.
//
// wgpu.Open itself points XDG_RUNTIME_DIR at a private directory when it
// is unset or unusable (Mesa's drivers complain on every device without
// it), so tests need no setup of their own.
func OpenDevice(t testing.TB, opts ...wgpu.Options) *wgpu.Device {
	t.Helper()
	if len(opts) > 1 {
		panic("streamgatetest: OpenDevice with more than one Options")
	}
	var o wgpu.Options
	if len(opts) == 1 {
		o = opts[0]
	}
	d, err := wgpu.Open(o)
	if errors.Is(err, wgpu.ErrNoAdapter) || errors.Is(err, wgpu.ErrNoCgo) {
		if os.Getenv("STREAMGATE_REQUIRE_ADAPTER") == "1" {
			t.Fatalf("streamgatetest: wgpu.Open: %v (STREAMGATE_REQUIRE_ADAPTER=1: GPU tests must not skip)", err)
		}
		t.Skipf("streamgatetest: no WebGPU device: %v", err)
	}
	if err != nil {
		t.Fatalf("streamgatetest: wgpu.Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
