//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func TestAliasedBindings(t *testing.T) {
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	y := mustBuffer(t, d, 256)
	err := d.Launch(1, addKernel, [3]uint32{1, 1, 1}, x, y, x)
	if e := asError(t, err); e.Type != wgpu.ErrorTypeValidation {
		t.Errorf("Launch(aliased read_write) = %v, want Validation", err)
	}
	// Aliasing two read-only bindings is fine.
	if err := d.Launch(1, addKernel, [3]uint32{1, 1, 1}, x, x, y); err != nil {
		t.Errorf("Launch(aliased read-only) = %v", err)
	}
	if err := d.Sync(context.Background(), 1); err != nil {
		t.Errorf("Sync = %v", err)
	}
}
