package bench

import (
	"slices"
	"sync/atomic"

	"github.com/streamgate/streamgate/registry"
)

// counts are the counters every implementation but the registry keeps
// beside its overrides: the live overrides setting each mode, for the
// seed's fast path, and the id the next override takes.
type counts struct {
	live   [2]atomic.Int64 // live overrides setting each mode
	nextID atomic.Uint64   // the id the next override takes
}

// settled reports whether no live override sets the mode opposite to def:
// the seed's fast path, one atomic load, after which Mode returns def.
func (c *counts) settled(def registry.StreamMode) bool {
	return c.live[def.Opposite()].Load() == 0
}

// override returns the handle of a new override of s in mode, which u
// ends, under the next id. It neither enters the override nor counts it.
func (c *counts) override(u unsetter, mode registry.StreamMode, s registry.ServiceStream) *seedOverride {
	return &seedOverride{r: u, id: c.nextID.Add(1) - 1, stream: s, mode: mode}
}

// list is the state of the lock-based implementations (seed,
// seedNewestFirst, rwMutex, rbMutex): the live overrides, oldest first, in
// a slice, with their counts. Its methods do not lock: each implementation
// calls them under its own lock, which is all that differs between them.
// They are small enough to inline, so that an implementation pays for its
// lock and the seed's list work and nothing else.
type list struct {
	entries []entry // guarded by the implementation's lock; live overrides, oldest first
	counts          // live changed under that lock
}

// add enters and counts o. Call it under the write lock.
func (l *list) add(o *seedOverride) {
	l.entries = append(l.entries, entry{id: o.id, stream: o.stream, mode: o.mode})
	l.live[o.mode].Add(1)
}

// newest returns what the newest live override of s sets, or def. Call it
// under the read lock.
func (l *list) newest(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	return newest(l.entries, s, def)
}

// remove drops the override id, in mode, the seed's way: a retain that
// scans and rewrites every entry. Call it under the write lock.
func (l *list) remove(id uint64, mode registry.StreamMode) {
	l.entries = without(l.entries, id)
	l.live[mode].Add(-1)
}

// withoutNewest returns entries less the newest one with id, in place: a
// newest-first scan that stops there.
func withoutNewest(entries []entry, id uint64) []entry {
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].id == id {
			return slices.Delete(entries, i, i+1)
		}
	}
	return entries
}
