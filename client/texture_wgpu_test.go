//go:build cgo || (js && wasm)

package client_test

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
	"github.com/streamgate/streamgate/wgpu"
)

// addTexKernel adds each texel of a u32 texture into a counter buffer.
var addTexKernel = gpu.NewKernel("addtex", `
@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var<storage, read_write> count: array<atomic<u32>>;
@compute @workgroup_size(2, 2)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	atomicAdd(&count[0], textureLoad(src, vec2<i32>(id.xy), 0).r);
}`, "main")

// TestGPUTextureThroughClient: a client launches, captures and replays a
// kernel binding a texture view beside a buffer; under a discarding
// process mode its launches are discarded, and a Measure override runs
// them, as for buffers.
func TestGPUTextureThroughClient(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	ctx := context.Background()
	r := registry.New()
	c := client.New(d, client.WithRegistry(r))
	tex, err := d.NewTexture(wgpu.TextureDesc{Width: 2, Height: 2, Format: wgpu.FormatR32Uint})
	require.NoError(t, err)
	require.NoError(t, wgpu.WriteTexture(tex, [3]uint32{}, [3]uint32{2, 2, 1}, []uint32{1, 2, 3, 4}))
	view, err := tex.View(0)
	require.NoError(t, err)
	count := newCounter(t, d)

	require.NoError(t, c.Launch(addTexKernel, [3]uint32{1, 1, 1}, view, count))
	assert.Equal(t, uint32(10), gpuCount(t, c, count))

	g, err := c.Capture(func() error {
		return errors.Join(c.Launch(addTexKernel, [3]uint32{1, 1, 1}, view, count), c.Launch(addTexKernel, [3]uint32{1, 1, 1}, view, count))
	})
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, c.Replay(g))
	}
	assert.Equal(t, uint32(10+60), gpuCount(t, c, count))

	r.SetProcessMode(registry.ProcessCompile)
	require.NoError(t, c.Launch(addTexKernel, [3]uint32{1, 1, 1}, view, count))
	require.NoError(t, c.Sync(ctx))
	assert.Equal(t, uint32(70), gpuCount(t, c, count), "a discarded launch binding a texture runs nothing")
	o := c.Measure()
	require.NoError(t, c.Launch(addTexKernel, [3]uint32{1, 1, 1}, view, count))
	o.Release()
	require.NoError(t, c.Sync(ctx))
	r.SetProcessMode(registry.ProcessExecute)
	assert.Equal(t, uint32(80), gpuCount(t, c, count), "a measured launch binding a texture runs")

	tex.Release()
	assert.ErrorContains(t, c.Replay(g), "texture is released")
	assert.ErrorContains(t, c.Launch(addTexKernel, [3]uint32{1, 1, 1}, view, count), "texture is released")
}
