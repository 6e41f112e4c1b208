package gpu

// Capturer is an optional interface that may be implemented by a [Service]
// that can capture a stream's launches once and replay them: a graph, as
// CUDA graphs and WebGPU graph capture have. Package client's
// Client.Capture and Client.Replay use it; a Service that does not
// implement it cannot capture.
//
// The wgpu package's Device implements it. Implementations must be safe for
// concurrent use by multiple goroutines.
type Capturer interface {
	// Capture starts recording a graph of launches for stream. It returns
	// an error if the service is closed.
	Capture(stream StreamID) (GraphRecorder, error)
}

// GraphRecorder records the launches of one graph. Nothing it records
// executes. It is used by one goroutine at a time (package client
// serializes its calls); it holds no resource that needs releasing, so a
// recorder that is never finished is simply dropped.
type GraphRecorder interface {
	// Launch checks one launch as [Service.Launch] does, compiles its
	// kernel and makes its bind groups, and records it into the graph. Its
	// errors are those Service.Launch returns for the same arguments. It
	// must not keep the bindings slice after it returns.
	Launch(k *Kernel, workgroups [3]uint32, bindings ...Buffer) error

	// Finish returns the graph of the launches recorded. It checks again
	// that every buffer they bind is live (one may have been released
	// since it was recorded); an error yields no graph. A recorder is
	// finished at most once.
	Finish() (Graph, error)
}

// Graph is a captured sequence of launches on one stream of one service:
// their pipelines, bind groups and workgroup counts, fixed at capture. The
// buffers bound at capture are the graph's; their contents may change
// between replays.
//
// Implementations must be safe for concurrent use by multiple goroutines.
type Graph interface {
	// ID returns the graph's process-unique id, from [NewGraphID]:
	// [FailedLaunch].Graph names a graph by it.
	ID() uint64

	// Len returns how many launches the graph holds.
	Len() int

	// Stream returns the stream the graph was captured for and replays on.
	Stream() StreamID

	// Check reports, without recording anything, whether the graph could
	// replay now: an error if the graph or its service is closed or
	// released, or one of its buffers was released or recycled since the
	// capture (naming the launch and binding). It must not block, lock for
	// long, or allocate when the answer is nil: a discarded replay calls it.
	Check() error

	// Replay records every launch of the graph on its stream, in capture
	// order, as one batch after the stream's earlier work, with no
	// per-launch checks (Check's are made first, and a failed check
	// records nothing). It is submitted as the service's launches are. A
	// launch the driver rejects is reported as [Service.Launch]'s are: a
	// [*LaunchError] whose [FailedLaunch] names the graph and the launch's
	// index in it.
	Replay() error

	// Release drops the graph: later Check and Replay calls return an
	// error. Replays already recorded still run. Releasing twice is
	// harmless.
	Release()
}
