package registry

import "testing"

// TestLosingReleaseReturnsAfterRemoval: when two goroutines release the
// same override at once, the one that loses returns only once the override
// is gone. Release marks the override released (a CompareAndSwap on
// o.released) before it removes the entry. Were a second Release that loses
// that CompareAndSwap to return at once, and the first preempted between
// the two steps, the second would return while the override is still live:
// a caller that released it and then reads its stream would still see the
// override (and Live still count it), which no sequential order of the two
// Releases and the read allows.
//
// FuzzConcurrent found it (package fuzz): g0 and g2 both release o5, g2's
// Release returns, and a Live that starts after that still counts o5.
//
// The test replays that interleaving deterministically by doing the first
// Release's first step by hand. The fix: every Release call removes the
// entry (remove is idempotent: a miss publishes nothing), and only the first
// also stops the cleanup (when it has one: see leak.go).
func TestLosingReleaseReturnsAfterRemoval(t *testing.T) {
	r := New()
	s := ServiceStream{Service: 1, Stream: 1}
	o := r.Set(Execute, s)
	// Goroutine A calls o.Release() and is preempted right after its
	// CompareAndSwap, before o.r.remove(o.id):
	if o.state.Swap(overrideReleased) == overrideReleased {
		t.Fatal("the override was released already")
	}
	// Goroutine B calls o.Release(), which returns:
	o.Release()
	// B now reads: the override must be gone.
	if got := r.Mode(s, Discard); got != Discard {
		t.Errorf("after Release returned: Mode(%v, Discard) = %v, want Discard", s, got)
	}
	if n := r.Live(Execute); n != 0 {
		t.Errorf("after Release returned: Live(Execute) = %d, want 0", n)
	}
	// A resumes (the override is young: it has no cleanup to stop).
	r.remove(o.stream, o.id)
}
