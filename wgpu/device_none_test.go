//go:build !cgo && !(js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func TestOpenWithoutCgo(t *testing.T) {
	_, err := wgpu.Open(wgpu.Options{})
	if !errors.Is(err, wgpu.ErrNoCgo) {
		t.Fatalf("Open = %v, want an error matching ErrNoCgo", err)
	}
	for _, want := range []string{"wgpu: Open: NoCgo: ", "without cgo", "CGO_ENABLED=1", "C compiler"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open error %q does not say %q", err, want)
		}
	}
	if _, err := wgpu.Adapters(); !errors.Is(err, wgpu.ErrNoCgo) {
		t.Errorf("Adapters = %v, want an error matching ErrNoCgo", err)
	}
	// The methods are callable (on what Open returned, too) and fail the same way.
	var d *wgpu.Device
	if _, err := d.NewBuffer(4, 0); !errors.Is(err, wgpu.ErrNoCgo) {
		t.Errorf("NewBuffer = %v, want ErrNoCgo", err)
	}
	var b *wgpu.Buffer
	if _, err := wgpu.Read[byte](context.Background(), b, 0, int(b.Size())); !errors.Is(err, wgpu.ErrNoCgo) {
		t.Errorf("Read = %v, want ErrNoCgo", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close = %v, want nil", err)
	}
}
