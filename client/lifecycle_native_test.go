//go:build cgo

// Desktop only: the defect this checker must catch needs a call preempted
// between its client's closed check and the device; in a browser (js/wasm,
// one thread, no preemption) nothing runs in between, so no round can
// show it.

package client_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

// resurrecting is a device that brings back the streams CloseStream
// retired: a launch that the device refuses on a retired stream is made on
// a fresh stream in its place, which nothing closes. It is the broken
// device the lifecycle model must catch; it exists only in this test.
type resurrecting struct {
	*wgpu.Device
	mu    sync.Mutex
	fresh map[gpu.StreamID]gpu.StreamID
}

func (r *resurrecting) Launch(id gpu.StreamID, k *gpu.Kernel, wg [3]uint32, bindings ...gpu.Buffer) error {
	err := r.Device.Launch(id, k, wg, bindings...)
	if !errors.Is(err, gpu.ErrStreamClosed) {
		return err
	}
	r.mu.Lock()
	f, ok := r.fresh[id]
	if !ok {
		f = gpu.NewStreamID()
		r.fresh[id] = f
	}
	r.mu.Unlock()
	return r.Device.Launch(f, k, wg, bindings...)
}

// TestLifecycleModelCatchesResurrection: on a device that recreates the
// streams CloseStream retired (a call racing Close brings its stream
// back), the model finds a violation.
func TestLifecycleModelCatchesResurrection(t *testing.T) {
	// A resurrection needs a call that passed its client's closed check to
	// reach the device after Close closed the stream: most rounds have one,
	// not all; run rounds until one is caught, up to a bound no correct
	// run of this defect gets near.
	for attempt := range 10 {
		d := streamgatetest.OpenDevice(t)
		svc := &resurrecting{Device: d, fresh: map[gpu.StreamID]gpu.StreamID{}}
		if errs, _ := lifecycleModelOn(t, d, svc, 25, uint64(100+attempt)); len(errs) > 0 {
			t.Logf("attempt %d caught: %v", attempt, errs[0])
			return
		}
	}
	t.Fatal("the lifecycle model found nothing wrong with a device that recreates retired streams, in 250 rounds")
}
