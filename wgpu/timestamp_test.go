//go:build cgo

package wgpu_test

import (
	"context"
	"errors"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func TestTimeStream(t *testing.T) {
	d := openTestDevice(t)
	if !d.HasTimestamps() {
		t.Skipf("adapter %q has no timestamp queries", d.Info().Name)
	}
	ctx := context.Background()
	x := mustBuffer(t, d, 4*4096)
	dur, err := d.TimeStream(ctx, 1, func() error {
		for i := 0; i < 20; i++ {
			if err := d.Launch(1, incKernel, [3]uint32{64, 1, 1}, x); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("TimeStream = %v", err)
	}
	if dur <= 0 {
		t.Errorf("TimeStream = %v, want > 0", dur)
	}
	got, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	if got[4095] != 20 {
		t.Errorf("x[4095] = %d, want 20", got[4095])
	}
	fnErr := errors.New("fn failed")
	if _, err := d.TimeStream(ctx, 1, func() error { return fnErr }); !errors.Is(err, fnErr) {
		t.Errorf("TimeStream(failing fn) = %v, want %v", err, fnErr)
	}
}

// TestTimeStreamWithoutFeature: on a device without timestamp queries the
// query set is never created (wgpu-native would abort); TimeStream returns
// an Unsupported error instead and does not call fn.
func TestTimeStreamWithoutFeature(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{DisableTimestamps: true})
	if d.HasTimestamps() {
		t.Fatal("HasTimestamps = true with DisableTimestamps")
	}
	called := false
	_, err := d.TimeStream(context.Background(), 1, func() error { called = true; return nil })
	e := asError(t, err)
	if e.Type != wgpu.ErrorTypeUnsupported {
		t.Errorf("TimeStream = %v, want Unsupported", err)
	}
	if called {
		t.Errorf("TimeStream called fn on a device without timestamps")
	}
}
