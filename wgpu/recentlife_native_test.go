//go:build cgo

package wgpu_test

import (
	"context"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestRepeatedLaunchHoldsOffRelease: a Release of the buffer that a
// repeated launch binds, begun between the launch's check that the buffer
// is live and its naming the stream as the buffer's user (the flat path's
// window, wgpu.SetRecentHook), waits until the launch is recorded, and then
// flushes it before it releases the bind group: the launch runs and
// nothing reaches the driver with a released bind group. The launch's
// first of the batch is what the window needs: its bind group is not yet
// in the batch's used set, so the Release learns of the stream only from
// the launch's record. A flat path that holds only the stream's lock lets
// the Release finish inside the window (the test then fails, and closes
// the device without flushing the launch, which would abort the process).
func TestRepeatedLaunchHoldsOffRelease(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	k := gpu.NewKernel("inc", incWGSL, "main")
	s := gpu.NewStreamID()
	one := [3]uint32{1, 1, 1}
	uncaptured := wgpu.UncapturedErrors()
	for round := range 3 {
		b := mustBuffer(t, d, 16)
		if err := d.Launch(s, k, one, b); err != nil { // fills the recent slot
			t.Fatal(err)
		}
		if err := d.Sync(ctx, s); err != nil { // empties the used set
			t.Fatal(err)
		}
		released := make(chan struct{})
		early := false
		clear := wgpu.SetRecentHook(func() {
			go func() { b.Release(); close(released) }()
			select {
			case <-released:
				early = true
			case <-time.After(50 * time.Millisecond):
			}
		})
		recorded := wgpu.LaunchRecent(d, s, k, one, b)
		clear()
		if !recorded {
			t.Fatalf("round %d: the repeated launch did not take the flat path", round)
		}
		if early {
			t.Errorf("round %d: the buffer's Release finished between the repeated launch's checks and its record", round)
			d.Close() // discards the batch, which names a released bind group
			return
		}
		<-released
		if err := d.Launch(s, k, one, b); err == nil {
			t.Fatalf("round %d: a launch binding the released buffer was accepted", round)
		}
		if err := d.Sync(ctx, s); err != nil {
			t.Fatalf("round %d: Sync after the Release = %v", round, err)
		}
		if n := wgpu.UncapturedErrors() - uncaptured; n != 0 {
			t.Fatalf("round %d: %d uncaptured driver errors", round, n)
		}
	}
}
