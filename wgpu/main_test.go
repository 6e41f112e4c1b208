//go:build cgo || (js && wasm)

package wgpu_test

import (
	"errors"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/internal/low/leaktest"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

func TestMain(m *testing.M) { gputest.Main(func() int { return leaktest.Run(m.Run) }) }

// openTestDevice opens a device for t and closes it at cleanup. Without an
// adapter it skips t, or fails it when STREAMGATE_REQUIRE_ADAPTER=1.
func openTestDevice(t testing.TB, opts ...wgpu.Options) *wgpu.Device {
	t.Helper()
	return streamgatetest.OpenDevice(t, opts...)
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

// countWGSL adds 1 to c[0] once per launch (one invocation) and needs 256
// bytes at binding 1: a struct holding a fixed array.
const countWGSL = `
struct S { v: array<u32, 64> }
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> s: S;

@compute @workgroup_size(1)
fn main() {
	atomicAdd(&c[0], 1u);
	s.v[63] = 7u;
}
`

var (
	addKernel = gpu.NewKernel("add", addWGSL, "main")
	incKernel = gpu.NewKernel("inc", incWGSL, "main")
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
