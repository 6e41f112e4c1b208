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
	// fastBits are the bits a read uses: fastResolve | fastQuiet.
	fastBits = fastResolve | fastQuiet
	// fastSeqShift is where the sequence number of the snapshot whose
	// writer last moved the word starts.
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

// spare holds what a writer allocated for a snapshot it has yet to
// publish: when its compare-and-swap fails, the retry builds the next
// snapshot in the same memory (never published, so no reader holds it)
// instead of allocating again.
type spare struct {
	small   *smallSnapshot
	trie    *trieSnapshot
	leaf    *leaf
	lowered bool // a failed attempt lowered the fast word
}

// publish tries to replace old, the snapshot next was built from, with
// next by compare-and-swap, keeping the fast word's invariant: before next
// can be published, the word loses the bits next does not have and takes
// next's sequence number, so that no older writer can raise them again;
// once next is published, the word is raised to next's bits unless a newer
// writer has moved it on. A writer whose compare-and-swap fails has only
// lowered bits: readers take the slow path until the next raise, which is
// never wrong. It reports whether next was published; the caller then
// retries from the snapshot published now.
func (r *Registry) publish(sp *spare, old, next *snapshot) bool {
	next.seq = old.seq + 1
	wo, wn := fastWord(old)&fastBits, fastWord(next)
	if keep := wo & wn; keep != wo {
		sp.lowered = true
		for {
			w := r.fast.Load()
			seq := max(w>>fastSeqShift, next.seq)
			if r.fast.CompareAndSwap(w, seq<<fastSeqShift|w&keep) {
				break
			}
		}
	}
	if !r.state.CompareAndSwap(old, next) {
		return false
	}
	r.raise(next)
	return true
}

// raise moves the fast word up to the bits of sn, published, unless it has
// them already or a writer of a newer snapshot has moved it since.
func (r *Registry) raise(sn *snapshot) {
	wn := fastWord(sn)
	for {
		w := r.fast.Load()
		if w&fastBits == wn&fastBits || w>>fastSeqShift > sn.seq {
			return
		}
		if r.fast.CompareAndSwap(w, wn) {
			return
		}
	}
}

// unchanged ends a write that found nothing to change in sn, the
// published snapshot: if an attempt lowered the fast word, it raises it
// back to sn's bits.
func (r *Registry) unchanged(sp *spare, sn *snapshot) {
	if sp.lowered {
		r.raise(sn)
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
