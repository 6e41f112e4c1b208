package bench

import (
	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/registry"
)

// mapOf keeps each stream's live overrides, oldest first, in an
// xsync.MapOf keyed by stream: Mode scans only its own stream's list, which
// it loads without locking. Lists are copy-on-write: a stored list is never
// modified, so a reader may scan it while a writer replaces it. It has the
// seed's live counters and fast path.
//
// mapOf is safe for concurrent use by multiple goroutines. The zero value is
// not usable; use newMapOf. It must not be copied after first use.
type mapOf struct {
	m *xsync.MapOf[registry.ServiceStream, []entry] // written once; values immutable once stored
	counts
}

// newMapOf returns an empty mapOf registry.
func newMapOf() *mapOf {
	return &mapOf{m: xsync.NewMapOf[registry.ServiceStream, []entry]()}
}

// Set puts s in mode until the handle is released.
func (r *mapOf) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	o := r.override(r, mode, s)
	e := entry{id: o.id, stream: s, mode: mode}
	r.m.Compute(s, func(old []entry, _ bool) ([]entry, bool) {
		next := make([]entry, len(old)+1)
		copy(next, old)
		next[len(old)] = e
		return next, false
	})
	r.live[mode].Add(1) // after the entry is in: a reader that sees it counted finds it
	return o
}

// Mode returns what the newest live override of s sets, or def.
func (r *mapOf) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.settled(def) {
		return def
	}
	entries, _ := r.m.Load(s)
	return newest(entries, s, def)
}

func (r *mapOf) unset(s registry.ServiceStream, id uint64, mode registry.StreamMode) {
	r.m.Compute(s, func(old []entry, loaded bool) ([]entry, bool) {
		if !loaded {
			return nil, true // nothing to remove; store nothing
		}
		next := make([]entry, 0, len(old))
		for _, e := range old {
			if e.id != id {
				next = append(next, e)
			}
		}
		if len(next) == 0 {
			return nil, true
		}
		return next, false
	})
	r.live[mode].Add(-1)
}
