package bench

import (
	"sync/atomic"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/registry"
)

// rbMutex is the seed with an xsync.RBMutex, a reader-biased lock whose
// readers mark one of several padded slots instead of a shared counter.
//
// rbMutex is safe for concurrent use by multiple goroutines. The zero value
// is not usable; use newRBMutex. It must not be copied after first use.
//
// It is a deliberate copy of seed (seed.go), the reference design, with
// only the lock changed; see seed's doc.
type rbMutex struct {
	mu      *xsync.RBMutex  // written once
	entries []entry         // guarded by mu; live overrides, oldest first
	live    [2]atomic.Int64 // live overrides setting each mode; changed under mu
	nextID  atomic.Uint64   // the id the next override takes
}

// newRBMutex returns an empty rbMutex registry.
func newRBMutex() *rbMutex {
	return &rbMutex{mu: xsync.NewRBMutex()}
}

// Set puts s in mode until the handle is released.
func (r *rbMutex) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	id := r.nextID.Add(1) - 1
	r.mu.Lock()
	r.entries = append(r.entries, entry{id: id, stream: s, mode: mode})
	r.live[mode].Add(1)
	r.mu.Unlock()
	return &seedOverride{r: r, id: id, stream: s, mode: mode}
}

// Mode returns what the newest live override of s sets, or def.
func (r *rbMutex) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.live[def.Opposite()].Load() == 0 {
		return def
	}
	t := r.mu.RLock()
	m := newest(r.entries, s, def)
	r.mu.RUnlock(t)
	return m
}

func (r *rbMutex) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	r.entries = without(r.entries, id)
	r.live[mode].Add(-1)
	r.mu.Unlock()
}
