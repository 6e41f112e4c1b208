//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// The tests of this file hold in both builds the same way: each is a
// defect the browser's device once had and the desktop's did not, while
// the two were separate copies.

// TestCloseDuringReadIsErrClosed: Close while read-backs wait makes each
// of them return an error matching ErrClosed (or its data, when it
// finished first), never the driver's complaint about a buffer unmapped
// under it.
func TestCloseDuringReadIsErrClosed(t *testing.T) {
	d := openTestDevice(t)
	const n = 40
	bufs := make([]*wgpu.Buffer, n)
	for i := range bufs {
		bufs[i] = mustBuffer(t, d, 4096)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	started := make(chan struct{}, n)
	for i := range n {
		wg.Go(func() {
			started <- struct{}{}
			_, errs[i] = wgpu.Read[uint32](context.Background(), bufs[i], 0, 1024)
		})
	}
	for range n {
		<-started
	}
	runtime.Gosched()
	if err := d.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	wg.Wait()
	closed := 0
	for i, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, wgpu.ErrClosed):
			closed++
		default:
			t.Errorf("Read %d racing Close = %v, want nil or an error matching ErrClosed", i, err)
		}
	}
	t.Logf("%d of %d reads returned ErrClosed, the others their data", closed, n)
	if st := d.Stats(); st.StagingHeld != 0 || st.BuffersLive != 0 {
		t.Errorf("after Close: %d staging buffers held, %d buffers live; want 0", st.StagingHeld, st.BuffersLive)
	}
}

// TestReleasedWhilePooledIsNotReused: a buffer released while it waits in
// the TempBuffer pool is never handed out again.
func TestReleasedWhilePooledIsNotReused(t *testing.T) {
	d := openTestDevice(t)
	b, err := d.TempBuffer(256, 0)
	if err != nil {
		t.Fatal(err)
	}
	b.Recycle()
	b.Release()
	if err := d.Sync(context.Background(), gpu.NewStreamID()); err != nil {
		t.Fatal(err)
	}
	c, err := d.TempBuffer(256, 0)
	if err != nil {
		t.Fatalf("TempBuffer after a pooled buffer's Release = %v", err)
	}
	if c == b {
		t.Fatal("TempBuffer handed out the buffer released while pooled")
	}
	if err := wgpu.Write(c, 0, []uint32{7}); err != nil {
		t.Fatalf("Write to the TempBuffer = %v", err)
	}
	got, err := wgpu.Read[uint32](context.Background(), c, 0, 1)
	if err != nil || got[0] != 7 {
		t.Fatalf("Read of the TempBuffer = %v, %v; want [7]", got, err)
	}
}

// TestNoGrowthBetweenSyncs: a loop of one kind of operation with no Sync
// in between — launches flushed, uploads, read-backs, buffers made and
// released, buffers taken from the pool and recycled — keeps the Go heap,
// and in a browser the page's JS heap, flat: nothing an operation leaves
// for the next Sync grows with their number.
func TestNoGrowthBetweenSyncs(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 256)
	id := gpu.NewStreamID()
	ops := map[string]func() error{
		"launch and flush": func() error {
			if err := d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
				return err
			}
			return d.Flush(id)
		},
		"write": func() error { return wgpu.Write(x, 0, []uint32{1, 2, 3, 4}) },
		"read": func() error {
			_, err := wgpu.Read[uint32](ctx, x, 0, 4)
			return err
		},
		"new buffer": func() error {
			b, err := d.NewBuffer(256, 0)
			if err == nil {
				b.Release()
			}
			return err
		},
		"temp buffer": func() error {
			b, err := d.TempBuffer(256, 0)
			if err == nil {
				b.Recycle()
			}
			return err
		},
	}
	names := make([]string, 0, len(ops))
	for name := range ops {
		names = append(names, name)
	}
	sort.Strings(names)
	const n = 3000
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			run := func(k int) {
				for range k {
					if err := ops[name](); err != nil {
						t.Fatal(err)
					}
				}
			}
			run(n / 3) // the pools and the caches fill
			// Two spans of n operations each: a leak grows the heap in both,
			// while a collection's timing moves one span's figure either way.
			g0, j0, jsOK := heaps()
			run(n)
			g1, j1, _ := heaps()
			run(n)
			g2, j2, _ := heaps()
			perGo := float64(min(g1-g0, g2-g1)) / float64(n)
			t.Logf("2×%d ops: Go heap %+d B, %+d B (%.1f B/op)", n, g1-g0, g2-g1, perGo)
			if perGo > 16 {
				t.Errorf("the Go heap grew %.1f bytes per %s, over 16", perGo, name)
			}
			if jsOK {
				perJS := float64(min(j1-j0, j2-j1)) / float64(n)
				t.Logf("2×%d ops: JS heap %+d B, %+d B (%.1f B/op)", n, j1-j0, j2-j1, perJS)
				if perJS > 16 {
					t.Errorf("the page's JS heap grew %.1f bytes per %s, over 16", perJS, name)
				}
			}
		})
	}
	if err := d.Sync(ctx, id); err != nil {
		t.Fatal(err)
	}
}

// goHeap returns the Go heap in use after a collection.
func goHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
