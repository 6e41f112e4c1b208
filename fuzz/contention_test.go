package fuzz

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/streamgate/streamgate/internal/low/testhook"
)

// contention counts what the write hook of [contend] did.
type contention struct {
	attempts atomic.Int64 // write attempts, first tries and retries
	retries  atomic.Int64 // attempts after a lost race
	injected atomic.Int64 // attempts made to lose to a writer publishing a copy
}

// contend makes every registry's writers lose races until the test ends
// (see testhook.RegistryWrite): of every four write attempts, one loses its
// compare-and-swap to a writer that publishes a copy of its snapshot, and
// one yields the processor between readying its snapshot and publishing
// it, so that the other goroutines' writes land in that window and it
// loses to them. A Release, a Set or a SetProcessMode may so lose several
// times in a row. Tests that call it must not run in parallel.
func contend(t testing.TB) *contention {
	c := new(contention)
	hook := func(_ any, attempt int) bool {
		if attempt > 0 {
			c.retries.Add(1)
		}
		switch c.attempts.Add(1) % 4 {
		case 1:
			c.injected.Add(1)
			return true
		case 2:
			runtime.Gosched()
		}
		return false
	}
	testhook.RegistryWrite.Store(&hook)
	t.Cleanup(func() { testhook.RegistryWrite.Store(nil) })
	return c
}

// loseFirst makes every registry write lose its first attempt until the
// test ends, to a writer that publishes a copy: each write then retries
// once, from a snapshot it did not build on.
func loseFirst(t testing.TB) {
	hook := func(_ any, attempt int) bool { return attempt == 0 }
	testhook.RegistryWrite.Store(&hook)
	t.Cleanup(func() { testhook.RegistryWrite.Store(nil) })
}
