//go:build cgo

// Desktop only: the defect this checker must catch needs a call preempted
// between its client's closed check and the device; in a browser (js/wasm,
// one thread, no preemption) nothing runs in between, so no round can
// show it.

package client_test

import (
	"testing"

	"github.com/streamgate/streamgate/internal/low/testhook"
	"github.com/streamgate/streamgate/streamgatetest"
)

// TestLifecycleModelCatchesResurrection: on a device made to recreate the
// streams CloseStream retired (testhook.RecreateRetiredStreams: a call
// racing Close brings its stream back), the model finds a violation.
func TestLifecycleModelCatchesResurrection(t *testing.T) {
	testhook.RecreateRetiredStreams.Store(true)
	defer testhook.RecreateRetiredStreams.Store(false)
	// A resurrection needs a call that passed its client's closed check to
	// reach the device after Close closed the stream: most rounds have one,
	// not all; run rounds until one is caught, up to a bound no correct
	// run of this defect gets near.
	for attempt := range 10 {
		d := streamgatetest.OpenDevice(t)
		if errs, _ := lifecycleModel(t, d, 25, uint64(100+attempt)); len(errs) > 0 {
			t.Logf("attempt %d caught: %v", attempt, errs[0])
			return
		}
	}
	t.Fatal("the lifecycle model found nothing wrong with a device that recreates retired streams, in 250 rounds")
}
