//go:build cgo

package streamgatetest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

func TestOpenDevice(t *testing.T) {
	var d *wgpu.Device
	r := run(t, func(tb testing.TB) {
		d = streamgatetest.OpenDevice(tb)
		k := gpu.NewKernel("one", `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1) fn main() { x[0] = 1u; }`, "main")
		b, err := d.NewBuffer(4, 0)
		require.NoError(t, err)
		require.NoError(t, d.Launch(gpu.NewStreamID(), k, [3]uint32{1, 1, 1}, b))
		got, err := wgpu.Read[uint32](context.Background(), b, 0, int(b.Size()/4))
		require.NoError(t, err)
		assert.Equal(t, []uint32{1}, got)
	})
	if r.skipped {
		t.Skip("no WebGPU adapter")
	}
	require.False(t, r.Failed(), "errors: %q", r.errors)
	_, err := d.NewBuffer(4, 0)
	assert.ErrorIs(t, err, wgpu.ErrClosed, "the device is closed when the test ends")
}

// noAdapter asks for an adapter no Linux machine has.
var noAdapter = wgpu.Options{Backend: wgpu.BackendMetal}

func TestOpenDeviceFailsWithoutAnAdapterWhenRequired(t *testing.T) {
	t.Setenv("STREAMGATE_REQUIRE_ADAPTER", "1")
	reached := false
	r := run(t, func(tb testing.TB) {
		streamgatetest.OpenDevice(tb, noAdapter)
		reached = true
	})
	if !r.Failed() {
		t.Skip("this machine has a Metal adapter")
	}
	assert.False(t, reached, "the test body stops")
	require.Len(t, r.errors, 1)
	assert.Contains(t, r.errors[0], "STREAMGATE_REQUIRE_ADAPTER=1")
}

func TestOpenDeviceSkipsWithoutAnAdapter(t *testing.T) {
	t.Setenv("STREAMGATE_REQUIRE_ADAPTER", "")
	r := run(t, func(tb testing.TB) { streamgatetest.OpenDevice(tb, noAdapter) })
	assert.False(t, r.Failed(), "errors: %q", r.errors)
	assert.True(t, r.skipped)
}
