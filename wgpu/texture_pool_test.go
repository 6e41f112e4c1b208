//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

// TestTempTextureReuse: a recycled texture is refused until TempTexture
// hands it out again (launches binding its views, uploads, new views), is
// handed out again for the same description once the queue is done, is
// never handed out again when released while pooled, and a graph that
// bound it before is stale once it is reused.
func TestTempTextureReuse(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	desc := wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint}
	t1, err := d.TempTexture(desc)
	if err != nil {
		t.Fatal(err)
	}
	v1 := mustView(t, t1, wgpu.ViewDimension2D)
	out := mustBuffer(t, d, 64)
	g := capture(t, d, 1, func(r *wgpu.GraphRecorder) error {
		return r.Launch(copyTexKernel, [3]uint32{1, 1, 1}, v1, out)
	})
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	before := d.Stats()
	t1.Recycle()
	for what, err := range map[string]error{
		"Launch":       d.Launch(1, copyTexKernel, [3]uint32{1, 1, 1}, v1, out),
		"WriteTexture": wgpu.WriteTexture(t1, [3]uint32{}, [3]uint32{4, 4, 1}, make([]uint32, 16)),
	} {
		if err == nil || !strings.Contains(err.Error(), "texture is recycled") {
			t.Errorf("%s of a recycled texture = %v, want an error saying it is recycled", what, err)
		}
	}
	if _, err := t1.View(wgpu.ViewDimension2D); err == nil {
		t.Error("View of a recycled texture succeeded")
	}
	if err := d.Sync(ctx, 1); err != nil { // the work before the Recycle is done
		t.Fatal(err)
	}
	t2, err := d.TempTexture(desc)
	if err != nil {
		t.Fatal(err)
	}
	if t2 != t1 {
		t.Fatalf("TempTexture after the queue finished = a new texture, want the recycled one")
	}
	if st := d.Stats(); st.TempHits != before.TempHits+1 {
		t.Errorf("TempHits %d after a reuse, want %d", st.TempHits, before.TempHits+1)
	}
	if err := g.Replay(); err == nil || !strings.Contains(err.Error(), "texture was recycled since the capture") {
		t.Errorf("Replay of a graph binding a reused texture = %v, want a stale-graph error", err)
	}
	if err := d.Launch(1, copyTexKernel, [3]uint32{1, 1, 1}, mustView(t, t2, wgpu.ViewDimension2D), out); err != nil {
		t.Errorf("Launch binding the reused texture = %v", err)
	}

	t2.Recycle()
	t2.Release() // released while pooled
	if err := d.Sync(ctx, 1); err != nil {
		t.Fatal(err)
	}
	t3, err := d.TempTexture(desc)
	if err != nil {
		t.Fatal(err)
	}
	if t3 == t2 {
		t.Fatal("TempTexture handed out a texture released while pooled")
	}
	if err := wgpu.WriteTexture(t3, [3]uint32{}, [3]uint32{4, 4, 1}, make([]uint32, 16)); err != nil {
		t.Errorf("WriteTexture of a fresh TempTexture = %v", err)
	}
	if _, err := d.TempTexture(wgpu.TextureDesc{Width: 0, Format: wgpu.FormatR32Uint}); err == nil {
		t.Error("TempTexture of a zero width succeeded")
	}
	var nilDev *wgpu.Device
	if _, err := nilDev.TempTexture(desc); err == nil {
		t.Error("TempTexture of a nil device succeeded")
	}
	(*wgpu.Texture)(nil).Recycle() // harmless
}

// TestTempTexturePoolLimit: past the pool's byte limit a recycled texture
// is released instead, and Close releases the pooled ones.
func TestTempTexturePoolLimit(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{TempPoolBytes: 100})
	small, err := d.TempTexture(wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint}) // 64 bytes
	if err != nil {
		t.Fatal(err)
	}
	big, err := d.TempTexture(wgpu.TextureDesc{Width: 8, Height: 8, Format: wgpu.FormatR32Uint}) // 256 bytes
	if err != nil {
		t.Fatal(err)
	}
	small.Recycle()
	big.Recycle()
	if _, err := big.View(wgpu.ViewDimension2D); err == nil || !strings.Contains(err.Error(), "released") {
		t.Errorf("View of a texture recycled past the pool's limit = %v, want it released", err)
	}
	if st := d.Stats(); st.TempHeld != 1 || st.TempBytesHeld != 64 {
		t.Errorf("pool holds %d (%d bytes), want 1 texture of 64 bytes", st.TempHeld, st.TempBytesHeld)
	}
	d.Close()
	if st := d.Stats(); st.TexturesLive != 0 || st.TempHeld != 0 {
		t.Errorf("after Close: %d textures live, %d pooled; want none", st.TexturesLive, st.TempHeld)
	}
}
