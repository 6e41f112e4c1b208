package registry

import "math/bits"

// inlineEntries is how many live overrides a snapshot holds inside itself:
// up to that many, a write allocates one small snapshot, and a lookup
// scans the entries newest first. Beyond it, the entries get a slice of
// their own and an index answers lookups, so a read never scans more than
// inlineEntries.
const inlineEntries = 12

// entry is one live override.
type entry struct {
	id     uint64
	stream ServiceStream
	mode   StreamMode
}

// slot is one slot of a snapshot's index: a stream with a live override and
// the mode its newest live override sets.
type slot struct {
	stream ServiceStream
	mode   StreamMode
	used   bool // false: an empty slot, which ends a probe
}

// snapshot is the registry's whole state at one instant: the live overrides,
// their counts, an index of them, and the process mode. It is immutable once
// published; writers build a new one.
type snapshot struct {
	// quiet has bit d set when no live override sets d.Opposite(): then
	// every stream's mode under default d is d. Only bits 0 and 1 are ever
	// set, so an invalid default always takes the slow path.
	quiet uint8
	// def is process.StreamMode().
	def     StreamMode
	process ProcessMode
	shift   uint8    // 64 - log2(home slots): hash(s)>>shift is s's home slot
	live    [2]int32 // live overrides setting each mode, by StreamMode
	nextID  uint64   // the id the next override takes; above every entry's
	seq     uint64   // publication sequence number: the parent's plus one
	// index maps each stream with a live override to the mode its newest
	// live override sets: an open-addressed table with linear probing, built
	// at write time so a read never scans the entries. It has a power of two
	// home slots, at least twice the entries, followed by one overflow slot
	// per entry, so a probe never wraps around and always ends at an empty
	// slot. Nil up to inlineEntries overrides: lookups scan those.
	index   []slot
	entries []entry // live overrides, oldest first (so in id order); may alias inline
	inline  [inlineEntries]entry
}

// emptySnapshot returns a snapshot with no overrides under process mode p.
func emptySnapshot(p ProcessMode) *snapshot {
	sn := &snapshot{process: p, def: p.StreamMode()}
	sn.entries = sn.inline[:0]
	sn.seal()
	return sn
}

// with returns a new snapshot: sn's entries less the one at drop (when
// drop >= 0), plus add (when add != nil), under process mode p. Up to
// inlineEntries overrides it is one allocation.
func (sn *snapshot) with(drop int, add *entry, p ProcessMode) *snapshot {
	n := len(sn.entries)
	if drop >= 0 {
		n--
	}
	if add != nil {
		n++
	}
	next := &snapshot{process: p, def: p.StreamMode(), live: sn.live, nextID: sn.nextID}
	if n <= inlineEntries {
		next.entries = next.inline[:0:n]
	} else {
		next.entries = make([]entry, 0, n)
	}
	if drop >= 0 {
		next.entries = append(next.entries, sn.entries[:drop]...)
		next.entries = append(next.entries, sn.entries[drop+1:]...)
		next.live[sn.entries[drop].mode]--
	} else {
		next.entries = append(next.entries, sn.entries...)
	}
	if add != nil {
		next.entries = append(next.entries, *add)
		next.live[add.mode]++
		next.nextID = add.id + 1
	}
	next.build()
	next.seal()
	return next
}

// mode is the slow path of Registry.Mode and Resolve: it validates def and
// looks s up in the index.
func (sn *snapshot) mode(s ServiceStream, def StreamMode) StreamMode {
	if def > Discard {
		panic(invalidStreamMode(def))
	}
	if sn.quiet>>def&1 != 0 {
		return def
	}
	if sn.index == nil {
		es := sn.entries
		for i := len(es) - 1; i >= 0; i-- {
			if e := &es[i]; e.stream.Stream == s.Stream && e.stream.Service == s.Service {
				return e.mode
			}
		}
		return def
	}
	for i := hash(s) >> sn.shift; ; i++ {
		if sl := &sn.index[i]; !sl.used {
			return def
		} else if sl.stream == s {
			return sl.mode
		}
	}
}

// hashMul is the multiplier of hash: 2^64 over the golden ratio, odd.
const hashMul = 0x9e3779b97f4a7c15

// hash mixes s into 64 bits whose high bits pick its home slot (Fibonacci
// hashing).
func hash(s ServiceStream) uint64 {
	return (uint64(s.Stream) ^ uint64(s.Service)<<40) * hashMul
}

// build fills the index from the entries.
func (sn *snapshot) build() {
	n := len(sn.entries)
	if n <= inlineEntries {
		sn.index = nil
		return
	}
	home := 1 << bits.Len(uint(2*n-1))
	sn.index = make([]slot, home+n)
	sn.shift = uint8(64 - bits.TrailingZeros(uint(home)))
	// Oldest first: a newer entry of a stream overwrites an older one.
	for _, e := range sn.entries {
		for i := hash(e.stream) >> sn.shift; ; i++ {
			sl := &sn.index[i]
			if !sl.used || sl.stream == e.stream {
				*sl = slot{stream: e.stream, mode: e.mode, used: true}
				break
			}
		}
	}
}

// seal sets quiet from live.
func (sn *snapshot) seal() {
	sn.quiet = 0
	for d := Execute; d <= Discard; d++ {
		if sn.live[d^1] == 0 {
			sn.quiet |= 1 << d
		}
	}
}

// find returns the position of the entry with id, or -1. Entries are in id
// order, so it searches by bisection.
func (sn *snapshot) find(id uint64) int {
	lo, hi := 0, len(sn.entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sn.entries[m].id < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(sn.entries) && sn.entries[lo].id == id {
		return lo
	}
	return -1
}
