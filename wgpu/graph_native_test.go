//go:build cgo

// Desktop only: wgpu-native's object report and C status words, GPU
// timestamps, and the isolation of launches the driver rejects at submit
// (in a browser the rejection resolves after later work was submitted: the
// js build reports it at the next Sync instead), which the js build has not.

package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestGraphSoak replays a graph 100,000 times (10,000 under -short) and
// checks that the Go heap, wgpu-native's live objects and the status words
// are where they were.
func TestGraphSoak(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x, y := mustBuffer(t, d, 4096), mustBuffer(t, d, 4096)
	const stream = 7
	g := capture(t, d, stream, func(r *wgpu.GraphRecorder) error {
		var errs []error
		for i := range 10 {
			b := x
			if i%2 == 1 {
				b = y
			}
			errs = append(errs, r.Launch(incKernel, [3]uint32{1, 1, 1}, b))
		}
		return errors.Join(errs...)
	})
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	round := func(count int) {
		for i := range count {
			if err := g.Replay(); err != nil {
				t.Fatal(err)
			}
			if i%500 == 499 {
				if err := d.Sync(ctx, stream); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := d.Sync(ctx, stream); err != nil {
			t.Fatal(err)
		}
	}
	round(n / 10)
	r0, heap0, words0 := wgpu.Report(d), heapBytes(), wgpu.LiveStatusWords()
	round(n)
	r1, heap1, words1 := wgpu.Report(d), heapBytes(), wgpu.LiveStatusWords()
	t.Logf("%d replays of %d launches: Go heap %+d B, bind groups %d -> %d, command buffers %d -> %d, status words %d -> %d",
		n, g.Len(), heap1-heap0, r0.BindGroups.Occupied, r1.BindGroups.Occupied, r0.CommandBuffers.Occupied, r1.CommandBuffers.Occupied, words0, words1)
	if heap1-heap0 > 64<<10 {
		t.Errorf("Go heap grew by %d bytes over %d replays, want < 64 KiB", heap1-heap0, n)
	}
	if r1.BindGroups.Occupied > r0.BindGroups.Occupied || r1.CommandBuffers.Occupied > r0.CommandBuffers.Occupied ||
		r1.Buffers.Occupied > r0.Buffers.Occupied || r1.ComputePipelines.Occupied > r0.ComputePipelines.Occupied {
		t.Errorf("wgpu-native's live objects grew over %d replays: %+v -> %+v", n, r0, r1)
	}
	if words1 > words0 {
		t.Errorf("status words %d -> %d", words0, words1)
	}
	got := readU32(t, x, 1)
	if want := uint32(5 * (n + n/10)); got[0] != want {
		t.Errorf("x[0] = %d, want %d", got[0], want)
	}
}

// TestGraphTimeStream times replays with GPU timestamps: the stream's open
// pass ends before each timestamp, and the replays run once each.
func TestGraphTimeStream(t *testing.T) {
	d := openTestDevice(t)
	if !d.HasTimestamps() {
		t.Skip("the adapter has no timestamp queries")
	}
	x := mustBuffer(t, d, 256)
	const stream = 8
	g := capture(t, d, stream, func(r *wgpu.GraphRecorder) error {
		return errors.Join(r.Launch(incKernel, [3]uint32{1, 1, 1}, x), r.Launch(incKernel, [3]uint32{1, 1, 1}, x))
	})
	if err := d.Launch(stream, incKernel, [3]uint32{1, 1, 1}, x); err != nil { // pending before the timing starts
		t.Fatal(err)
	}
	dur, err := d.TimeStream(context.Background(), stream, func() error {
		return errors.Join(g.Replay(), d.Launch(stream, incKernel, [3]uint32{1, 1, 1}, x), g.Replay())
	})
	if err != nil || dur <= 0 {
		t.Fatalf("TimeStream = %v, %v; want a positive duration", dur, err)
	}
	allEqual(t, "x", readU32(t, x, 64), 6)
}

// TestGraphIsolation replays a graph holding a launch the driver rejects
// (the front-end's checks off), between good launches and before a bad
// one: every other launch runs, once per replay, and the LaunchError
// names the graph's bad one by the graph's id and its index, and the bad
// launch after the replays by its sequence number, counted past theirs,
// and its kernel.
func TestGraphIsolation(t *testing.T) {
	d := openTestDevice(t)
	wgpu.SkipLaunchChecks(d)
	ctx := context.Background()
	k := gpu.NewKernel("count", countWGSL, "main")
	c, good, bad := mustBuffer(t, d, 4), mustBuffer(t, d, 256), mustBuffer(t, d, 4)
	const stream = 4
	g := capture(t, d, stream, func(r *wgpu.GraphRecorder) error {
		var errs []error
		for i := range 13 {
			b := good
			if i == 7 {
				b = bad
			}
			errs = append(errs, r.Launch(k, [3]uint32{1, 1, 1}, c, b))
		}
		return errors.Join(errs...)
	})
	if err := d.Launch(stream, k, [3]uint32{1, 1, 1}, c, good); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []*wgpu.Buffer{bad, good} {
		if err := d.Launch(stream, k, [3]uint32{1, 1, 1}, c, b); err != nil {
			t.Fatal(err)
		}
	}
	err := d.Sync(ctx, stream)
	var le *gpu.LaunchError
	if !errors.As(err, &le) {
		t.Fatalf("Sync = %v, want a *gpu.LaunchError", err)
	}
	if len(le.Failed) != 3 {
		t.Fatalf("Failed = %+v, want the bad launch of each replay and the bad launch after them", le.Failed)
	}
	for i, f := range le.Failed[:2] {
		if f.Graph != g.ID() || f.Index != 7 || f.Seq != uint64(2+7+13*i) || f.Kernel != "count(main)" {
			t.Errorf("Failed[%d] = {Seq %d, Graph %d, Index %d, Kernel %q}, want {%d, %d, 7, count(main)}", i, f.Seq, f.Graph, f.Index, f.Kernel, 2+7+13*i, g.ID())
		}
	}
	if f := le.Failed[2]; f.Graph != 0 || f.Seq != 1+2*13+1 || f.Kernel != "count(main)" {
		t.Errorf("Failed[2] = {Seq %d, Graph %d, Kernel %q}, want {%d, 0, count(main)}", f.Seq, f.Graph, f.Kernel, 1+2*13+1)
	}
	if !strings.Contains(err.Error(), "launch 9 (graph") {
		t.Errorf("error %q does not name the launch's graph", err)
	}
	allEqual(t, "counter", readU32(t, c, 1), 1+2*12+1)
}
