package bench

import "github.com/streamgate/streamgate/registry"

// impl is a stream mode registry: what every implementation here satisfies.
// Implementations are safe for concurrent use by multiple goroutines.
type impl interface {
	// Set puts stream s in mode until the returned handle is released.
	Set(mode registry.StreamMode, s registry.ServiceStream) handle
	// Mode returns what the newest live override of s sets, or def.
	Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode
}

// handle is a live override. Release ends it; it is idempotent and may be
// called from any goroutine.
type handle interface {
	Release()
}

// namedImpl is an implementation's constructor and the name benchmarks give it
// (impl=<Name>).
type namedImpl struct {
	Name string
	New  func() impl
}

// impls returns every implementation, the seed design first (as written,
// then with newest-first removal) and the registry last.
func impls() []namedImpl {
	return []namedImpl{
		{"seed", func() impl { return new(seed) }},
		{"seed-newest-first", func() impl { return new(seedNewestFirst) }},
		{"rwmutex", func() impl { return new(rwMutex) }},
		{"rbmutex", func() impl { return newRBMutex() }},
		{"mapof", func() impl { return newMapOf() }},
		{"registry", func() impl { return newRegistryImpl() }},
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
