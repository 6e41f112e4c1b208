package registry

// The fast word: one atomic word that answers Mode and Resolve when no live
// override sets the mode opposite to the default, the steady state of a
// launch loop. Its invariant: it may claim less than the published
// snapshot — a read then takes the slow path, which is never wrong — but
// never more: each quiet bit it has set, the snapshot has, and a Resolve
// answer it holds is the snapshot's. Writers lower it before they publish
// and raise it after (see update).

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

// update publishes fn(old) as lockfree.Value.Update does, keeping the fast
// word's invariant: before the new snapshot can be published, the word
// loses the quiet bits the new snapshot does not have (all of them when the
// default changes) and takes its sequence number, so no older writer can
// raise them again; after it is published, the word is raised to the new
// snapshot's bits unless a newer writer has moved it on. A writer whose CAS
// fails has only lowered bits: readers then take the slow path until the
// next raise, which is never wrong.
//
// fn returns old itself for "no change": then nothing is published.
func (r *Registry) update(fn func(old *snapshot) *snapshot) {
	var next *snapshot
	for {
		old := r.state.Load()
		next = fn(old)
		if next == old {
			return
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
		if r.state.CompareAndSwap(old, next) {
			break
		}
	}
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

// Mode returns s's mode now: what the newest live override of s sets, or def
// when none does. It panics if def is invalid.
//
// When no live override sets the mode opposite to def — the steady state of
// a launch loop — it returns def after one atomic load. Otherwise it looks s
// up in the trie of the overrides: a few pointer hops, never a scan of
// them, never a lock or an allocation.
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
