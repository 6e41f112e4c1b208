//go:build cgo

// Desktop only: a launch the driver rejects at submit, isolated by the
// flush (the js build reports the browser's rejection at the next Sync).

package wgpu_test

import (
	"context"
	"errors"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestLateValidation: a struct binding too small (which the old binding
// scanner could not size) is refused by Launch itself; with the front-end's
// checks off, the driver refuses it when the batch is submitted, the call
// that submits names it, and the stream stays usable.
func TestLateValidation(t *testing.T) {
	ctx := context.Background()
	k := gpu.NewKernel("structy", `
struct S { v: array<u32, 64> }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() { s.v[0] = 7u; }`, "main")
	uncaptured := wgpu.UncapturedErrors()
	for _, checks := range []bool{true, false} {
		d := openTestDevice(t)
		if !checks {
			wgpu.SkipLaunchChecks(d)
		}
		small := mustBuffer(t, d, 4)
		x := mustBuffer(t, d, 256)
		err := d.Launch(1, k, [3]uint32{1, 1, 1}, small)
		if checks {
			if e := asError(t, err); e.Type != wgpu.ErrorTypeValidation || e.Op != "Launch" {
				t.Errorf("Launch = %v, want a Validation error from Launch (the class the driver gives the same mistake)", err)
			}
		} else {
			if err != nil {
				t.Fatalf("Launch with the checks off = %v, want nil (checked late)", err)
			}
			err := d.Flush(1)
			var le *gpu.LaunchError
			if !errors.As(err, &le) || len(le.Failed) != 1 || le.Failed[0].Seq != 1 {
				t.Errorf("Flush = %v, want a *gpu.LaunchError naming launch 1", err)
			}
			if e := asError(t, err); e.Type != wgpu.ErrorTypeValidation || e.Op != "Flush" {
				t.Errorf("Flush = %v, want the driver's Validation error from Flush", err)
			}
		}
		if err := d.Launch(1, k, [3]uint32{1, 1, 1}, x); err != nil {
			t.Fatal(err)
		}
		got, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
		if err != nil {
			t.Fatalf("Read = %v", err)
		}
		if got[0] != 7 {
			t.Errorf("x[0] = %d, want 7", got[0])
		}
	}
	if n := wgpu.UncapturedErrors(); n != uncaptured {
		t.Errorf("UncapturedErrors = %d, want %d (none raised here)", n, uncaptured)
	}
}
