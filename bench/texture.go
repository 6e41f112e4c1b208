//go:build cgo

package bench

import (
	"context"
	"errors"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// The TextureLaunch cases: an executed launch of a kernel that binds a
// texture and a buffer (impl=texture-buffer) against one of a kernel that
// binds two buffers (impl=two-buffers, the baseline), through the device,
// timed as ExecutedLaunch is (recordChunk launches and the flush that
// encodes them into wgpu-native; dispatches of 0 workgroups); and the same
// with the flush untimed (part=go: the launch path in Go alone, what this
// package adds above the driver).
var (
	twoBuffersKernel = gpu.NewKernel("two-buffers", `
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(1)
fn main() { b[0] = a[0]; }`, "main")
	textureBufferKernel = gpu.NewKernel("texture-buffer", `
@group(0) @binding(0) var a: texture_2d<u32>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(1)
fn main() { b[0] = textureLoad(a, vec2<i32>(0), 0).r; }`, "main")
)

// textureCases are the TextureLaunch cases.
func textureCases(e *LaunchEnv) []Case {
	var cs []Case
	for _, part := range []string{"all", "go"} {
		c := func(impl string, texture bool) Case {
			return Case{Thing: "TextureLaunch", Impl: impl, Key: "part", Value: part, Baseline: "two-buffers",
				F: func(b *testing.B) { e.executedBindings(b, texture, part == "go") }}
		}
		cs = append(cs, c("texture-buffer", true), c("two-buffers", false))
	}
	return cs
}

// executedBindings times executed launches of the texture-and-buffer
// kernel (texture) or of the two-buffer one, on resources made for the
// case; goSide leaves the flush untimed.
func (e *LaunchEnv) executedBindings(b *testing.B, texture, goSide bool) {
	ctx := context.Background()
	out, err := e.dev.NewBuffer(16, 0)
	if err != nil {
		fatalf(b, "NewBuffer: %v", err)
	}
	defer out.Release()
	k, bind := twoBuffersKernel, []gpu.Binding{nil, out}
	if texture {
		t, err := e.dev.NewTexture(wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint})
		if err != nil {
			fatalf(b, "NewTexture: %v", err)
		}
		defer t.Release()
		v, err := t.View(0)
		if err != nil {
			fatalf(b, "View: %v", err)
		}
		k, bind[0] = textureBufferKernel, v
	} else {
		in, err := e.dev.NewBuffer(16, 0)
		if err != nil {
			fatalf(b, "NewBuffer: %v", err)
		}
		defer in.Release()
		bind[0] = in
	}
	id := gpu.NewStreamID()
	defer e.dev.CloseStream(id)
	if err := e.dev.Launch(id, k, none, bind...); err != nil { // compiles, outside the timing
		fatalf(b, "Launch: %v", err)
	}
	if err := e.dev.Sync(ctx, id); err != nil {
		fatalf(b, "Sync: %v", err)
	}
	flush, sync := func() error { return e.dev.Flush(id) }, func() error { return e.dev.Sync(ctx, id) }
	if goSide {
		flush, sync = func() error { return nil }, func() error { return errors.Join(e.dev.Flush(id), e.dev.Sync(ctx, id)) }
	}
	recordChunks(b, noop, func(int) error { return e.dev.Launch(id, k, none, bind...) }, flush, sync)
}
