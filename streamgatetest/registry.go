package streamgatetest

import (
	"testing"

	"github.com/streamgate/streamgate/registry"
)

// CheckRegistry makes t fail, when it ends, if r then has a live override
// or has counted a leaked one since CheckRegistry was called: an override
// the test (or the code it tests) set and never released. A leaked
// override is one the garbage collector released; one not yet collected is
// still live. Either way the fix is a Release, usually deferred:
//
//	o := c.Measure()
//	defer o.Release()
//
// Call it at the start of the test; the check runs in t.Cleanup, after the
// cleanups registered later (so after a device or client the test closes
// through t.Cleanup). Give each test its own registry ([registry.New]) or
// use it only in tests that do not run in parallel with others on r: an
// override another test holds counts as live.
func CheckRegistry(t testing.TB, r *registry.Registry) {
	t.Helper()
	if r == nil {
		panic("streamgatetest: CheckRegistry(nil)")
	}
	leaked := r.Leaked()
	t.Cleanup(func() {
		t.Helper()
		exec, disc := r.Live(registry.Execute), r.Live(registry.Discard)
		if exec+disc > 0 {
			t.Errorf("streamgatetest: the test ended with %d live overrides (Execute %d, Discard %d): release each Override, e.g. defer o.Release()",
				exec+disc, exec, disc)
		}
		if n := r.Leaked() - leaked; n > 0 {
			t.Errorf("streamgatetest: %d overrides leaked during the test: the garbage collector released them, not Release", n)
		}
	})
}
