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

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// retiredRefuses closes a stream (after a launch, with a graph captured on
// it and a capture in progress, or never used) and checks every call that
// would record on it afterwards: each returns ErrStreamClosed (matching
// gpu.ErrStreamClosed too), TimeStream without calling its fn; Flush, Sync
// and CloseStream return nil; and the device keeps no state for it. It
// returns what it found wrong.
func retiredRefuses(d *wgpu.Device, x *wgpu.Buffer, used bool) []error {
	return retiredRefusesAfter(d, x, used, func() {})
}

// retiredRefusesAfter is retiredRefuses, calling afterClose right after the
// stream's CloseStream.
func retiredRefusesAfter(d *wgpu.Device, x *wgpu.Buffer, used bool, afterClose func()) []error {
	ctx := context.Background()
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	id := gpu.NewStreamID()
	var g *wgpu.Graph
	if used {
		if err := d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x); err != nil {
			return []error{err}
		}
		rec, err := d.NewGraphRecorder(id)
		if err != nil {
			return []error{err}
		}
		if err := rec.Launch(incKernel, [3]uint32{1, 1, 1}, x); err != nil {
			return []error{err}
		}
		if g, err = rec.FinishGraph(); err != nil {
			return []error{err}
		}
		defer g.Release()
	}
	open, err := d.NewGraphRecorder(id)
	if err != nil {
		return []error{err}
	}
	if err := open.Launch(incKernel, [3]uint32{1, 1, 1}, x); err != nil {
		return []error{err}
	}
	if err := d.CloseStream(id); err != nil {
		return []error{err}
	}
	afterClose()
	refused := func(op string, err error) {
		if !errors.Is(err, wgpu.ErrStreamClosed) || !errors.Is(err, gpu.ErrStreamClosed) || errors.Is(err, wgpu.ErrClosed) {
			fail("%s on a retired stream = %v, want ErrStreamClosed", op, err)
		}
	}
	refused("Launch", d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x))
	if g != nil {
		refused("Replay", g.Replay())
	}
	_, err = open.FinishGraph()
	refused("Finish", err)
	_, err = d.NewGraphRecorder(id)
	refused("Capture", err)
	if d.HasTimestamps() {
		called := false
		_, err := d.TimeStream(ctx, id, func() error { called = true; return nil })
		refused("TimeStream", err)
		if called {
			fail("TimeStream on a retired stream called its fn")
		}
	}
	for op, err := range map[string]error{"Flush": d.Flush(id), "Sync": d.Sync(ctx, id), "CloseStream": d.CloseStream(id)} {
		if err != nil {
			fail("%s of a retired stream = %v, want nil", op, err)
		}
	}
	if n := d.Stats().StreamsLive; n != 0 {
		fail("%d streams live after the calls on a retired one", n)
	}
	return errs
}

// TestRetiredStreamRefuses: a stream CloseStream retired is never made
// anew, whichever call reaches it, whether it had state or not.
func TestRetiredStreamRefuses(t *testing.T) {
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	for _, used := range []bool{true, false} {
		for _, err := range retiredRefuses(d, x, used) {
			t.Errorf("used %v: %v", used, err)
		}
	}
}

// TestRetiredRefusesCatchesResurrection: with the device made to forget
// the stream it just retired (wgpu.ForgetRetired, a hook of the test
// build only), so that later calls bring the stream back, the checker of
// TestRetiredStreamRefuses fails.
func TestRetiredRefusesCatchesResurrection(t *testing.T) {
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	errs := retiredRefusesAfter(d, x, true, func() { wgpu.ForgetRetired(d) })
	if len(errs) == 0 {
		t.Fatal("retiredRefuses found nothing wrong on a device that recreates retired streams")
	}
	t.Logf("caught: %v", errors.Join(errs...))
}

// TestRecordRacesCloseStream: launches, replays and timings racing
// CloseStream on their stream, round after round: each call returns nil
// (and then ran: CloseStream submitted it) or ErrStreamClosed, the buffer
// counts exactly the launches that returned nil, and no state is left
// after any round.
func TestRecordRacesCloseStream(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 256)
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	var ran atomic.Uint32
	for round := range rounds {
		id := gpu.NewStreamID()
		rec, err := d.NewGraphRecorder(id)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := rec.Launch(incKernel, [3]uint32{1, 1, 1}, x); err != nil {
				t.Fatal(err)
			}
		}
		g, err := rec.FinishGraph()
		if err != nil {
			t.Fatal(err)
		}
		var wg, started sync.WaitGroup
		// Each call returns how many of its launches were recorded (they
		// run) and its error.
		calls := []func() (uint32, error){
			func() (uint32, error) { return recorded(1, d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x)) },
			func() (uint32, error) { return recorded(2, g.Replay()) },
			func() (uint32, error) {
				if !d.HasTimestamps() {
					// A Flush of a retired id is nil: launch first, so
					// that this call too ends with ErrStreamClosed.
					n, err := recorded(1, d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x))
					if err != nil {
						return n, err
					}
					return n, d.Flush(id)
				}
				var n uint32
				_, err := d.TimeStream(ctx, id, func() error {
					var err error
					n, err = recorded(1, d.Launch(id, incKernel, [3]uint32{1, 1, 1}, x))
					return err
				})
				return n, err // the launch ran even when the second timestamp was refused
			},
		}
		for _, call := range calls {
			wg.Add(1)
			started.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					if i == 3 {
						started.Done()
					}
					runtime.Gosched() // without preemption (js/wasm), let CloseStream's goroutine in
					n, err := call()
					ran.Add(n)
					if err == nil {
						continue
					}
					if i < 3 {
						started.Done()
					}
					if !errors.Is(err, wgpu.ErrStreamClosed) {
						t.Errorf("round %d: %v", round, err)
					}
					return
				}
			}()
		}
		started.Wait()
		if err := d.CloseStream(id); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		g.Release()
		if n := d.Stats().StreamsLive; n != 0 {
			t.Fatalf("round %d: %d streams live after CloseStream", round, n)
		}
	}
	v, err := wgpu.Read[uint32](ctx, x, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != ran.Load() {
		t.Errorf("x[0] = %d, want %d: the launches that returned nil", v[0], ran.Load())
	}
}

// recorded returns n when err is nil, else 0, and err.
func recorded(n uint32, err error) (uint32, error) {
	if err != nil {
		return 0, err
	}
	return n, nil
}
