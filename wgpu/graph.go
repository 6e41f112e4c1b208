package wgpu

import (
	"fmt"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
)

// Graphs, shared by the desktop build and the browser's (js): a capture's
// launches are checked, compiled and their bind groups made once; each
// build records them for its driver (graph.go, graph_js.go) and replays
// them onto a stream with no per-launch work in Go.

var _ gpu.Capturer = (*Device)(nil)

// Capture starts recording a graph of launches for stream id: each
// [GraphRecorder.Launch] makes [Device.Launch]'s checks, compiles its
// kernel and makes its bind groups, and records it without executing
// anything; [GraphRecorder.Finish] returns the [*Graph]. It implements
// [gpu.Capturer]; package client's Client.Capture is the usual way in. It
// returns an error matching [ErrClosed] once Close has begun, and one
// matching [ErrStreamClosed] when [Device.CloseStream] retired id.
func (d *Device) Capture(id gpu.StreamID) (gpu.GraphRecorder, error) {
	if d == nil {
		return nil, nilDeviceError("Capture")
	}
	return d.newGraphRecorder(id)
}

// newGraphRecorder is [Device.Capture] returning the concrete type.
func (d *Device) newGraphRecorder(id gpu.StreamID) (*GraphRecorder, error) {
	if d.closed.Load() {
		return nil, closedError("Capture")
	}
	if d.isRetired(id) {
		return nil, streamClosedError("Capture", id)
	}
	return &GraphRecorder{d: d, stream: id, index: map[*Buffer]int{}}, nil
}

// GraphRecorder records the launches of one [Graph]. It is not safe for
// concurrent use: one goroutine records, then calls Finish once (package
// client serializes a capture's launches). A recorder that is never
// finished holds nothing that needs releasing. The zero value is not
// usable; use [Device.Capture].
type GraphRecorder struct {
	d        *Device
	stream   gpu.StreamID
	launches []graphLaunch
	buffers  []graphBuffer   // the distinct buffers bound, in first-use order
	index    map[*Buffer]int // buffers' indexes
	finished bool

	rec recorderDriver // the build's own: what it records for its driver
}

var _ gpu.GraphRecorder = (*GraphRecorder)(nil)

// graphLaunch is one launch of a graph, for reports.
type graphLaunch struct {
	p  *pipeline
	wg [3]uint32
}

// graphBuffer is one buffer a graph binds: its recycle generation at
// capture, and the first launch and binding that bind it (for errors).
type graphBuffer struct {
	b       *Buffer
	gen     uint64
	launch  int
	binding int
}

// Launch checks the launch of k as [Device.Launch] does, with the same
// errors, compiles k, makes its bind groups and records the launch into
// the graph. Nothing executes. A failed launch records nothing; the
// recorder stays usable.
//
// A kernel not compiled yet is checked and lowered here, with the errors
// of those checks, and its bind groups made; the driver's part of its
// compile starts on the device's compile workers ([Device.CompileAsync]),
// so that a capture's compiles overlap, and Finish waits for them. Should
// the driver refuse a kernel's lowered source (the one compile error the
// checks cannot see), Finish returns that error, the one Launch would have
// returned, for the first launch of the kernel. In a browser the driver's
// part is the browser's compile.
func (r *GraphRecorder) Launch(k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	const op = "Capture"
	d := r.d
	if r.finished {
		return newError(op, ErrorTypeInvalidArgument, "Launch on a finished graph recorder")
	}
	var inline [inlineBindings]*Buffer
	p, bufs, err := d.checkLaunchFront(op, k, workgroups, bindings, inline[:0])
	if err != nil {
		return err
	}
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	if i := firstDead(bufs); i >= 0 {
		return d.deadBinding(op, p, i, bufs[i])
	}
	first, err := r.recordGroups(op, p, bufs)
	if err != nil {
		return err
	}
	li := len(r.launches)
	for i, b := range bufs {
		if _, ok := r.index[b]; !ok {
			r.index[b] = len(r.buffers)
			r.buffers = append(r.buffers, graphBuffer{b: b, gen: b.gen.Load(), launch: li, binding: i})
		}
	}
	r.launches = append(r.launches, graphLaunch{p: p, wg: workgroups})
	r.recordDispatch(first, p, workgroups)
	return nil
}

// Len returns how many launches the recorder holds.
func (r *GraphRecorder) Len() int { return len(r.launches) }

