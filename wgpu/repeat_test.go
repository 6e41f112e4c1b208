//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// twoGroupsWGSL adds 1 to a[0] and 10 to b[0], a and b read_write, in two
// bind groups.
const twoGroupsWGSL = `
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(1) @binding(0) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(1)
fn main() { a[0] = a[0] + 1u; b[0] = b[0] + 10u; }`

// TestRepeatedLaunchChecks: the launch a loop repeats (the same kernel,
// stream and buffers as a launch just before, which Launch records on a
// path of its own in both builds) is checked as the first one was. Each
// group's buffers were seen in an earlier launch, so only the check
// across groups tells that a and b alias one read_write buffer; a buffer
// released, a stream closed, too many workgroups or a buffer too few are
// refused with the error of a first launch; and the launches accepted all
// ran.
func TestRepeatedLaunchChecks(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	k := gpu.NewKernel("twogroups", twoGroupsWGSL, "main")
	x, y := mustBuffer(t, d, 16), mustBuffer(t, d, 16)
	s := gpu.NewStreamID()
	launch := func(bufs ...gpu.Buffer) error { return d.Launch(s, k, [3]uint32{1, 1, 1}, bufs...) }
	for range 3 {
		if err := launch(x, y); err != nil {
			t.Fatal(err)
		}
		if err := launch(y, x); err != nil {
			t.Fatal(err)
		}
	}
	var we *wgpu.Error
	if err := launch(x, x); !errors.As(err, &we) || we.Type != wgpu.ErrorTypeValidation {
		t.Fatalf("Launch(x, x) after (x, y) and (y, x) = %v, want a Validation error (aliased read_write)", err)
	}
	if err := d.Launch(s, k, [3]uint32{1 << 20, 1, 1}, x, y); !errors.As(err, &we) || we.Type != wgpu.ErrorTypeLimit {
		t.Fatalf("Launch with 1<<20 workgroups = %v, want a Limit error", err)
	}
	if err := launch(x); !errors.As(err, &we) || we.Type != wgpu.ErrorTypeValidation {
		t.Fatalf("Launch(x) for two bindings = %v, want a Validation error", err)
	}
	if err := d.Sync(ctx, s); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		b    *wgpu.Buffer
		want uint32
	}{{x, 3*1 + 3*10}, {y, 3*10 + 3*1}} {
		got, err := wgpu.Read[uint32](ctx, c.b, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != c.want {
			t.Errorf("buffer = %d, want %d (six launches, each adding 1 to its a and 10 to its b)", got[0], c.want)
		}
	}
	y.Release()
	if err := launch(x, y); !errors.As(err, &we) || we.Type != wgpu.ErrorTypeInvalidArgument {
		t.Fatalf("Launch(x, released y) = %v, want an InvalidArgument error", err)
	}
	z := mustBuffer(t, d, 16)
	if err := launch(x, z); err != nil {
		t.Fatal(err)
	}
	if err := d.CloseStream(s); err != nil {
		t.Fatal(err)
	}
	if err := launch(x, z); !errors.Is(err, wgpu.ErrStreamClosed) {
		t.Fatalf("Launch on a closed stream = %v, want ErrStreamClosed", err)
	}
	s2 := gpu.NewStreamID()
	for range 2 {
		if err := d.Launch(s2, k, [3]uint32{1, 1, 1}, x, z); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	if err := d.Launch(s2, k, [3]uint32{1, 1, 1}, x, z); !errors.Is(err, wgpu.ErrClosed) {
		t.Fatalf("Launch after Close = %v, want ErrClosed", err)
	}
}

// TestRepeatedLaunchTakesFlatPath: in either build, a launch that repeats
// the kernel, stream and buffers of a launch just before is recorded by
// the flat path, which builds no bind group key; a first launch, one on
// another stream and one binding a buffer no recent bind group holds are
// left to Launch in full; and the flat path's launch runs.
func TestRepeatedLaunchTakesFlatPath(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	k := gpu.NewKernel("twogroups", twoGroupsWGSL, "main")
	x, y, z := mustBuffer(t, d, 16), mustBuffer(t, d, 16), mustBuffer(t, d, 16)
	s, other := gpu.NewStreamID(), gpu.NewStreamID()
	one := [3]uint32{1, 1, 1}
	if err := d.Compile(ctx, k); err != nil {
		t.Fatal(err)
	}
	if wgpu.LaunchRecent(d, s, k, one, x, y) {
		t.Fatal("the flat path recorded a stream's first launch")
	}
	if err := d.Launch(s, k, one, x, y); err != nil {
		t.Fatal(err)
	}
	if !wgpu.LaunchRecent(d, s, k, one, x, y) {
		t.Fatal("the flat path left a repeated launch to Launch in full")
	}
	if wgpu.LaunchRecent(d, s, k, one, x, z) {
		t.Fatal("the flat path recorded a launch binding a buffer no recent bind group holds")
	}
	if wgpu.LaunchRecent(d, other, k, one, x, y) {
		t.Fatal("the flat path recorded a launch on another stream")
	}
	if err := d.Sync(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, err := wgpu.Read[uint32](ctx, x, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 2 {
		t.Errorf("x[0] = %d, want 2 (a launch in full and one on the flat path)", got[0])
	}
}

// TestRepeatedLaunchRacesClose: launches that repeat (the flat path) from several goroutines while CloseStream and then Close run each
// return nil or the closed error, never panic, and after Close every launch
// is refused.
func TestRepeatedLaunchRacesClose(t *testing.T) {
	for _, closeStream := range []bool{true, false} {
		d := openTestDevice(t)
		k := gpu.NewKernel("twogroups", twoGroupsWGSL, "main")
		x, y := mustBuffer(t, d, 16), mustBuffer(t, d, 16)
		s := gpu.NewStreamID()
		if err := d.Launch(s, k, [3]uint32{1, 1, 1}, x, y); err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				for i := range 2000 {
					err := d.Launch(s, k, [3]uint32{1, 1, 1}, x, y)
					if err != nil && !errors.Is(err, wgpu.ErrClosed) && !errors.Is(err, wgpu.ErrStreamClosed) {
						errs <- err
						return
					}
					if i%64 == 0 {
						runtime.Gosched() // in the page, let the closer run
					}
				}
				errs <- nil
			}()
		}
		runtime.Gosched()
		if closeStream {
			if err := d.CloseStream(s); err != nil {
				t.Fatal(err)
			}
		}
		d.Close()
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatalf("Launch racing Close = %v, want nil or a closed error", err)
			}
		}
		if err := d.Launch(s, k, [3]uint32{1, 1, 1}, x, y); !errors.Is(err, wgpu.ErrClosed) && !errors.Is(err, wgpu.ErrStreamClosed) {
			t.Fatalf("Launch after Close = %v, want a closed error", err)
		}
	}
}
