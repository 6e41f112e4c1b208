package bench

import (
	"sync"

	"github.com/streamgate/streamgate/registry"
)

// rwMutex is the seed with a sync.RWMutex: Mode scans under RLock, so readers
// do not exclude each other (they still share the lock's reader count).
//
// rwMutex is safe for concurrent use by multiple goroutines. The zero value
// is an empty registry ready to use. It must not be copied after first use.
//
// It is a deliberate variant of seed (seed.go), the reference design: the
// same list under another lock; see seed's doc.
type rwMutex struct {
	mu sync.RWMutex
	list
}

// Set puts s in mode until the handle is released.
func (r *rwMutex) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	o := r.override(r, mode, s)
	r.mu.Lock()
	r.add(o)
	r.mu.Unlock()
	return o
}

// Mode returns what the newest live override of s sets, or def.
func (r *rwMutex) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.settled(def) {
		return def
	}
	r.mu.RLock()
	m := r.newest(s, def)
	r.mu.RUnlock()
	return m
}

func (r *rwMutex) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	r.remove(id, mode)
	r.mu.Unlock()
}