// Finish returns the graph of the launches recorded (possibly none). It
// checks that every buffer they bind is still live, and returns an error
// naming the first that is not, with no graph; when [Device.CloseStream]
// retired the recorder's stream meanwhile, an error matching
// [ErrStreamClosed]. A recorder is finished once; a second Finish is an
// error. (A graph finished just before its stream is retired never
// replays: [Graph.Replay] returns the error then.) In a browser Finish
// waits for the browser's compiles of the graph's kernels: call it from a
// goroutine, not inside a js.FuncOf callback.
func (r *GraphRecorder) Finish() (gpu.Graph, error) {
	g, err := r.finishGraph()
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return g, nil
}

// finishGraph is [GraphRecorder.Finish] returning the concrete type.
func (r *GraphRecorder) finishGraph() (*Graph, error) {
	const op = "Capture"
	d := r.d
	if r.finished {
		return nil, newError(op, ErrorTypeInvalidArgument, "Finish on a finished graph recorder")
	}
	r.finished = true
	// Outside d.enter: the compiles being waited for need it (Close, which
	// takes it exclusively, makes them fail and finish).
	if err := r.waitPipelines(op); err != nil {
		return nil, err
	}
	leave, err := d.enter(op)
	if err != nil {
		return nil, err
	}
	defer leave()
	if d.isRetired(r.stream) {
		return nil, streamClosedError(op, r.stream)
	}
	g := &Graph{d: d, id: gpu.NewGraphID(), stream: r.stream, launches: r.launches, buffers: r.buffers}
	e := d.bufEpoch.Load() // before the check: a recycle after it moves the epoch, and the next check looks again
	if err := g.checkBuffers(op); err != nil {
		return nil, err
	}
	if err := g.setDriver(op, r); err != nil {
		return nil, err
	}
	// Registered under d.life's read lock: a buffer's Release (write lock)
	// either came before, and the check above saw it, or comes after and
	// flushes the graph's pending replays first.
	for _, gb := range g.buffers {
		gb.b.mu.Lock()
		gb.b.graphs = append(gb.b.graphs, g)
		gb.b.mu.Unlock()
	}
	g.epoch.Store(e + 1)
	r.launches, r.buffers, r.index = nil, nil, nil
	r.rec = recorderDriver{}
	return g, nil
}

// Graph is a captured sequence of launches on one stream of a device: each
// launch's pipeline, bind groups and workgroup counts, fixed at capture.
// [Graph.Replay] records them all on the stream in one cgo crossing (in a
// browser, one command the page expands), with no per-launch work in Go. The buffers bound at capture are the graph's;
// their contents may change between replays (uploads and read-backs are
// ordered with replays as with launches). A graph one of whose buffers is
// released or recycled cannot replay.
//
// A Graph is safe for concurrent use by multiple goroutines; replays of
// one graph, like launches on one stream, record one at a time. The zero
// value is not usable; use [Device.Capture]. Release a graph that will
// not be replayed again: until then the buffers it binds keep it. On the
// desktop it holds no wgpu object of its own (its bind groups are the
// device's cached ones, its pipelines the device's), so [Graph.Release]
// frees nothing on the driver's side (in a browser it drops the graph's
// commands from the page); the device's Close makes every replay return an
// error matching [ErrClosed].
type Graph struct {
	d        *Device       // written once
	id       uint64        // written once
	stream   gpu.StreamID  // written once
	launches []graphLaunch // written once
	buffers  []graphBuffer // written once

	// epoch is 1 + the device's buffer epoch at the last check that found
	// every buffer live: while the epoch has not moved, no buffer of the
	// device was released or recycled, and the check is one load.
	epoch     atomic.Uint64
	released  atomic.Bool
	pendingOn atomic.Pointer[stream] // the stream whose unsubmitted batch holds a replay of g, if any

	drv graphDriver // the build's own: what a replay records
}

var _ gpu.Graph = (*Graph)(nil)

// ID returns the graph's process-unique id ([gpu.FailedLaunch].Graph).
func (g *Graph) ID() uint64 { return g.id }

// Len returns how many launches the graph holds.
func (g *Graph) Len() int { return len(g.launches) }

// Stream returns the stream the graph replays on.
func (g *Graph) Stream() gpu.StreamID { return g.stream }

// Device returns the graph's device.
func (g *Graph) Device() *Device { return g.d }

