//go:build cgo

package wgpu_test

import (
	"errors"
	"os"
	"testing"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/wgpu"
)

func TestMain(m *testing.M) {
	// wgpu-native warns about every backend it probes and cannot use (e.g.
	// "No config found!" for EGL); keep test output to errors.
	gowgpu.SetLogLevel(gowgpu.LogLevel_Error)
	// lavapipe complains on stderr when XDG_RUNTIME_DIR is unset.
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		dir, err := os.MkdirTemp("", "streamgate-xdg")
		if err == nil {
			os.Setenv("XDG_RUNTIME_DIR", dir)
			code := m.Run()
			os.RemoveAll(dir)
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}

// openTestDevice opens a device for t and closes it at cleanup. Without an
// adapter it skips t, or fails it when STREAMGATE_REQUIRE_ADAPTER=1.
func openTestDevice(t testing.TB, opts ...wgpu.Options) *wgpu.Device {
	t.Helper()
	var o wgpu.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	d, err := wgpu.Open(o)
	if errors.Is(err, wgpu.ErrNoAdapter) {
		if os.Getenv("STREAMGATE_REQUIRE_ADAPTER") == "1" {
			t.Fatalf("Open: %v (STREAMGATE_REQUIRE_ADAPTER=1)", err)
		}
		t.Skipf("no WebGPU adapter: %v", err)
	}
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

const addWGSL = `
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	if (i < arrayLength(&c)) {
		c[i] = a[i] + b[i];
	}
}
`

// incWGSL adds 1 to every element of its one buffer.
const incWGSL = `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < arrayLength(&x)) {
		x[id.x] = x[id.x] + 1u;
	}
}
`

var (
	addKernel = client.NewKernel("add", addWGSL, "main")
	incKernel = client.NewKernel("inc", incWGSL, "main")
)

func mustBuffer(t testing.TB, d *wgpu.Device, size uint64) *wgpu.Buffer {
	t.Helper()
	b, err := d.NewBuffer(size, 0)
	if err != nil {
		t.Fatalf("NewBuffer(%d) = %v", size, err)
	}
	return b
}

func asError(t testing.TB, err error) *wgpu.Error {
	t.Helper()
	var e *wgpu.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *wgpu.Error", err, err)
	}
	return e
}
