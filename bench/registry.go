package bench

import (
	"sync/atomic"

	"github.com/streamgate/streamgate/registry"
)

// Registry adapts a [registry.Registry] to [Impl]. It is safe for
// concurrent use, as the registry is. The zero value is not usable; use
// [NewRegistry].
type Registry struct {
	R *registry.Registry // written once
}

// NewRegistry returns an adapter for a new, empty registry.
func NewRegistry() *Registry { return &Registry{R: registry.New()} }

// Set puts s in mode until the handle (a *registry.Override) is released.
func (r *Registry) Set(mode registry.StreamMode, s registry.ServiceStream) Handle {
	return r.R.Set(mode, s)
}

// Mode returns r.R.Mode(s, def).
func (r *Registry) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	return r.R.Mode(s, def)
}

// AtomicInt64 is not a registry: its Mode is one atomic.Int64 load and a
// test, the floor against which a fast path is measured. While its counter
// is zero (the zero value) Mode returns the default. It is safe for
// concurrent use.
type AtomicInt64 struct {
	V atomic.Int64
}

// Mode returns def while V is zero, else def's opposite.
func (a *AtomicInt64) Mode(_ registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if a.V.Load() == 0 {
		return def
	}
	return def ^ 1
}
