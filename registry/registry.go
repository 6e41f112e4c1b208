package registry

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"weak"

	"github.com/streamgate/streamgate/lockfree"
)

// Registry holds the live stream mode overrides of a process and its process
// mode. It is safe for concurrent use by multiple goroutines. Mode, Resolve,
// Live and ProcessMode never block and never allocate; Set, Release and
// SetProcessMode are lock-free: each builds a new snapshot from the one it
// loaded and publishes it by compare-and-swap, retrying from the newer one
// when another writer got there first, so a writer descheduled mid-write
// holds up no other.
//
// Every operation is linearizable: the overrides, their live counts and the
// process mode are one immutable snapshot, replaced whole by one
// compare-and-swap, so a read sees all of one write or none of it.
//
// The zero value is not usable; use [New]. A Registry must not be copied
// after first use.
type Registry struct {
	// fast is the fast-path word, read by Mode and Resolve before anything
	// else (layout, protocol and proof in fast.go). It may claim less than
	// the published snapshot — a read then takes the slow path, which is
	// never wrong — but never more: each quiet bit it has set, the snapshot
	// has, and a Resolve answer it holds is the snapshot's. Writers change
	// it only by compare-and-swap: lowerFast before they publish, syncFast
	// after.
	fast atomic.Uint64
	// state is the published snapshot, never nil after New, replaced only
	// by compare-and-swap (tryPublish).
	state  lockfree.Value[snapshot]
	leaked atomic.Uint64 // overrides released by their cleanup
	young  young         // overrides without a cleanup yet (leak.go); lock-free
}

// Default is the process's registry.
var Default = New()

// New returns an empty registry under [ProcessExecute].
func New() *Registry {
	r := new(Registry)
	sn := emptySnapshot(ProcessExecute)
	r.state.Store(sn)
	r.fast.Store(fastWord(sn))
	tickEveryGC(weak.Make(r))
	return r
}

// Override sets one stream's mode from [Registry.Set] until [Override.Release].
// Overrides of one stream nest: the newest live one decides.
//
// Release may be called from any goroutine, any number of times; only the
// first call does anything. An Override that becomes unreachable without
// Release is released by a cleanup once the garbage collector finds it (at
// the second collection after it is set, at the latest the second after it
// is dropped), and counted in [Registry.Leaked]: relying on that is a bug,
// since until then the stream stays overridden.
type Override struct {
	r      *Registry     // written once
	id     uint64        // written once, before Set returns
	mode   StreamMode    // written once
	stream ServiceStream // written once
	// state is overrideYoung, overrideWatched or overrideReleased (leak.go).
	state atomic.Uint32
	// cleanup is written once, before state becomes overrideWatched; the
	// first Release stops it.
	cleanup runtime.Cleanup
	// older links the young list (leak.go): the override pushed before
	// this one. Written by Set before the push that publishes it; read and
	// cleared only by the hand-over that took the list.
	older *Override
	// youngLen is how many overrides the young list held with this one on
	// top: written by Set before the push, never changed after.
	youngLen int32
}

// Set puts stream s in mode until the returned override is released. It
// panics if mode is invalid.
func (r *Registry) Set(mode StreamMode, s ServiceStream) *Override {
	mode.mustValid()
	o := &Override{r: r, mode: mode, stream: s}
	for attempt := 0; ; attempt++ {
		old := r.state.Load()
		if r.tryPublish(old, old.withSet(s, mode), attempt) {
			o.id = old.nextID
			break
		}
	}
	r.syncFast()
	r.addYoung(o)
	return o
}

// Release ends the override: its stream's mode is again what the newest
// remaining override sets, or the default. It is idempotent and may be
// called from any goroutine.
func (o *Override) Release() {
	if o.state.Swap(overrideReleased) == overrideWatched {
		o.cleanup.Stop()
	}
	// Every call removes the entry, not only the first: a Release that
	// loses the race above must not return while the winner has yet to
	// remove it, or its caller could still read the override after its
	// Release returned. When the entry is gone, remove publishes nothing.
	o.r.remove(o.stream, o.id)
}

// Mode returns the mode the override sets.
func (o *Override) Mode() StreamMode { return o.mode }

// Stream returns the stream the override sets.
func (o *Override) Stream() ServiceStream { return o.stream }

// String describes the override, e.g. "Execute on 1/7".
func (o *Override) String() string {
	return fmt.Sprintf("%v on %v", o.mode, o.stream)
}

// remove drops the override of s with id, reporting whether it was live:
// whether this call's snapshot, the one it published, removed it.
func (r *Registry) remove(s ServiceStream, id uint64) (removed bool) {
	attempt := 0
	for ; ; attempt++ {
		old := r.state.Load()
		next := old.withRelease(s, id)
		if next == old {
			break // not live (any more): nothing to publish
		}
		if r.tryPublish(old, next, attempt) {
			removed = true
			break
		}
	}
	if removed || attempt > 0 {
		r.syncFast() // an attempt lowered the fast word
	}
	return removed
}

// Live returns how many live overrides set mode. It panics if mode is
// invalid.
func (r *Registry) Live(mode StreamMode) int {
	mode.mustValid()
	return int(r.state.Load().live[mode])
}

// Leaked returns how many overrides were released by the garbage collector's
// cleanup rather than by Release: each is a bug in the program that set it.
func (r *Registry) Leaked() uint64 { return r.leaked.Load() }

// ProcessMode returns the process mode.
func (r *Registry) ProcessMode() ProcessMode { return r.state.Load().process }

// SetProcessMode sets the process mode and returns the previous one. It
// panics if p is invalid.
func (r *Registry) SetProcessMode(p ProcessMode) (previous ProcessMode) {
	_ = p.StreamMode() // validates
	attempt := 0
	for ; ; attempt++ {
		old := r.state.Load()
		previous = old.process
		if previous == p || r.tryPublish(old, old.withProcess(p), attempt) {
			break
		}
	}
	if previous != p || attempt > 0 {
		r.syncFast() // an attempt lowered the fast word
	}
	return previous
}
