//go:build cgo

package wgpu_test

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/internal/low/race"
	"github.com/streamgate/streamgate/wgpu"
)

// soakCount is how many cancelled waits the soak runs: 200,000 with
// STREAMGATE_SOAK=1 (make soak), 20,000 in make test, 2,000 under -short.
func soakCount() int {
	if n, err := strconv.Atoi(os.Getenv("STREAMGATE_SOAK_N")); err == nil && n > 0 {
		return n
	}
	switch {
	case os.Getenv("STREAMGATE_SOAK") == "1":
		return 200_000
	case testing.Short():
		return 2_000
	}
	return 20_000
}

func rssBytes(t *testing.T) int64 {
	debug.FreeOSMemory() // the Go heap's free pages are not what is measured
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	f := strings.Fields(string(data))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

func heapBytes() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestCancelledWaitsLeaveNothing cancels Syncs in the middle of
// their waits and checks that, once the work is done, the Go heap and RSS
// are back where they were and every C status word is freed.
func TestCancelledWaitsLeaveNothing(t *testing.T) { testCancelledWaits(t, false) }

// TestCancelledReadsLeaveNothing does the same with a read-back cancelled
// every 100 Syncs, checking the status words and the Go heap. (RSS is left
// out here: wgpu-native on lavapipe grows by a few MiB per 100,000 launches
// interleaved with cancelled read-backs, with every object of ours freed.)
func TestCancelledReadsLeaveNothing(t *testing.T) { testCancelledWaits(t, true) }

func testCancelledWaits(t *testing.T, withReads bool) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	x := mustBuffer(t, d, 4096)
	const stream = 11
	n := soakCount()
	var cancelled, reads int
	round := func(count int) {
		for i := range count {
			if i%10 == 0 {
				if err := d.Launch(stream, incKernel, [3]uint32{16, 1, 1}, x); err != nil {
					t.Fatal(err)
				}
			}
			// A wait whose work is already done returns nil; one still
			// waiting is cancelled.
			switch err := d.Sync(newCancelMidWait(), stream); err {
			case context.Canceled:
				cancelled++
			case nil:
			default:
				t.Fatalf("Sync(cancelled mid-wait) = %v, want context.Canceled or nil", err)
			}
			if withReads && i%100 == 0 {
				reads++
				if _, err := wgpu.Read[byte](newCancelMidWait(), x, 0, int(x.Size())); err != nil && err != context.Canceled {
					t.Fatalf("Read(cancelled mid-wait) = %v, want context.Canceled or nil", err)
				}
			}
		}
		if err := d.Sync(ctx, stream); err != nil {
			t.Fatal(err)
		}
	}
	round(n) // warm up as long as the measured round: pools, caches, the allocators' high-water marks
	words0, heap0, rss0 := wgpu.LiveStatusWords(), heapBytes(), rssBytes(t)
	cancelled, reads = 0, 0
	round(n)
	words1, heap1, rss1 := wgpu.LiveStatusWords(), heapBytes(), rssBytes(t)
	t.Logf("%d Syncs (%d cancelled mid-wait), %d Reads: status words %d -> %d, Go heap %+d B, RSS %+d KiB",
		n, cancelled, reads, words0, words1, heap1-heap0, (rss1-rss0)/1024)
	if cancelled < n/10 {
		t.Errorf("only %d of %d Syncs were cancelled mid-wait: the soak does not exercise the path", cancelled, n)
	}
	if words1 > words0 {
		t.Errorf("live status words %d -> %d: cancelled waits leak C memory", words0, words1)
	}
	if heap1-heap0 > 64<<10 {
		t.Errorf("Go heap grew by %d bytes over %d cancelled waits, want < 64 KiB", heap1-heap0, n)
	}
	if !withReads && !race.Enabled && rss1-rss0 > 4<<20 {
		t.Errorf("RSS grew by %d KiB over %d cancelled waits, want < 4 MiB", (rss1-rss0)/1024, n)
	}
}
