//go:build cgo

package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// countRuntimeWGSL needs a runtime array of 16-byte structs: 16 bytes at
// least.
const countRuntimeWGSL = `
struct P { a: vec2<f32>, b: u32 }
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> ps: array<P>;

@compute @workgroup_size(1)
fn main() {
	atomicAdd(&c[0], 1u);
	ps[0].b = 1u;
}
`

// countConstWGSL needs const N u32s at binding 1, through an alias.
const countConstWGSL = `
const N = 256u;
alias Block = array<u32, N>;
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> x: Block;

@compute @workgroup_size(1)
fn main() {
	atomicAdd(&c[0], 1u);
	x[N - 1u] = 1u;
}
`

// isolationCase is one kind of bad launch for TestRejectedLaunchIsolatedFromItsBatch.
type isolationCase struct {
	name   string
	source string
	good   uint64 // size of a good binding 1
	// bad makes the bad launch from the device and the counter buffer c: a
	// nil kernel stands for the case's own one, except in nil-kernel.
	bad    func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer)
	want   string // in Launch's error
	driver bool   // with the checks off, the driver rejects it at submit
}

// smallBinding makes a bad launch whose binding 1 is size bytes.
func smallBinding(size uint64) func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
	return func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
		return nil, [3]uint32{1, 1, 1}, []gpu.Buffer{c, mustBuffer(t, d, size)}
	}
}

// isolationCases are the kinds of bad launch TestRejectedLaunchIsolatedFromItsBatch runs.
func isolationCases() []isolationCase {
	return []isolationCase{
		{"struct-too-small", countWGSL, 256, smallBinding(4), "4 bytes is smaller than the 256 bytes", true},
		{"runtime-array-of-structs-too-small", countRuntimeWGSL, 16, smallBinding(4), "4 bytes is smaller than the 16 bytes", true},
		// The driver does not check a fixed array's size at dispatch: only
		// Launch's own check stands.
		{"const-array-too-small", countConstWGSL, 1024, smallBinding(4), "4 bytes is smaller than the 1024 bytes", false},
		{"uniform-usage-for-storage", countWGSL, 256, func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
			u, err := d.NewBuffer(256, wgpu.BufferUsageUniform|wgpu.BufferUsageCopyDst)
			if err != nil {
				t.Fatal(err)
			}
			return nil, [3]uint32{1, 1, 1}, []gpu.Buffer{c, u}
		}, "lacks BufferUsageStorage", false},
		{"oversized-dispatch", countWGSL, 256, func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
			return nil, [3]uint32{d.Limits().MaxComputeWorkgroupsPerDimension + 1, 1, 1}, []gpu.Buffer{c, mustBuffer(t, d, 256)}
		}, "exceed maxComputeWorkgroupsPerDimension", false},
		{"nil-buffer", countWGSL, 256, func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
			return nil, [3]uint32{1, 1, 1}, []gpu.Buffer{c, nil}
		}, "binding s (@group(0) @binding(1)): nil is not a *wgpu.Buffer", false},
		{"nil-kernel", countWGSL, 256, func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
			return (*gpu.Kernel)(nil), [3]uint32{1, 1, 1}, []gpu.Buffer{c, mustBuffer(t, d, 256)}
		}, "nil kernel", false},
		{"released-buffer", countWGSL, 256, func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
			b := mustBuffer(t, d, 256)
			b.Release()
			return nil, [3]uint32{1, 1, 1}, []gpu.Buffer{c, b}
		}, "buffer is released", false},
		{"recycled-buffer", countWGSL, 256, func(t *testing.T, d *wgpu.Device, c *wgpu.Buffer) (*gpu.Kernel, [3]uint32, []gpu.Buffer) {
			b, err := d.TempBuffer(256, 0)
			if err != nil {
				t.Fatal(err)
			}
			b.Recycle()
			return nil, [3]uint32{1, 1, 1}, []gpu.Buffer{c, b}
		}, "buffer is recycled", false},
	}
}

// TestRejectedLaunchIsolatedFromItsBatch launches 7 good, 1 bad and 5 good dispatches for
// each kind of bad launch: the bad one is refused by Launch itself (or, with
// the front-end's checks off, rejected by the driver and isolated at
// submit), and the counter reads exactly 12.
func TestRejectedLaunchIsolatedFromItsBatch(t *testing.T) {
	for _, tc := range isolationCases() {
		for _, checks := range []bool{true, false} {
			if !checks && !tc.driver {
				continue
			}
			name := tc.name
			if !checks {
				name += "/at-submit"
			}
			t.Run(name, func(t *testing.T) { runIsolationCase(t, tc, checks) })
		}
	}
}

