package bench

import (
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/registry"
)

// rwMutex is the seed with a sync.RWMutex: Mode scans under RLock, so readers
// do not exclude each other (they still share the lock's reader count).
//
// rwMutex is safe for concurrent use by multiple goroutines. The zero value
// is an empty registry ready to use. It must not be copied after first use.
//
// It is a deliberate copy of seed (seed.go), the reference design, with
// only the lock changed; see seed's doc.
type rwMutex struct {
	mu      sync.RWMutex
	entries []entry         // guarded by mu; live overrides, oldest first
	live    [2]atomic.Int64 // live overrides setting each mode; changed under mu
	nextID  atomic.Uint64   // the id the next override takes
}

// Set puts s in mode until the handle is released.
func (r *rwMutex) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	id := r.nextID.Add(1) - 1
	r.mu.Lock()
	r.entries = append(r.entries, entry{id: id, stream: s, mode: mode})
	r.live[mode].Add(1)
	r.mu.Unlock()
	return &seedOverride{r: r, id: id, stream: s, mode: mode}
}

// Mode returns what the newest live override of s sets, or def.
func (r *rwMutex) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.live[def.Opposite()].Load() == 0 {
		return def
	}
	r.mu.RLock()
	m := newest(r.entries, s, def)
	r.mu.RUnlock()
	return m
}

func (r *rwMutex) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	r.entries = without(r.entries, id)
	r.live[mode].Add(-1)
	r.mu.Unlock()
}
