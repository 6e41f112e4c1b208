//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestCancelledTextureReadsLeaveNothing: read-backs of a texture whose
// context ends before, or while, they wait each return the context's error
// or their data; afterwards the staging pool holds only idle buffers and
// a read-back still returns the texture's data.
func TestCancelledTextureReadsLeaveNothing(t *testing.T) {
	d := openTestDevice(t)
	tex := mustTexture(t, d, wgpu.TextureDesc{Width: 8, Height: 8, Format: wgpu.FormatR32Uint})
	want := make([]uint32, 64)
	for i := range want {
		want[i] = uint32(3 * i)
	}
	if err := wgpu.WriteTexture(tex, [3]uint32{}, [3]uint32{8, 8, 1}, want); err != nil {
		t.Fatal(err)
	}
	n := 2000
	if testing.Short() {
		n = 400
	}
	for i := range n {
		ctx, cancel := context.WithCancel(context.Background())
		if i%2 == 0 {
			cancel() // before the read
		}
		got, err := wgpu.ReadTexture[uint32](ctx, tex, [3]uint32{}, [3]uint32{8, 8, 1})
		cancel()
		switch {
		case err == nil:
			if got[63] != want[63] {
				t.Fatalf("read %d: texel 63 = %d, want %d", i, got[63], want[63])
			}
		case !errors.Is(err, context.Canceled):
			t.Fatalf("read %d with a cancelled context = %v, want nil or context.Canceled", i, err)
		}
	}
	got, err := wgpu.ReadTexture[uint32](context.Background(), tex, [3]uint32{}, [3]uint32{8, 8, 1})
	if err != nil || got[10] != want[10] {
		t.Fatalf("read after the cancelled ones = %v, %v", got[:11], err)
	}
	if st := d.Stats(); st.StagingCreated > 8 {
		t.Errorf("%d staging buffers created over %d reads of one size, want a few reused", st.StagingCreated, n+1)
	}
}

// TestTextureReleaseRacesLaunches: launches binding a texture's view and a
// sampler from several goroutines while another releases the texture and
// the sampler: each launch returns nil or an error saying which is
// released, and a Sync after them reports nothing.
func TestTextureReleaseRacesLaunches(t *testing.T) {
	d := openTestDevice(t)
	out := mustBuffer(t, d, 4)
	for round := range 10 {
		img := mustTexture(t, d, wgpu.TextureDesc{Width: 2, Height: 2, Format: wgpu.FormatRGBA8Unorm})
		view := mustView(t, img, wgpu.ViewDimension2D)
		smp := mustSampler(t, d, wgpu.SamplerDesc{MinFilter: wgpu.FilterModeLinear})
		var wg sync.WaitGroup
		errs := make(chan error, 4*51) // 50 launches and a Sync each
		for g := range 4 {
			id := gpu.StreamID(1000*round + g + 1)
			wg.Go(func() {
				for range 50 {
					errs <- d.Launch(id, sampleKernel, [3]uint32{1, 1, 1}, view, smp, out)
				}
				errs <- d.Sync(context.Background(), id)
			})
		}
		wg.Go(func() { img.Release() })
		wg.Go(func() { smp.Release() })
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil && !strings.Contains(err.Error(), "texture is released") && !strings.Contains(err.Error(), "sampler is released") {
				t.Fatalf("round %d: a launch or Sync racing the Releases = %v, want nil or a released error", round, err)
			}
		}
	}
	if st := d.Stats(); st.TexturesLive != 0 || st.SamplersLive != 0 {
		t.Errorf("%d textures and %d samplers live after their Releases, want 0", st.TexturesLive, st.SamplersLive)
	}
}
