package registry

import "github.com/streamgate/streamgate/internal/low/testhook"

// The fast word: one atomic word that answers Mode and Resolve when no live
// override sets the mode opposite to the default, the steady state of a
// launch loop. Its invariant: it may claim less than the published
// snapshot — a read then takes the slow path, which is never wrong — but
// never more: each quiet bit it has set, the snapshot has, and a Resolve
// answer it holds is the snapshot's.
//
// Writers are lock-free (registry.go), so several may be between loading a
// snapshot and publishing the next at once, and the word must stay true
// without a lock. Its high 48 bits are a tag, a snapshot's seq (modulo
// 2^48), and it changes only by compare-and-swap, in two ways:
//
//   - lowerFast, before a writer's compare-and-swap publishes next: the word
//     keeps only the bits next has too, and its tag becomes next.seq if it
//     was below. Lowering alone never breaks the invariant.
//   - syncFast, after a writer's last attempt, published or not: it loads
//     the word w and then the snapshot sn, and swaps in fastWord(sn) — raises
//     the word — unless w's tag is above sn.seq, which says a writer has
//     readied a snapshot over sn and may be about to publish it.
//
// Why a raise never claims what the published snapshot lacks: tags only
// grow (modulo 2^48; a raise sets sn.seq, never below w's tag). Say a raise
// loads w at t0 and sn at t1, and its swap succeeds at t2. Any snapshot
// published over sn has seq sn.seq+1 and was lowered for first. If that
// lowering came before t0, w's tag is above sn.seq and the raise gives up;
// if after, the tag at t2 is above w's, so the word is no longer w and the
// swap fails. So at t2 sn is still published, and the word becomes exactly
// sn's. Nor can a raise slip in between a writer's lowering and its publish:
// the snapshot it would raise to is then the writer's old one, whose seq is
// below the tag the lowering left. And once the writers stop, the last
// change to the word is the raise of the writer that finished last, so the
// word describes the published snapshot exactly and the fast path is back.
// A writer descheduled between its lowering and its syncFast holds up no
// other writer; until the next write completes, reads take the slow path.

// The fast word's layout.
const (
	// fastResolve is the low byte, Resolve's answer: 1 + the process
	// mode's stream mode when no live override sets the opposite, else 0.
	fastResolve = 0xff
	// fastQuiet is the second byte: the quiet bits (snapshot.quiet) << 8.
	// Its bits 2 to 7 are always 0, so an invalid default never reads 1.
	fastQuiet = 0xff00
	// fastTagShift places the tag, a snapshot's seq modulo 2^48, above the
	// two bytes readers look at.
	fastTagShift = 16
	fastBits     = 1<<fastTagShift - 1
)

// fastWord is the fast word that describes sn exactly, tagged with sn.seq.
func fastWord(sn *snapshot) uint64 {
	w := sn.seq<<fastTagShift | uint64(sn.quiet)<<8
	if sn.quiet>>sn.def&1 != 0 {
		w |= (1 + uint64(sn.def)) & fastResolve
	}
	return w
}

// tagAbove reports whether the tag of fast word a is above that of b,
// modulo 2^48: their difference, as a signed number, is positive.
func tagAbove(a, b uint64) bool {
	return int64(a&^fastBits-b&^fastBits) > 0
}

// lowerFast readies the fast word for next's publication: it drops the
// bits next lacks and raises the tag to next's, if below.
func (r *Registry) lowerFast(next *snapshot) {
	wn := fastWord(next)
	for {
		w := r.fast.Load()
		low := w & wn & fastBits
		if tagAbove(wn, w) {
			low |= wn &^ fastBits
		} else {
			low |= w &^ fastBits
		}
		if low == w || r.fast.CompareAndSwap(w, low) {
			return
		}
	}
}

// syncFast makes the fast word describe the published snapshot, unless a
// writer has readied the word for a snapshot of its own (whose syncFast
// then does it). Every writer calls it after its last attempt.
func (r *Registry) syncFast() {
	for {
		w := r.fast.Load()
		sn := r.state.Load() // after w: see the proof above
		wn := fastWord(sn)
		if tagAbove(w, wn) || w == wn || r.fast.CompareAndSwap(w, wn) {
			return
		}
	}
}

// tryPublish makes one attempt to publish next, built from old, the
// snapshot the writer loaded: it numbers next, lowers the fast word for it
// and swaps it in if old is still the published snapshot, reporting
// whether it did. The writer calls syncFast after its last attempt.
// attempt counts the writer's attempts from 0, for the test hook.
func (r *Registry) tryPublish(old, next *snapshot, attempt int) (swapped bool) {
	next.seq = old.seq + 1
	r.lowerFast(next)
	if h := testhook.RegistryWrite.Load(); h != nil && (*h)(r, attempt) {
		r.publishCopy(old)
	}
	return r.state.CompareAndSwap(old, next)
}

// publishCopy publishes a copy of old, if old is still published, as a
// concurrent writer that changes nothing would: for the test hook, to make
// the attempt in progress lose its race.
func (r *Registry) publishCopy(old *snapshot) {
	c := old.clone()
	c.seal()
	c.seq = old.seq + 1
	r.lowerFast(c)
	r.state.CompareAndSwap(old, c)
	r.syncFast()
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
	// leaves the fast word. BenchmarkSlowMode (fast_bench_test.go) shows
	// it: with one override live, impl=written-out against impl=call, the
	// call is a large share of a read. Keep the two copies in step.
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
