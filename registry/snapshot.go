package registry

// inlineEntries is how many live overrides a snapshot holds inside itself
// rather than in a slice of their own.
const inlineEntries = 8

// entry is one live override.
type entry struct {
	id     uint64
	stream ServiceStream
	mode   StreamMode
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
	live    [2]int32 // live overrides setting each mode, by StreamMode
	nextID  uint64   // the id the next override takes; above every entry's
	// newest maps each stream with a live override to the mode its newest
	// live override sets; nil when none is live. Built at write time so a
	// read never scans the entries.
	newest  map[ServiceStream]StreamMode
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
// drop >= 0), plus add (when add != nil), under process mode p.
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
	if drop < 0 && add == nil {
		next.newest = sn.newest // same entries: share the immutable index
		next.seal()
		return next
	}
	if n > 0 {
		next.newest = make(map[ServiceStream]StreamMode, n)
		// Oldest first: a newer entry of a stream overwrites an older one.
		for _, e := range next.entries {
			next.newest[e.stream] = e.mode
		}
	}
	next.seal()
	return next
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
