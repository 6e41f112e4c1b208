package bench

import (
	"sync/atomic"

	"github.com/streamgate/streamgate/registry"
)

// registryImpl adapts a [registry.Registry] to impl. It is safe for
// concurrent use, as the registry is. The zero value is not usable; use
// newRegistryImpl.
type registryImpl struct {
	R *registry.Registry // written once
}

// newRegistryImpl returns an adapter for a new, empty registry.
func newRegistryImpl() *registryImpl { return &registryImpl{R: registry.New()} }

// Set puts s in mode until the handle (a *registry.Override) is released.
func (r *registryImpl) Set(mode registry.StreamMode, s registry.ServiceStream) handle {
	return r.R.Set(mode, s)
}

// Mode returns r.R.Mode(s, def).
func (r *registryImpl) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	return r.R.Mode(s, def)
}

// atomicInt64 is not a registry: its Mode is one atomic.Int64 load and a
// test, the floor against which a fast path is measured. While its counter
// is zero (the zero value) Mode returns the default. It is safe for
// concurrent use.
type atomicInt64 struct {
	V atomic.Int64
}

// Mode returns def while V is zero, else def's opposite.
func (a *atomicInt64) Mode(_ registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if a.V.Load() == 0 {
		return def
	}
	return def ^ 1
}
