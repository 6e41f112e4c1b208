package bench

import (
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/registry"
)

// seed is a Go port of the seed design (seed/stream_mode.rs): the live
// overrides, oldest first, in a slice behind a sync.Mutex; Mode scans them
// newest-first under the lock. Its fast path is the seed's: when no live
// override sets the mode opposite to the default, return the default after
// one atomic load of that mode's live counter.
//
// seed is safe for concurrent use by multiple goroutines. The zero value is
// an empty registry ready to use. It must not be copied after first use.
//
// seed is the reference design; seedNewestFirst, rwMutex (rwmutex.go) and
// rbMutex (rbmutex.go) are its deliberate variants. All four keep their
// state in a list (list.go) and do the seed's list work through its
// methods, which inline, so that BenchmarkMode, ModeChurn and SetRelease
// compare the locks (and, for seedNewestFirst, the removal) and nothing
// else: no interface call or dictionary that one of them would pay and
// the seed's Rust original does not. What each repeats is its locking.
type seed struct {
	mu sync.Mutex
	list
}

// Set puts s in mode until the handle is released.
func (r *seed) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	return r.set(r, mode, s)
}

// set is Set for seed and seedNewestFirst, whose handle u ends: the one
// direct call they both pay over rwMutex's and rbMutex's Set.
func (r *seed) set(u unsetter, mode registry.StreamMode, s registry.ServiceStream) handle {
	o := r.override(u, mode, s)
	r.mu.Lock()
	r.add(o)
	r.mu.Unlock()
	return o
}

// Mode returns what the newest live override of s sets, or def.
func (r *seed) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.settled(def) {
		return def
	}
	r.mu.Lock()
	m := r.newest(s, def)
	r.mu.Unlock()
	return m
}

func (r *seed) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	r.remove(id, mode)
	r.mu.Unlock()
}

// seedOverride is the handle of the lock-based implementations. The seed's
// guard is released once by Rust's Drop; released stands in for that, so
// that a second Release does nothing.
type seedOverride struct {
	r        unsetter               // written once
	id       uint64                 // written once
	stream   registry.ServiceStream // written once
	mode     registry.StreamMode    // written once
	released atomic.Bool            // set by the first Release
}

// unsetter is the implementation a seedOverride belongs to: an interface
// rather than a method value, so that a handle is one allocation.
type unsetter interface {
	unset(s registry.ServiceStream, id uint64, mode registry.StreamMode)
}

// Release ends the override; only the first call does anything.
func (o *seedOverride) Release() {
	if o.released.Swap(true) {
		return
	}
	o.r.unset(o.stream, o.id, o.mode)
}

// seedNewestFirst is the seed with one change: Release finds its entry by
// scanning newest-first and removes that one entry (slices.Delete), where
// the seed's retain scans and rewrites every entry. Releasing the newest
// override then costs O(1) instead of O(k): the fairest lock-based
// baseline for a Set and its Release. Everything else, the fast path and
// the reads included, is the seed's.
//
// seedNewestFirst is safe for concurrent use by multiple goroutines. The
// zero value is an empty registry ready to use. It must not be copied
// after first use.
type seedNewestFirst struct {
	seed
}

// Set puts s in mode until the handle is released: seed's, but the
// handle's unset is seedNewestFirst's.
func (r *seedNewestFirst) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	return r.set(r, mode, s)
}

func (r *seedNewestFirst) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	r.entries = withoutNewest(r.entries, id)
	r.live[mode].Add(-1)
	r.mu.Unlock()
}
