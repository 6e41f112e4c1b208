//go:build cgo

package wgpu_test

// A soak of graph replays through package client, here rather than in
// client's tests because it reads wgpu-native's live objects and the C
// status words through this package's test hooks (export_test.go). Only
// this test imports client; wgpu itself never does.

import (
	"context"
	"errors"
	"testing"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// TestClientReplaySoak replays one graph of two launches through a client
// 200,000 times discarded (the stream's mode Discard) and 20,000 times
// executed (a tenth of each under -short), interleaved, with a Sync every
// 500 executed replays: the Go heap, wgpu-native's live objects, the C
// status words and the device's streams and buffers end where they were,
// the client's counts are exact and the buffer holds exactly the executed
// launches.
func TestClientReplaySoak(t *testing.T) {
	ctx := context.Background()
	d := openTestDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune) // the stream's default is Discard
	c := client.New(d, client.WithRegistry(r))
	x, y := mustBuffer(t, d, 4), mustBuffer(t, d, 4)
	if err := errors.Join(wgpu.Write(x, 0, []uint32{0}), wgpu.Write(y, 0, []uint32{0})); err != nil {
		t.Fatal(err)
	}
	g, err := c.Capture(func() error {
		return errors.Join(c.Launch(incKernel, [3]uint32{1, 1, 1}, x), c.Launch(incKernel, [3]uint32{1, 1, 1}, y))
	})
	if err != nil {
		t.Fatal(err)
	}
	discarded, executed := 200_000, 20_000
	if testing.Short() {
		discarded, executed = 20_000, 2_000
	}
	perExec := discarded / executed
	round := func(exec int) {
		for i := range exec {
			for range perExec {
				if err := c.Replay(g); err != nil {
					t.Fatalf("discarded Replay = %v", err)
				}
			}
			o := c.Measure()
			err := c.Replay(g)
			o.Release()
			if err != nil {
				t.Fatalf("executed Replay = %v", err)
			}
			if i%500 == 499 {
				if err := c.Sync(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := c.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	round(executed / 10) // warm-up: pools, caches, the allocators' high-water marks
	r0, heap0, words0, st0 := wgpu.Report(d), heapBytes(), wgpu.LiveStatusWords(), d.Stats()
	round(executed)
	r1, heap1, words1, st1 := wgpu.Report(d), heapBytes(), wgpu.LiveStatusWords(), d.Stats()
	t.Logf("%d discarded and %d executed replays: Go heap %+d B, bind groups %d -> %d, command buffers %d -> %d, status words %d -> %d",
		discarded, executed, heap1-heap0, r0.BindGroups.Occupied, r1.BindGroups.Occupied, r0.CommandBuffers.Occupied, r1.CommandBuffers.Occupied, words0, words1)
	if heap1-heap0 > 64<<10 {
		t.Errorf("Go heap grew by %d bytes, want < 64 KiB", heap1-heap0)
	}
	if r1.BindGroups.Occupied > r0.BindGroups.Occupied || r1.CommandBuffers.Occupied > r0.CommandBuffers.Occupied ||
		r1.Buffers.Occupied > r0.Buffers.Occupied || r1.ComputePipelines.Occupied > r0.ComputePipelines.Occupied {
		t.Errorf("wgpu-native's live objects grew: %+v -> %+v", r0, r1)
	}
	if words1 > words0 {
		t.Errorf("status words %d -> %d", words0, words1)
	}
	if st1.StreamsLive != st0.StreamsLive || st1.BuffersLive != st0.BuffersLive || st1.PipelinesCached != st0.PipelinesCached || st1.StagingHeld > st0.StagingHeld {
		t.Errorf("device stats moved: %+v -> %+v", st0, st1)
	}
	total := executed + executed/10
	want := client.Stats{
		Captured:         2,
		Replays:          uint64(total),
		ReplayedLaunches: uint64(2 * total),
		Executed:         uint64(2 * total),
		DiscardedReplays: uint64(perExec * total),
		Discarded:        uint64(2 * perExec * total),
	}
	if got := c.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
	for _, b := range []*wgpu.Buffer{x, y} {
		if got := readU32(t, b, 1); got[0] != uint32(total) {
			t.Errorf("buffer = %d, want %d (one per executed replay)", got[0], total)
		}
	}
	g.Release()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}
