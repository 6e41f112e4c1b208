//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

func TestLaunchAdd(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	const n = 1000
	a, b, c := mustBuffer(t, d, 4*n), mustBuffer(t, d, 4*n), mustBuffer(t, d, 4*n)
	av, bv := make([]float32, n), make([]float32, n)
	for i := range av {
		av[i], bv[i] = float32(i), float32(2*i)+0.5
	}
	if err := wgpu.Write(a, 0, av); err != nil {
		t.Fatal(err)
	}
	if err := wgpu.Write(b, 0, bv); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(1, addKernel, [3]uint32{(n + 63) / 64, 1, 1}, a, b, c); err != nil {
		t.Fatalf("Launch = %v", err)
	}
	got, err := wgpu.Read[float32](ctx, c, 0, int(c.Size()/4)) // read-back flushes stream 1
	if err != nil {
		t.Fatalf("Read = %v", err)
	}
	for i := range got {
		if want := av[i] + bv[i]; got[i] != want {
			t.Fatalf("c[%d] = %v, want %v", i, got[i], want)
		}
	}
}

// TestBatching launches more than MaxBatch dispatches and checks they all
// ran, in order, across the threshold submits.
func TestBatching(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{MaxBatch: 8})
	ctx := context.Background()
	x := mustBuffer(t, d, 4*64)
	if err := wgpu.Write(x, 0, make([]uint32, 64)); err != nil {
		t.Fatal(err)
	}
	const launches = 29
	for i := 0; i < launches; i++ {
		if err := d.Launch(3, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
			t.Fatalf("Launch %d = %v", i, err)
		}
	}
	if got, want := wgpu.Pending(d, 3), launches%8; got != want {
		t.Errorf("Pending = %d, want %d", got, want)
	}
	if err := d.Sync(ctx, 3); err != nil {
		t.Fatalf("Sync = %v", err)
	}
	if got := wgpu.Pending(d, 3); got != 0 {
		t.Errorf("Pending after Sync = %d, want 0", got)
	}
	got, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != launches {
			t.Fatalf("x[%d] = %d, want %d", i, v, launches)
		}
	}
}

// TestWriteOrdering: a Write after pending launches does not overtake them.
func TestWriteOrdering(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 4*64)
	if err := wgpu.Write(x, 0, make([]uint32, 64)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := d.Launch(1, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
			t.Fatal(err)
		}
	}
	// Overwrite with 100s: the three pending increments must run first.
	hundred := make([]uint32, 64)
	for i := range hundred {
		hundred[i] = 100
	}
	if err := wgpu.Write(x, 0, hundred); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(1, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
		t.Fatal(err)
	}
	got, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 101 {
		t.Fatalf("x[0] = %d, want 101", got[0])
	}
}

func TestFlushSyncIdempotent(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 256)
	// Nothing recorded yet: flush and sync are no-ops.
	for i := 0; i < 2; i++ {
		if err := d.Flush(9); err != nil {
			t.Fatalf("Flush = %v", err)
		}
		if err := d.Sync(ctx, 9); err != nil {
			t.Fatalf("Sync = %v", err)
		}
	}
	if err := d.Launch(9, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
		t.Fatal(err)
	}
	// Flushing and syncing repeatedly never submits a command buffer twice
	// (that would abort the process inside wgpu-native).
	for i := 0; i < 3; i++ {
		if err := d.Flush(9); err != nil {
			t.Fatalf("Flush #%d = %v", i, err)
		}
		if err := d.Sync(ctx, 9); err != nil {
			t.Fatalf("Sync #%d = %v", i, err)
		}
	}
	got, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 1 {
		t.Fatalf("x[0] = %d, want 1 (submitted once)", got[0])
	}
}

