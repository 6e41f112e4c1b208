package bench

import (
	"slices"
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
// seed is the reference design, and rwMutex (rwmutex.go), rbMutex
// (rbmutex.go) and seedNewestFirst are deliberate copies of it: each
// repeats its fields, Set, Mode and unset line for line, changing only the
// lock (or, for seedNewestFirst, the removal), so that BenchmarkMode,
// ModeChurn and SetRelease compare the locks and nothing else — no shared
// helper or interface call that one of them would pay and the seed's
// Rust original does not. Change one, change them all.
type seed struct {
	mu      sync.Mutex
	entries []entry         // guarded by mu; live overrides, oldest first
	live    [2]atomic.Int64 // live overrides setting each mode; changed under mu
	nextID  atomic.Uint64   // the id the next override takes
}

// Set puts s in mode until the handle is released.
func (r *seed) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	id := r.nextID.Add(1) - 1
	r.mu.Lock()
	r.entries = append(r.entries, entry{id: id, stream: s, mode: mode})
	r.live[mode].Add(1)
	r.mu.Unlock()
	return &seedOverride{r: r, id: id, stream: s, mode: mode}
}

// Mode returns what the newest live override of s sets, or def.
func (r *seed) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.live[def.Opposite()].Load() == 0 {
		return def
	}
	r.mu.Lock()
	m := newest(r.entries, s, def)
	r.mu.Unlock()
	return m
}

func (r *seed) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	r.entries = without(r.entries, id)
	r.live[mode].Add(-1)
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

// Set puts s in mode until the handle is released: seed.Set, repeated so
// that the handle's unset is seedNewestFirst's (see seed's doc).
func (r *seedNewestFirst) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	id := r.nextID.Add(1) - 1
	r.mu.Lock()
	r.entries = append(r.entries, entry{id: id, stream: s, mode: mode})
	r.live[mode].Add(1)
	r.mu.Unlock()
	return &seedOverride{r: r, id: id, stream: s, mode: mode}
}

func (r *seedNewestFirst) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	for i := len(r.entries) - 1; i >= 0; i-- {
		if r.entries[i].id == id {
			r.entries = slices.Delete(r.entries, i, i+1)
			break
		}
	}
	r.live[mode].Add(-1)
	r.mu.Unlock()
}
