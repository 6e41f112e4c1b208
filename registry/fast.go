package registry

// The fast word: one atomic word that answers Mode and Resolve when no live
// override sets the mode opposite to the default, the steady state of a
// launch loop. Its invariant: it may claim less than the published
// snapshot — a read then takes the slow path, which is never wrong — but
// never more: each quiet bit it has set, the snapshot has, and a Resolve
// answer it holds is the snapshot's. Writers lower it before they publish
// and raise it after (see publish).

// The fast word's layout.
const (
	// fastResolve is the low byte, Resolve's answer: 1 + the process
	// mode's stream mode when no live override sets the opposite, else 0.
	fastResolve = 0xff
	// fastQuiet is the second byte: the quiet bits (snapshot.quiet) << 8.
	// Its bits 2 to 7 are always 0, so an invalid default never reads 1.
	fastQuiet = 0xff00
)

// fastWord is the fast word that describes sn exactly.
func fastWord(sn *snapshot) uint64 {
	w := uint64(sn.quiet) << 8
	if sn.quiet>>sn.def&1 != 0 {
		w |= (1 + uint64(sn.def)) & fastResolve
	}
	return w
}

// publish publishes next, built from old, the published snapshot; r.mu is
// held, so no other writer moves the fast word or the snapshot meanwhile.
// It keeps the fast word's invariant: before next is published, the word
// loses the bits next does not have; after, it takes next's.
func (r *Registry) publish(old, next *snapshot) {
	next.seq = old.seq + 1
	w, wn := fastWord(old), fastWord(next)
	if low := w & wn; low != w {
		r.fast.Store(low)
	}
	r.state.Store(next)
	if wn != w&wn {
		r.fast.Store(wn)
	}
}

// Mode returns s's mode now: what the newest live override of s sets, or def
// when none does. It panics if def is invalid.
//
// When no live override sets the mode opposite to def — the steady state of
// a launch loop — it returns def after one atomic load. Otherwise it scans
// the snapshot's small table (up to 8 streams overridden) or looks s up in
// the trie of the overrides: a few pointer hops, never a scan of more than
// 8, never a lock or an allocation.
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
	// snapshot.mode, written out here: a call less on every read that
	// leaves the fast word.
	sn := r.state.Load()
	if def > Discard {
		panic(invalidStreamMode(def))
	}
	if sn.quiet>>def&1 != 0 {
		return def
	}
	if t := sn.tab; t != nil {
		ss := t.streams[:sn.streams]
		for i := len(ss) - 1; i >= 0; i-- { // newest first
			if ss[i].Stream == s.Stream && ss[i].Service == s.Service {
				return t.modes[i]
			}
		}
		return def
	}
	return sn.trie().lookupMode(s, def)
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
