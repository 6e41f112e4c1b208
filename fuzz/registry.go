package fuzz

import "github.com/streamgate/streamgate/registry"

// Registry is what the harness drives: the API of *registry.Registry, with
// Set returning an interface so that tests can substitute other (broken)
// implementations. Implementations must be safe for concurrent use when
// given to [Run].
type Registry interface {
	Set(mode registry.StreamMode, s registry.ServiceStream) Override
	Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode
	Resolve(s registry.ServiceStream) registry.StreamMode
	Live(mode registry.StreamMode) int
	SetProcessMode(p registry.ProcessMode) (previous registry.ProcessMode)
	ProcessMode() registry.ProcessMode
}

// Override is a live override from [Registry.Set]. Release must be
// idempotent and callable from any goroutine.
type Override interface {
	Release()
}

// Wrap adapts r to [Registry].
func Wrap(r *registry.Registry) Registry { return wrapped{r} }

// wrapped is a *registry.Registry whose Set returns an [Override].
type wrapped struct{ *registry.Registry }

func (w wrapped) Set(mode registry.StreamMode, s registry.ServiceStream) Override {
	return w.Registry.Set(mode, s)
}
