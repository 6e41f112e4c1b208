package bench

import "github.com/streamgate/streamgate/registry"

// Impl is a stream mode registry: what every implementation here satisfies.
// Implementations are safe for concurrent use by multiple goroutines.
type Impl interface {
	// Set puts stream s in mode until the returned handle is released.
	Set(mode registry.StreamMode, s registry.ServiceStream) Handle
	// Mode returns what the newest live override of s sets, or def.
	Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode
}

// Handle is a live override. Release ends it; it is idempotent and may be
// called from any goroutine.
type Handle interface {
	Release()
}

// Named is an implementation's constructor and the name benchmarks give it
// (impl=<Name>).
type Named struct {
	Name string
	New  func() Impl
}

// Impls returns every implementation, the seed design first (as written,
// then with newest-first removal) and the registry last.
func Impls() []Named {
	return []Named{
		{"seed", func() Impl { return new(Seed) }},
		{"seed-newest-first", func() Impl { return new(SeedNewestFirst) }},
		{"rwmutex", func() Impl { return new(RWMutex) }},
		{"rbmutex", func() Impl { return NewRBMutex() }},
		{"mapof", func() Impl { return NewMapOf() }},
		{"registry", func() Impl { return NewRegistry() }},
	}
}

// entry is one live override of the lock-based implementations.
type entry struct {
	id     uint64
	stream registry.ServiceStream
	mode   registry.StreamMode
}

// newest returns the mode of the newest entry of s in entries (oldest
// first), or def: the seed's iter().rev().find().map_or().
func newest(entries []entry, s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].stream == s {
			return entries[i].mode
		}
	}
	return def
}

// without returns entries less the one with id, in place: the seed's
// retain(|e| e.id != id), which scans them all.
func without(entries []entry, id uint64) []entry {
	j := 0
	for _, e := range entries {
		if e.id != id {
			entries[j] = e
			j++
		}
	}
	clear(entries[j:])
	return entries[:j]
}
