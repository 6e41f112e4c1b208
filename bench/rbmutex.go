package bench

import (
	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/registry"
)

// rbMutex is the seed with an xsync.RBMutex, a reader-biased lock whose
// readers mark one of several padded slots instead of a shared counter.
//
// rbMutex is safe for concurrent use by multiple goroutines. The zero value
// is not usable; use newRBMutex. It must not be copied after first use.
//
// It is a deliberate variant of seed (seed.go), the reference design: the
// same list under another lock; see seed's doc.
type rbMutex struct {
	mu *xsync.RBMutex // written once
	list
}

// newRBMutex returns an empty rbMutex registry.
func newRBMutex() *rbMutex {
	return &rbMutex{mu: xsync.NewRBMutex()}
}

// Set puts s in mode until the handle is released.
func (r *rbMutex) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	o := r.override(r, mode, s)
	r.mu.Lock()
	r.add(o)
	r.mu.Unlock()
	return o
}

// Mode returns what the newest live override of s sets, or def.
func (r *rbMutex) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.settled(def) {
		return def
	}
	t := r.mu.RLock()
	m := r.newest(s, def)
	r.mu.RUnlock(t)
	return m
}

func (r *rbMutex) unset(_ registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.mu.Lock()
	r.remove(id, mode)
	r.mu.Unlock()
}
