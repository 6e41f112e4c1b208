//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestStagingClasses checks that reads share a power-of-two staging buffer
// and that the pool stays under its limit, on the desktop and in the page.
func TestStagingClasses(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{StagingPoolBytes: 4096})
	ctx := testCtx(t)
	b := mustBuffer(t, d, 8192)
	for _, size := range []int{4, 256, 200, 100} { // all in the 256-byte class
		if err := wgpu.ReadInto(ctx, b, 0, make([]byte, size)); err != nil {
			t.Fatal(err)
		}
	}
	if s := d.Stats(); s.StagingCreated != 1 || s.StagingHeld != 1 || s.StagingBytesHeld != 256 {
		t.Fatalf("after four reads of the 256-byte class, Stats = %+v, want 1 created and held", s)
	}
	if err := wgpu.ReadInto(ctx, b, 0, make([]byte, 8192)); err != nil { // larger than the pool: released after
		t.Fatal(err)
	}
	if s := d.Stats(); s.StagingCreated != 2 || s.StagingHeld != 1 || s.StagingBytesHeld != 256 {
		t.Fatalf("after a read over the pool's limit, Stats = %+v, want 2 created, 256 bytes held", s)
	}
	nd := openTestDevice(t, wgpu.Options{StagingPoolBytes: -1})
	nb := mustBuffer(t, nd, 64)
	for range 3 {
		if _, err := wgpu.Read[byte](ctx, nb, 0, int(nb.Size())); err != nil {
			t.Fatal(err)
		}
	}
	if s := nd.Stats(); s.StagingCreated != 3 || s.StagingHeld != 0 {
		t.Fatalf("without a pool, Stats = %+v, want 3 created, none held", s)
	}
}

// cancelMidWait is a context that is live for its first Err check and
// cancelled from the second on: a Sync or Read that sees it gets past its
// entry check, starts waiting, and is then cancelled mid-wait.
type cancelMidWait struct {
	context.Context
	checks atomic.Int32
	done   chan struct{}
}

func newCancelMidWait() *cancelMidWait {
	c := &cancelMidWait{Context: context.Background(), done: make(chan struct{})}
	close(c.done)
	return c
}

func (c *cancelMidWait) Done() <-chan struct{} { return c.done }

func (c *cancelMidWait) Err() error {
	if c.checks.Add(1) == 1 {
		return nil
	}
	return context.Canceled
}

// TestCancelledReadsReturnStaging: a read-back cancelled while it waits
// leaves its staging buffer to the pool once the copy is mapped, so a loop
// of cancelled and completed reads makes a few staging buffers, not one
// each, and every completed read sees every launch before it.
func TestCancelledReadsReturnStaging(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	const n = 1 << 16
	x, err := wgpu.NewBufferFrom(d, 0, make([]uint32, n))
	if err != nil {
		t.Fatal(err)
	}
	s := gpu.NewStreamID()
	dst := make([]uint32, n)
	cancelled := 0
	for i := range 50 {
		if err := d.Launch(s, incKernel, [3]uint32{n / 64, 1, 1}, x); err != nil {
			t.Fatal(err)
		}
		switch err := wgpu.ReadInto(newCancelMidWait(), x, 0, dst); err {
		case context.Canceled:
			cancelled++
		case nil:
		default:
			t.Fatalf("ReadInto(cancelled mid-wait) = %v", err)
		}
		got, err := wgpu.Read[uint32](ctx, x, 0, n)
		if err != nil || got[0] != uint32(i+1) || got[n-1] != uint32(i+1) {
			t.Fatalf("step %d: Read = %d..%d, %v, want %d", i, got[0], got[n-1], err, i+1)
		}
	}
	if _, err := wgpu.Read[uint32](ctx, x, 0, 1); err != nil { // the desktop reclaims drained buffers here
		t.Fatal(err)
	}
	if cancelled == 0 {
		t.Fatal("no read was cancelled mid-wait: the test tests nothing")
	}
	if st := d.Stats(); st.StagingCreated > 4 {
		t.Errorf("StagingCreated = %d after %d cancelled and 50 completed reads: cancelled reads keep their staging buffers", st.StagingCreated, cancelled)
	}
}