// runIsolationCase runs one case of TestRejectedLaunchIsolatedFromItsBatch, with Launch's
// checks on or off.
func runIsolationCase(t *testing.T, tc isolationCase, checks bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d := openTestDevice(t)
	if !checks {
		wgpu.SkipLaunchChecks(d)
	}
	k := gpu.NewKernel(tc.name, tc.source, "main")
	c := mustBuffer(t, d, 4)
	good := mustBuffer(t, d, tc.good)
	const stream = 3
	launchGood := func() {
		t.Helper()
		if err := d.Launch(stream, k, [3]uint32{1, 1, 1}, c, good); err != nil {
			t.Fatalf("good Launch: %v", err)
		}
	}
	for range 7 {
		launchGood()
	}
	bk, wg, bb := tc.bad(t, d, c)
	if bk == nil && !strings.HasPrefix(tc.name, "nil-kernel") {
		bk = k
	}
	err := d.Launch(stream, bk, wg, bb...)
	if checks {
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("bad Launch = %v, want an error containing %q", err, tc.want)
		}
	} else if err != nil {
		t.Fatalf("bad Launch with the checks off = %v, want nil (the driver rejects it at submit)", err)
	}
	for range 5 {
		launchGood()
	}
	err = d.Sync(ctx, stream)
	if checks {
		if err != nil {
			t.Fatalf("Sync = %v", err)
		}
	} else {
		checkIsolatedAtSubmit(t, err, stream, tc.name)
	}
	got, err := wgpu.Read[uint32](ctx, c, 0, int(c.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 12 {
		t.Errorf("counter = %d, want 12: every good launch exactly once", got[0])
	}
	if wgpu.Pending(d, stream) != 0 {
		t.Errorf("Pending = %d after Sync", wgpu.Pending(d, stream))
	}
}

// checkIsolatedAtSubmit checks Sync's error with the checks off: a
// *gpu.LaunchError naming launch 8 of stream, of kernel name, alone, that
// wraps the driver's validation error.
func checkIsolatedAtSubmit(t *testing.T, err error, stream gpu.StreamID, name string) {
	t.Helper()
	var le *gpu.LaunchError
	if !errors.As(err, &le) || len(le.Failed) != 1 || le.Failed[0].Seq != 8 || le.Stream != stream {
		t.Fatalf("Sync = %v, want a *gpu.LaunchError naming launch 8 of stream %d alone", err, stream)
	}
	if !strings.Contains(le.Failed[0].Kernel, name) {
		t.Errorf("failed launch kernel = %q, want %q", le.Failed[0].Kernel, name)
	}
	var we *wgpu.Error
	if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeValidation {
		t.Errorf("errors.As(%v, *wgpu.Error) = %v, want the driver's validation error", err, we)
	}
	if gpu.FailedLaunches(err, stream) != 1 {
		t.Errorf("FailedLaunches = %d, want 1", gpu.FailedLaunches(err, stream))
	}
}

// TestIsolationManyBad: a batch with bad launches scattered through it runs
// each good launch once and names every bad one, in order.
func TestIsolationManyBad(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d := openTestDevice(t)
	wgpu.SkipLaunchChecks(d)
	k := gpu.NewKernel("count", countWGSL, "main")
	c := mustBuffer(t, d, 4)
	good, bad := mustBuffer(t, d, 256), mustBuffer(t, d, 4)
	var wantBad []uint64
	goodN := 0
	for i := 1; i <= 100; i++ {
		b := good
		if i%13 == 0 || i == 1 || i == 100 {
			b, wantBad = bad, append(wantBad, uint64(i))
		} else {
			goodN++
		}
		if err := d.Launch(9, k, [3]uint32{1, 1, 1}, c, b); err != nil {
			t.Fatal(err)
		}
	}
	err := d.Flush(9)
	var le *gpu.LaunchError
	if !errors.As(err, &le) {
		t.Fatalf("Flush = %v, want a *gpu.LaunchError", err)
	}
	var gotBad []uint64
	for _, f := range le.Failed {
		gotBad = append(gotBad, f.Seq)
	}
	if len(gotBad) != len(wantBad) {
		t.Fatalf("failed launches %v, want %v", gotBad, wantBad)
	}
	for i := range gotBad {
		if gotBad[i] != wantBad[i] {
			t.Fatalf("failed launches %v, want %v", gotBad, wantBad)
		}
	}
	got, err := wgpu.Read[uint32](ctx, c, 0, int(c.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	if int(got[0]) != goodN {
		t.Errorf("counter = %d, want %d", got[0], goodN)
	}
}
