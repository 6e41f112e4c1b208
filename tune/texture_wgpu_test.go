//go:build cgo

package tune_test

import (
	"context"
	"fmt"
	"sync/atomic"
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

// texLoopWGSL reads a u32 texel, spins iters times on it, and writes the
// result into a storage texture: work that scales with iters.
func texLoopWGSL(iters int) string {
	return fmt.Sprintf(`
@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var dst: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	var acc = f32(textureLoad(src, vec2<i32>(id.xy), 0).r);
	for (var i = 0u; i < %du; i = i + 1u) {
		acc = acc * 0.999 + 1.0;
	}
	textureStore(dst, vec2<i32>(id.xy), vec4<f32>(acc, 0.0, 0.0, 1.0));
}
`, iters)
}

// texOp is the op of key over cands, measured on fresh 8x8 textures of d
// (a source and a destination view), counting the inputs it made.
func texOp(d *wgpu.Device, key string, made *atomic.Int64, cands ...tune.Candidate) tune.Op {
	return tune.Op{Key: key, Candidates: cands, NewInputs: func(context.Context) ([]gpu.Buffer, func(), error) {
		src, err := d.NewTexture(wgpu.TextureDesc{Width: 8, Height: 8, Format: wgpu.FormatR32Uint})
		if err != nil {
			return nil, nil, err
		}
		dst, err := d.NewTexture(wgpu.TextureDesc{Width: 8, Height: 8, Format: wgpu.FormatR32Float})
		if err != nil {
			src.Release()
			return nil, nil, err
		}
		sv, err1 := src.View(0)
		dv, err2 := dst.View(0)
		if err1 != nil || err2 != nil {
			src.Release()
			dst.Release()
			return nil, nil, fmt.Errorf("views: %v, %v", err1, err2)
		}
		made.Add(1)
		return []gpu.Buffer{sv, dv}, func() { src.Release(); dst.Release() }, nil
	}}
}

// TestGPUTuneTextureCandidates: candidates that bind a texture and a
// storage texture are measured on fresh textures (NewInputs), the cheaper
// wins, and the real run writes the caller's texture, which the
// measurements never touched.
func TestGPUTuneTextureCandidates(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	c := client.New(d, client.WithRegistry(r))
	cheap := gpu.NewKernel("texcheap", texLoopWGSL(200), "main")
	dear := gpu.NewKernel("texdear", texLoopWGSL(200000), "main")
	var made atomic.Int64
	cand := func(name string, k *gpu.Kernel) tune.Candidate {
		return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
			return c.Launch(k, [3]uint32{1, 1, 1}, in...)
		}}
	}
	op := texOp(d, "texloop", &made, cand("dear", dear), cand("cheap", cheap))

	src, err := d.NewTexture(wgpu.TextureDesc{Width: 8, Height: 8, Format: wgpu.FormatR32Uint})
	require.NoError(t, err)
	dst, err := d.NewTexture(wgpu.TextureDesc{Width: 8, Height: 8, Format: wgpu.FormatR32Float})
	require.NoError(t, err)
	defer src.Release()
	defer dst.Release()
	mark := make([]float32, 64)
	for i := range mark {
		mark[i] = -1
	}
	require.NoError(t, wgpu.WriteTexture(dst, [3]uint32{}, [3]uint32{8, 8, 1}, mark))
	sv, err := src.View(0)
	require.NoError(t, err)
	dv, err := dst.View(0)
	require.NoError(t, err)

	tu := tune.New(c)
	got, res, err := tu.Pick(context.Background(), op, sv, dv)
	require.NoError(t, err)
	t.Log("\n" + res.Table())
	assert.Equal(t, "cheap", got.Name, "1000x less work wins")
	assert.Equal(t, int64(1), made.Load(), "the measurements ran on one set of fresh textures")
	before, err := wgpu.ReadTexture[float32](context.Background(), dst, [3]uint32{}, [3]uint32{8, 8, 1})
	require.NoError(t, err)
	assert.Equal(t, mark, before, "the measurements never wrote the caller's texture")
	assert.Zero(t, c.Stats().Discarded, "every measured launch executed under the process's discard")

	r.SetProcessMode(registry.ProcessExecute)
	_, err = tu.Run(context.Background(), op, sv, dv)
	require.NoError(t, err)
	after, err := wgpu.ReadTexture[float32](context.Background(), dst, [3]uint32{}, [3]uint32{8, 8, 1})
	require.NoError(t, err)
	assert.NotEqual(t, float32(-1), after[0], "the real run wrote the caller's texture")
	assert.Equal(t, int64(1), made.Load(), "a decided key makes no inputs")
}
