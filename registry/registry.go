package registry

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/streamgate/streamgate/lockfree"
)

// Registry holds the live stream mode overrides of a process and its process
// mode. It is safe for concurrent use by multiple goroutines. Mode, Resolve,
// Live and ProcessMode never block and never allocate; Set, Release and
// SetProcessMode are lock-free.
//
// Every operation is linearizable: the overrides, their live counts and the
// process mode are one immutable snapshot, replaced by compare-and-swap, so a
// read sees all of one write or none of it.
//
// The zero value is not usable; use [New]. A Registry must not be copied
// after first use.
type Registry struct {
	// fast is the fast-path word, read by Mode and Resolve before anything
	// else (layout at fastWord). It may claim less than the published
	// snapshot — a read then takes the slow path, which is never wrong —
	// but never more: each quiet bit it has set, the snapshot has, and a
	// Resolve answer it holds is the snapshot's. Writers lower it before
	// they publish and raise it after (see update).
	fast   atomic.Uint64
	state  lockfree.Value[snapshot] // the published snapshot; never nil after New
	leaked atomic.Uint64            // overrides released by their cleanup
}

// Default is the process's registry.
var Default = New()

// New returns an empty registry under [ProcessExecute].
func New() *Registry {
	r := new(Registry)
	sn := emptySnapshot(ProcessExecute)
	r.state.Store(sn)
	r.fast.Store(fastWord(sn))
	return r
}

// Override sets one stream's mode from [Registry.Set] until [Override.Release].
// Overrides of one stream nest: the newest live one decides.
//
// Release may be called from any goroutine, any number of times; only the
// first call does anything. An Override that becomes unreachable without
// Release is released by a cleanup when the garbage collector finds it, and
// counted in [Registry.Leaked]: relying on that is a bug, since until the
// collector runs the stream stays overridden.
type Override struct {
	r        *Registry
	id       uint64          // written once
	mode     StreamMode      // written once
	stream   ServiceStream   // written once
	released atomic.Bool     // set by the first Release
	cleanup  runtime.Cleanup // written once; stopped by Release
}

// leakedOverride is what an Override's cleanup needs: never the Override
// itself, which would keep it reachable.
type leakedOverride struct {
	r  *Registry
	id uint64
}

// Set puts stream s in mode until the returned override is released. It
// panics if mode is invalid.
func (r *Registry) Set(mode StreamMode, s ServiceStream) *Override {
	mode.mustValid()
	var id uint64
	r.update(func(old *snapshot) *snapshot {
		// The id comes from the snapshot it joins, so entries stay in id
		// order whichever of several racing writers publishes first.
		id = old.nextID
		return old.with(-1, &entry{id: id, stream: s, mode: mode}, old.process)
	})
	o := &Override{r: r, id: id, mode: mode, stream: s}
	o.cleanup = runtime.AddCleanup(o, releaseLeaked, leakedOverride{r: r, id: id})
	return o
}

// releaseLeaked is the cleanup of an override never released.
func releaseLeaked(l leakedOverride) {
	if l.r.remove(l.id) {
		l.r.leaked.Add(1)
	}
}

// Release ends the override: its stream's mode is again what the newest
// remaining override sets, or the default. It is idempotent and may be
// called from any goroutine.
func (o *Override) Release() {
	if o.released.CompareAndSwap(false, true) {
		o.cleanup.Stop()
	}
	// Every call removes the entry, not only the first: a Release that
	// loses the race above must not return while the winner has yet to
	// remove it (issue 3). When the entry is gone, remove publishes nothing.
	o.r.remove(o.id)
}

// Mode returns the mode the override sets.
func (o *Override) Mode() StreamMode { return o.mode }

// Stream returns the stream the override sets.
func (o *Override) Stream() ServiceStream { return o.stream }

// String describes the override, e.g. "Execute on 1/7".
func (o *Override) String() string {
	return fmt.Sprintf("%v on %v", o.mode, o.stream)
}

