//go:build cgo

package tune_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// addOneWGSL adds 1 to count[0] per launch, whatever the workgroup size:
// only invocation 0 adds.
func addOneWGSL(size string) string {
	return `
@group(0) @binding(0) var<storage, read_write> count: array<atomic<u32>>;

@compute @workgroup_size(` + size + `)
fn main(@builtin(local_invocation_index) i: u32) {
	if (i == 0u) {
		atomicAdd(&count[0], 1u);
	}
}
`
}

// TestGPUCaptureMeetsTune is TestCaptureMeetsTune on the device, with the
// GPU timer: the warm-up capture of a step that runs an undecided key
// measures it on a fork (on the measurement's own buffer, every launch
// executed there) and captures the winner and a fixed launch, running
// nothing on the caller's buffer; each replay then adds exactly 2 to it.
// A capture of the decided key measures nothing.
func TestGPUCaptureMeetsTune(t *testing.T) {
	ctx := context.Background()
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	c := client.New(d, client.WithRegistry(r))
	tu := tune.New(c)
	newCount := func() *wgpu.Buffer {
		b, err := wgpu.NewBufferFrom(d, 0, []uint32{0})
		require.NoError(t, err)
		t.Cleanup(b.Release)
		return b
	}
	user, scratch := newCount(), newCount()
	k1 := gpu.NewKernel("add1-wg1", addOneWGSL("1"), "main")
	k64 := gpu.NewKernel("add1-wg64", addOneWGSL("64"), "main")
	fixed := gpu.NewKernel("add1-fixed", addOneWGSL("4"), "main")
	op := tune.Op{
		Key:        "capture/gpu",
		Candidates: []tune.Candidate{gpuCandidate("wg1", k1, nil), gpuCandidate("wg64", k64, nil)},
		NewInputs: func(context.Context) ([]gpu.Buffer, func(), error) {
			return []gpu.Buffer{scratch}, nil, nil
		},
	}
	stepFn := func() error {
		if _, err := tu.Run(ctx, op, user); err != nil {
			return err
		}
		return c.Launch(fixed, [3]uint32{1, 1, 1}, user)
	}
	read := func(b *wgpu.Buffer) uint32 {
		t.Helper()
		v, err := wgpu.Read[uint32](ctx, b, 0, 1)
		require.NoError(t, err)
		return v[0]
	}
	g, err := c.Capture(stepFn)
	require.NoError(t, err)
	defer g.Release()
	assert.Equal(t, 2, g.Len())
	assert.Equal(t, uint32(0), read(user), "the capture ran nothing on the caller's buffer")
	measured := read(scratch)
	assert.Greater(t, measured, uint32(2*tune.MinSamples), "the measurements executed, on their own buffer")
	assert.Equal(t, client.Stats{Captured: 2}, c.Stats(), "nothing launched through the capturing client but the capture")

	r.SetProcessMode(registry.ProcessExecute)
	for range 5 {
		require.NoError(t, c.Replay(g))
	}
	require.NoError(t, c.Sync(ctx))
	assert.Equal(t, uint32(10), read(user))
	assert.Equal(t, measured, read(scratch), "replays bind the caller's buffer only")

	g2, err := c.Capture(stepFn)
	require.NoError(t, err)
	defer g2.Release()
	assert.Equal(t, measured, read(scratch), "a decided key measures nothing")
	require.NoError(t, errors.Join(c.Replay(g2), c.Sync(ctx)))
	assert.Equal(t, uint32(12), read(user))
	require.NoError(t, c.Close())
}
