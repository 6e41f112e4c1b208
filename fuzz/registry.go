package fuzz

import "github.com/streamgate/streamgate/registry"

// registryAPI is what the harness drives: the API of *registry.registryAPI, with
// Set returning an interface so that tests can substitute other (broken)
// implementations. Implementations must be safe for concurrent use when
// given to [run].
type registryAPI interface {
	Set(mode registry.StreamMode, s registry.ServiceStream) override
	Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode
	Resolve(s registry.ServiceStream) registry.StreamMode
	Live(mode registry.StreamMode) int
	SetProcessMode(p registry.ProcessMode) (previous registry.ProcessMode)
	ProcessMode() registry.ProcessMode
}

// override is a live override from [registryAPI.Set]. Release must be
// idempotent and callable from any goroutine.
type override interface {
	Release()
}

// wrap adapts r to [registryAPI].
func wrap(r *registry.Registry) registryAPI { return wrapped{r} }

// wrapped is a *registry.Registry whose Set returns an [override].
type wrapped struct{ *registry.Registry }

func (w wrapped) Set(mode registry.StreamMode, s registry.ServiceStream) override {
	return w.Registry.Set(mode, s)
}