// update publishes fn(old) as lockfree.Value.Update does, keeping the fast
// word's invariant: before the new snapshot can be published, the word
// loses the quiet bits the new snapshot does not have (all of them when the
// default changes) and takes its sequence number, so no older writer can
// raise them again; after it is published, the word is raised to the new
// snapshot's bits unless a newer writer has moved it on. A writer whose CAS
// fails has only lowered bits: readers then take the slow path until the
// next raise, which is never wrong.
func (r *Registry) update(fn func(old *snapshot) *snapshot) {
	_, next := r.state.Update(func(old *snapshot) *snapshot {
		next := fn(old)
		if next == old {
			return old
		}
		next.seq = old.seq + 1
		keep := fastWord(old) & fastWord(next) & (fastResolve | fastQuiet)
		if keep != fastWord(old)&(fastResolve|fastQuiet) {
			for {
				w := r.fast.Load()
				seq := max(w>>fastSeqShift, next.seq)
				if r.fast.CompareAndSwap(w, seq<<fastSeqShift|w&keep) {
					break
				}
			}
		}
		return next
	})
	for {
		w := r.fast.Load()
		if w>>fastSeqShift > next.seq || w == fastWord(next) {
			return
		}
		if r.fast.CompareAndSwap(w, fastWord(next)) {
			return
		}
	}
}

// The fast word's layout.
const (
	// fastResolve is the low byte, Resolve's answer: 1 + the process
	// mode's stream mode when no live override sets the opposite, else 0.
	fastResolve = 0xff
	// fastQuiet is the second byte: the quiet bits (snapshot.quiet) << 8.
	// Its bits 2 to 7 are always 0, so an invalid default never reads 1.
	fastQuiet = 0xff00
	// fastSeqShift is where the snapshot's sequence number starts.
	fastSeqShift = 16
)

// fastWord is the fast word that describes sn exactly.
func fastWord(sn *snapshot) uint64 {
	w := sn.seq<<fastSeqShift | uint64(sn.quiet)<<8
	if sn.quiet>>sn.def&1 != 0 {
		w |= 1 + uint64(sn.def)
	}
	return w
}

// remove drops the entry with id, reporting whether it was live.
func (r *Registry) remove(id uint64) (removed bool) {
	r.update(func(old *snapshot) *snapshot {
		i := old.find(id)
		removed = i >= 0
		if !removed {
			return old
		}
		return old.with(i, nil, old.process)
	})
	return removed
}

// Mode returns s's mode now: what the newest live override of s sets, or def
// when none does. It panics if def is invalid.
//
// When no live override sets the mode opposite to def — the steady state of
// a launch loop — it returns def after one atomic load. Otherwise it looks s
// up in an index built when the overrides last changed: it never scans them.
func (r *Registry) Mode(s ServiceStream, def StreamMode) StreamMode {
	// Only bits 0 and 1 of the quiet byte are ever set: an invalid def (2
	// and up) always takes the slow path, which panics. Mode and Resolve are
	// at the inliner's budget: TestFastPathInlines guards it.
	if r.fast.Load()&(fastQuiet&(1<<8<<def)) == 0 {
		return r.slowMode(s, def)
	}
	return def
}

// slowMode is Mode past the fast word, out of line so that Mode inlines.
//
//go:noinline
func (r *Registry) slowMode(s ServiceStream, def StreamMode) StreamMode {
	return r.state.Load().mode(s, def)
}

// Resolve returns s's mode under the current process mode:
// Mode(s, ProcessMode().StreamMode()), with both read from one snapshot.
func (r *Registry) Resolve(s ServiceStream) StreamMode {
	if m := StreamMode(r.fast.Load()); m != 0 {
		return m - 1
	}
	return r.slowResolve(s)
}

// slowResolve is Resolve past the fast word, out of line so that Resolve
// inlines.
//
//go:noinline
func (r *Registry) slowResolve(s ServiceStream) StreamMode {
	sn := r.state.Load()
	return sn.mode(s, sn.def)
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
	r.update(func(old *snapshot) *snapshot {
		previous = old.process
		if previous == p {
			return old
		}
		return old.with(-1, nil, p)
	})
	return previous
}