// Check reports whether the graph could replay now: an error matching
// [ErrClosed] once the device is closing, an error if the graph was
// released, or one naming the launch and binding of a buffer released or
// recycled since the capture. It records nothing, and neither blocks nor
// allocates when the answer is nil.
func (g *Graph) Check() error {
	const op = "Replay"
	if g.d.closed.Load() {
		return closedError(op)
	}
	return g.check(op)
}

// check is Check without the device's closed check.
func (g *Graph) check(op string) error {
	if g.released.Load() {
		return newError(op, ErrorTypeInvalidArgument, "graph %d is released", g.id)
	}
	e := g.d.bufEpoch.Load()
	if g.epoch.Load() == e+1 {
		return nil
	}
	if err := g.checkBuffers(op); err != nil {
		return err
	}
	g.epoch.Store(e + 1)
	return nil
}

// checkBuffers checks every binding of the graph: live (a buffer, a
// view's texture, a sampler), and a buffer not recycled since the capture
// (a buffer TempBuffer handed out again is another user's).
func (g *Graph) checkBuffers(op string) error {
	for _, gb := range g.buffers {
		b := gb.b
		var why string
		switch {
		case b.released.Load() || b.recycled.Load():
			why = b.live(op).(*Error).Message
		case b.gen.Load() != gb.gen && b.view != nil:
			why = "texture was recycled since the capture (TempTexture handed it out again)"
		case b.gen.Load() != gb.gen:
			why = "buffer was recycled since the capture (TempBuffer handed it out again)"
		default:
			continue
		}
		l := g.launches[gb.launch]
		return newError(op, ErrorTypeInvalidArgument, "graph %d: launch %d (%s): %s: %s", g.id, gb.launch, l.p.name, l.p.bindings[gb.binding], why)
	}
	return nil
}

// Replay records every launch of the graph on its stream, in capture
// order, after the stream's earlier launches: encoded into the stream's
// encoder in one cgo crossing, from the pipelines and bind groups made at
// capture (in a browser: one command on the stream's list, expanded by the
// page at the flush), and submitted with the stream's batch (on the MaxBatch
// threshold, Flush, Sync, or an upload, read-back or release of a buffer
// the graph binds). It first makes [Graph.Check]'s checks, and on a failed
// one records nothing; a replay on a stream [Device.CloseStream] retired,
// or racing it and recording after it, records nothing and returns an
// error matching [ErrStreamClosed]. Should the driver reject the batch, it is replayed
// by halves like any batch, and the [*gpu.LaunchError] names the rejected
// launches with the graph's id and their index in it. It does not
// allocate.
func (g *Graph) Replay() error {
	const op = "Replay"
	d := g.d
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	if err := g.check(op); err != nil {
		return err
	}
	if len(g.launches) == 0 {
		return nil
	}
	s, err := d.lockStream(op, g.stream)
	if err != nil {
		return err
	}
	defer s.mu.Unlock()
	return s.replayLocked(op, g)
}

// Release drops the graph: later replays and checks return an error.
// Replays already recorded are submitted first and still run. Releasing
// twice, or after the device's Close, is harmless.
func (g *Graph) Release() {
	if g == nil || g.released.Swap(true) {
		return
	}
	d := g.d
	leave, err := d.enter("Release")
	if err != nil {
		return
	}
	defer leave()
	if s, ok := d.streams.Load(g.stream); ok {
		// A replay that saw the graph unreleased holds this lock (or a
		// stream CloseStream retired, which it flushed).
		s.mu.Lock()
		if g.pendingOn.Load() == s {
			s.flushLocked("Release") // errors belong to the stream's launches
		}
		s.mu.Unlock()
	}
	for _, gb := range g.buffers {
		gb.b.mu.Lock()
		gb.b.graphs = removeGraph(gb.b.graphs, g)
		gb.b.mu.Unlock()
	}
	g.releaseDriver()
}

// String names the graph: "graph 3 (12 launches on stream 5)".
func (g *Graph) String() string {
	return fmt.Sprintf("graph %d (%d launches on stream %d)", g.id, len(g.launches), g.stream)
}

func removeGraph(s []*Graph, g *Graph) []*Graph {
	for i, x := range s {
		if x == g {
			s[i] = s[len(s)-1]
			s[len(s)-1] = nil
			return s[:len(s)-1]
		}
	}
	return s
}
