package registry

import (
	"fmt"
	"iter"
)

// OverrideInfo describes one live override, as [Registry.All] yields it.
//
// It records no creation time: a time.Now in every Set would cost writers
// several times what All may add to a Set+Release (BenchmarkSetRelease
// shows a Set+Release). ID orders overrides instead: each Set takes the
// next id, so a larger ID was set later; Snapshot tells which registry
// state an iteration saw.
type OverrideInfo struct {
	Stream ServiceStream
	Mode   StreamMode
	// ID is the override's id ([Override.ID]): ids grow by one at each Set
	// of the registry, so the newer of two overrides has the larger ID.
	ID uint64
	// Snapshot is the sequence number of the registry state the iteration
	// read: one more at each write that changed it. Every OverrideInfo of
	// one iteration has the same.
	Snapshot uint64
}

// String describes the override, e.g. "#12 Execute on 1/7".
func (i OverrideInfo) String() string {
	return fmt.Sprintf("#%d %v on %v", i.ID, i.Mode, i.Stream)
}

// ID returns the override's id: ids grow by one at each Set of the
// registry, so a newer override has a larger id. [Registry.All] reports
// it.
func (o *Override) ID() uint64 { return o.id }

// All returns an iterator over the live overrides of r at one instant: each
// iteration reads the registry's state once, when it starts, and yields
// exactly the overrides live then, whatever writers do meanwhile. The
// overrides of one stream come newest first, one after the other; streams
// come in no particular order.
//
// It is meant for debugging (an endpoint listing the overrides), not for a
// launch path: an iteration walks every live override, and the iterator
// allocates. Reads and writes do not wait for it.
func (r *Registry) All() iter.Seq[OverrideInfo] {
	return func(yield func(OverrideInfo) bool) {
		r.state.Load().all(yield)
	}
}

// all yields sn's live overrides, each stream's newest first, and reports
// whether yield asked for them all (never returned false).
func (sn *snapshot) all(yield func(OverrideInfo) bool) bool {
	stack := func(l *leaf) bool {
		for ; l != nil; l = l.older {
			if !yield(OverrideInfo{Stream: l.stream, Mode: l.mode, ID: l.id, Snapshot: sn.seq}) {
				return false
			}
		}
		return true
	}
	if t := sn.tab; t != nil {
		for _, l := range t.heads[:sn.streams] {
			if !stack(l) {
				return false
			}
		}
		return true
	}
	return sn.trie().rootSlot().all(stack)
}

// all calls f with the head of every override stack of the subtrie at sl
// until f returns false, and reports whether it never did.
func (sl slot) all(f func(*leaf) bool) bool {
	if sl.bm == 0 {
		if l := (*leaf)(sl.ptr); l != nil {
			return f(l)
		}
		return true
	}
	for _, k := range sl.kids() {
		if !k.all(f) {
			return false
		}
	}
	return true
}
