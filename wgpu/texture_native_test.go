//go:build cgo

package wgpu_test

import (
	"runtime"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// soakNative checks wgpu-native holds no texture or view more after n
// creates and releases than before.
func soakNative(t *testing.T, d *wgpu.Device, n int) {
	before := wgpu.Report(d)
	for i := range n {
		tex := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, Format: wgpu.FormatR32Uint})
		if i%3 == 0 {
			if _, err := tex.View(0); err != nil {
				t.Fatal(err)
			}
		}
		tex.Release()
	}
	// A read-back submits and polls: the driver frees what was released.
	probe := mustTexture(t, d, wgpu.TextureDesc{Width: 1, Format: wgpu.FormatR32Uint})
	defer probe.Release()
	if _, err := wgpu.ReadTexture[uint32](testCtx(t), probe, [3]uint32{}, [3]uint32{1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	after := wgpu.Report(d)
	if after.Textures.Occupied > before.Textures.Occupied+1 || after.TextureViews.Occupied > before.TextureViews.Occupied {
		t.Errorf("wgpu-native holds %d textures and %d views after %d creates and releases, %d and %d before",
			after.Textures.Occupied, after.TextureViews.Occupied, n, before.Textures.Occupied, before.TextureViews.Occupied)
	}
}

// TestCloseReleasesTextures checks Close releases every texture, view and
// sampler in wgpu-native's count.
func TestCloseReleasesTextures(t *testing.T) {
	d := openTestDevice(t)
	for i := range 4 {
		tex := mustTexture(t, d, wgpu.TextureDesc{Width: 4, Height: 4, DepthOrArrayLayers: 6, Format: wgpu.FormatRGBA8Unorm})
		if _, err := tex.View(0); err != nil {
			t.Fatal(err)
		}
		if _, err := tex.View(wgpu.ViewDimensionCube); err != nil {
			t.Fatal(err)
		}
		if err := wgpu.WriteTexture(tex, [3]uint32{}, [3]uint32{1, 1, 1}, []byte{1, 2, 3, byte(i)}); err != nil {
			t.Fatal(err)
		}
		if _, err := d.NewSampler(wgpu.SamplerDesc{MinFilter: wgpu.FilterMode(i % 2)}); err != nil {
			t.Fatal(err)
		}
	}
	live := wgpu.Report(d)
	if live.Textures.Occupied < 4 || live.TextureViews.Occupied < 8 || live.Samplers.Occupied < 4 {
		t.Fatalf("report before Close shows %d textures, %d views, %d samplers: want 4, 8, 4 at least", live.Textures.Occupied, live.TextureViews.Occupied, live.Samplers.Occupied)
	}
	r, err := wgpu.CloseWithReport(d)
	if err != nil {
		t.Fatal(err)
	}
	if r.Textures.Occupied != 0 || r.TextureViews.Occupied != 0 || r.Samplers.Occupied != 0 {
		t.Errorf("after Close: %d textures, %d views, %d samplers live, want 0", r.Textures.Occupied, r.TextureViews.Occupied, r.Samplers.Occupied)
	}
}