func TestSyncCanceled(t *testing.T) {
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	if err := d.Launch(2, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Sync(ctx, 2); !errors.Is(err, context.Canceled) {
		t.Fatalf("Sync(canceled) = %v, want context.Canceled", err)
	}
	if _, err := wgpu.Read[byte](ctx, x, 0, int(x.Size())); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read(canceled) = %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.Sync(ctx, 2); err != nil {
		t.Fatalf("Sync = %v", err)
	}
}

type fakeBuffer struct{}

func (fakeBuffer) Size() uint64 { return 256 }

func TestLaunchErrors(t *testing.T) {
	d := openTestDevice(t)
	other := openTestDevice(t)
	lim := d.Limits().MaxComputeWorkgroupsPerDimension
	x := mustBuffer(t, d, 256)
	small := mustBuffer(t, d, 4) // fine for the runtime array
	foreign := mustBuffer(t, other, 256)
	uniformOnly, err := d.NewBuffer(256, wgpu.BufferUsageUniform|wgpu.BufferUsageCopyDst)
	if err != nil {
		t.Fatal(err)
	}
	released := mustBuffer(t, d, 256)
	released.Release()
	fixed := gpu.NewKernel("fixed", `
@group(0) @binding(0) var<storage, read_write> x: array<u32, 64>;
@compute @workgroup_size(1) fn main() { x[0] = 1u; }`, "main")

	tests := []struct {
		name     string
		k        *gpu.Kernel
		wg       [3]uint32
		bindings []gpu.Buffer
		typ      wgpu.ErrorType
	}{
		{"workgroups-x-over-limit", incKernel, [3]uint32{lim + 1, 1, 1}, []gpu.Buffer{x}, wgpu.ErrorTypeLimit},
		{"workgroups-z-over-limit", incKernel, [3]uint32{1, 1, lim + 1}, []gpu.Buffer{x}, wgpu.ErrorTypeLimit},
		{"too-few-bindings", addKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{x, x}, wgpu.ErrorTypeValidation},
		{"too-many-bindings", incKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{x, x}, wgpu.ErrorTypeValidation},
		{"foreign-type", incKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{fakeBuffer{}}, wgpu.ErrorTypeInvalidArgument},
		{"nil-buffer", incKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{(*wgpu.Buffer)(nil)}, wgpu.ErrorTypeInvalidArgument},
		{"other-device", incKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{foreign}, wgpu.ErrorTypeInvalidArgument},
		{"released", incKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{released}, wgpu.ErrorTypeInvalidArgument},
		{"wrong-usage", incKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{uniformOnly}, wgpu.ErrorTypeValidation},
		{"too-small", fixed, [3]uint32{1, 1, 1}, []gpu.Buffer{small}, wgpu.ErrorTypeValidation},
		{"nil-kernel", nil, [3]uint32{1, 1, 1}, []gpu.Buffer{x}, wgpu.ErrorTypeInvalidArgument},
		{"nil-interface", incKernel, [3]uint32{1, 1, 1}, []gpu.Buffer{nil}, wgpu.ErrorTypeInvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := d.Launch(5, tc.k, tc.wg, tc.bindings...)
			e := asError(t, err)
			if e.Type != tc.typ || e.Op != "Launch" {
				t.Errorf("Launch = %v (Op %q, Type %v), want Op Launch, Type %v", err, e.Op, e.Type, tc.typ)
			}
		})
	}
	if got := wgpu.Pending(d, 5); got != 0 {
		t.Errorf("Pending after failed launches = %d, want 0", got)
	}
	// The device is still usable.
	if err := d.Launch(5, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
		t.Fatalf("Launch after errors = %v", err)
	}
	if err := d.Sync(context.Background(), 5); err != nil {
		t.Fatalf("Sync = %v", err)
	}
}

// TestReleasePending releases buffers that pending and in-flight work
// binds: the work is submitted and runs, nothing aborts, and later use is an
// error.
func TestReleasePending(t *testing.T) {
	uncaptured := wgpu.UncapturedErrors()
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 4*64)
	y := mustBuffer(t, d, 4*64)
	for i := 0; i < 10; i++ {
		if err := d.Launch(4, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
			t.Fatal(err)
		}
		if err := d.Launch(4, incKernel, [3]uint32{1, 1, 1}, y); err != nil {
			t.Fatal(err)
		}
	}
	x.Release() // pending on stream 4: flushed, then released
	x.Release() // twice is harmless
	if err := d.Launch(4, incKernel, [3]uint32{1, 1, 1}, y); err != nil {
		t.Fatalf("Launch(y) after Release(x) = %v", err)
	}
	if err := d.Flush(4); err != nil {
		t.Fatal(err)
	}
	y.Release() // in flight: wgpu-native keeps it alive until done
	if err := d.Sync(ctx, 4); err != nil {
		t.Fatalf("Sync = %v", err)
	}
	for _, tc := range []struct {
		name string
		f    func() error
	}{
		{"Launch", func() error { return d.Launch(4, incKernel, [3]uint32{1, 1, 1}, x) }},
		{"Write", func() error { return wgpu.Write(x, 0, make([]byte, 16)) }},
		{"Read", func() error { _, err := wgpu.Read[byte](ctx, x, 0, int(x.Size())); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := asError(t, tc.f())
			if e.Type != wgpu.ErrorTypeInvalidArgument {
				t.Errorf("%s(released) = %v, want InvalidArgument", tc.name, e)
			}
		})
	}
	if n := wgpu.UncapturedErrors(); n != uncaptured {
		t.Errorf("UncapturedErrors = %d, want %d", n, uncaptured)
	}
}

