package gpu

import "sync/atomic"

// ServiceID identifies one service (one device) in the process. Package
// registry keys its overrides by it (registry.ServiceStream), so an override
// names a stream of a service directly.
type ServiceID uint64

// StreamID identifies a logical stream. Stream ids are the process's, not a
// service's: stream 7 of one service and stream 7 of another are two
// streams (see registry.ServiceStream).
type StreamID uint64

// The last ids handed out. One allocator each, for every implementation.
var (
	nextService atomic.Uint64
	nextStream  atomic.Uint64
	nextGraph   atomic.Uint64
)

// NewServiceID returns a fresh process-unique service id, never 0. Every
// [Service] implementation takes its id here, so two services of any kinds
// never share one. It is safe for concurrent use.
func NewServiceID() ServiceID { return ServiceID(nextService.Add(1)) }

// NewStreamID returns a fresh process-unique stream id, never 0 (stream 0 is
// the shared stream of the client package's Single policy). It is safe for
// concurrent use.
func NewStreamID() StreamID { return StreamID(nextStream.Add(1)) }

// NewGraphID returns a fresh process-unique graph id, never 0 (a
// [FailedLaunch] whose Graph is 0 was not replayed from a graph). Every
// [Capturer] takes its graphs' ids here. It is safe for concurrent use.
func NewGraphID() uint64 { return nextGraph.Add(1) }