// TestConcurrentStreams runs several streams from several goroutines on one
// device, each on its own buffer, plus a shared kernel cache.
func TestConcurrentStreams(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{MaxBatch: 16})
	ctx := context.Background()
	const streams, launches = 6, 40
	var wg sync.WaitGroup
	errs := make(chan error, streams)
	for s := 0; s < streams; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			id := gpu.StreamID(100 + s)
			x, err := d.NewBuffer(4*64, 0)
			if err != nil {
				errs <- err
				return
			}
			defer x.Release()
			for i := 0; i < launches; i++ {
				if err := d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
					errs <- err
					return
				}
				if i%7 == 0 {
					d.Flush(id)
				}
			}
			if err := d.Sync(ctx, id); err != nil {
				errs <- err
				return
			}
			got, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
			if err != nil {
				errs <- err
				return
			}
			if got[63] != launches {
				errs <- fmt.Errorf("stream %d: x[63] = %d, want %d", id, got[63], launches)
			}
		}(s)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCloseStream: CloseStream submits the stream's launches and drops its
// state, so many short-lived streams leave nothing behind; the id stays
// retired: a later launch on it is refused and makes no state.
func TestCloseStream(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 256)
	for id := uint64(100); id < 150; id++ {
		if err := d.Launch(gpu.StreamID(id), incKernel, [3]uint32{1, 1, 1}, x); err != nil {
			t.Fatal(err)
		}
		if err := d.CloseStream(gpu.StreamID(id)); err != nil {
			t.Fatal(err)
		}
	}
	if n := wgpu.Streams(d); n != 0 {
		t.Errorf("after closing 50 streams the device keeps state for %d", n)
	}
	v, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != 50 {
		t.Errorf("x[0] = %d, want 50: CloseStream submits what the stream recorded", v[0])
	}
	// The id stays retired; flushing, syncing and closing it again are
	// harmless, and so is closing an unknown stream.
	if err := d.Launch(100, incKernel, [3]uint32{1, 1, 1}, x); !errors.Is(err, wgpu.ErrStreamClosed) || !errors.Is(err, gpu.ErrStreamClosed) {
		t.Errorf("Launch on a retired stream = %v, want ErrStreamClosed", err)
	}
	for name, f := range map[string]func() error{
		"Flush":       func() error { return d.Flush(100) },
		"Sync":        func() error { return d.Sync(ctx, 100) },
		"CloseStream": func() error { return d.CloseStream(100) },
		"unknown":     func() error { return d.CloseStream(12345) },
	} {
		if err := f(); err != nil {
			t.Errorf("%s of a retired stream = %v, want nil", name, err)
		}
	}
	if n := wgpu.Streams(d); n != 0 {
		t.Errorf("calls on retired streams left state for %d", n)
	}
	d.Close()
	if err := d.CloseStream(100); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("CloseStream after Close = %v, want ErrClosed", err)
	}
}

// TestCloseStreamRacesLaunch: launches racing CloseStream on one id each
// either run (they returned nil, and CloseStream submitted them) or
// return ErrStreamClosed and record nothing; no state is left for the id.
func TestCloseStreamRacesLaunch(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 256)
	const launchers, each, rounds = 4, 100, 20
	var ran atomic.Uint32
	for round := range rounds {
		id := gpu.NewStreamID()
		var wg sync.WaitGroup
		for range launchers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					err := d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x)
					if errors.Is(err, wgpu.ErrStreamClosed) {
						return
					}
					if err != nil {
						t.Error(err)
						return
					}
					ran.Add(1)
				}
			}()
		}
		if round%2 == 1 {
			runtime.Gosched() // some rounds close before any launch
		}
		if err := d.CloseStream(id); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if n := wgpu.Streams(d); n != 0 {
			t.Fatalf("round %d: %d streams left after CloseStream", round, n)
		}
	}
	// Nothing may be left pending on a retired stream, where no Flush of
	// its id would ever reach it.
	if n := wgpu.Users(x); n != 0 {
		t.Errorf("%d streams still hold pending launches after the last CloseStream", n)
	}
	v, err := wgpu.Read[uint32](ctx, x, 0, int(x.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != ran.Load() {
		t.Errorf("x[0] = %d, want %d: the launches that returned nil", v[0], ran.Load())
	}
}

// TestLaunchAllocatesNothing: an executed launch of a compiled kernel with
// a cached bind group allocates nothing.
func TestLaunchAllocatesNothing(t *testing.T) {
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	for range 2 {
		if err := d.Launch(7, incKernel, [3]uint32{0, 0, 0}, x); err != nil {
			t.Fatal(err)
		}
	}
	if allocs := testing.AllocsPerRun(200, func() {
		if err := d.Launch(7, incKernel, [3]uint32{0, 0, 0}, x); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Launch allocates %.1f times, want 0", allocs)
	}
	if err := d.Sync(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
}
