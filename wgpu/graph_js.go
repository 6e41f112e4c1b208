//go:build js && wasm

package wgpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/streamgate/streamgate/gpu"
)

// Graphs of the js build: a capture's launches are checked, compiled and
// their bind groups made as on the desktop, and their commands
// (jsrt_js.go) kept by the page as one Uint32Array; a replay appends one
// command naming it to the stream's list, which the flush's one call
// expands in the page, with no per-launch work in Go.

var _ gpu.Capturer = (*Device)(nil)

// Capture starts recording a graph of launches for stream id (see the
// desktop build's Capture).
func (d *Device) Capture(id gpu.StreamID) (gpu.GraphRecorder, error) {
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
// concurrent use: one goroutine records, then calls Finish once. The zero
// value is not usable; use [Device.Capture].
type GraphRecorder struct {
	d        *Device
	stream   gpu.StreamID
	launches []graphLaunch
	cmds     []uint32 // the graph's commands; pipeAt are the pipeline slots Finish fills
	pipeAt   []int
	buffers  []graphBuffer
	index    map[*Buffer]int
	finished bool
}

var _ gpu.GraphRecorder = (*GraphRecorder)(nil)

type graphLaunch struct {
	p  *pipeline
	wg [3]uint32
}

type graphBuffer struct {
	b       *Buffer
	gen     uint64
	launch  int
	binding int
}

// Launch checks the launch of k as [Device.Launch] does, makes its bind
// groups and records it into the graph; nothing executes. A kernel not
// compiled yet is checked here and its browser compile started; Finish
// waits for it.
func (r *GraphRecorder) Launch(k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	const op = "Capture"
	d := r.d
	if r.finished {
		return newError(op, ErrorTypeInvalidArgument, "Launch on a finished graph recorder")
	}
	if k == nil {
		return newError(op, ErrorTypeInvalidArgument, "nil kernel")
	}
	p, err := d.frontFor(context.Background(), k)
	if err != nil {
		return err
	}
	var inline [inlineBindings]*Buffer
	p, bufs, err := d.checkBindings(op, p, workgroups, bindings, inline[:0])
	if err != nil {
		return err
	}
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	for i, b := range bufs {
		if b.released.Load() || b.recycled.Load() {
			return d.deadBinding(op, p, i, b)
		}
	}
	first := len(r.cmds)
	r.cmds = append(r.cmds, cmdLaunch, 0, uint32(len(p.groups)))
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			r.cmds = append(r.cmds, uint32(g.empty))
			continue
		}
		gb := bufs[g.lo:g.hi]
		bg, err := d.bindGroupFor(op, keyOf(g, gb), gb)
		if err != nil {
			r.cmds = r.cmds[:first]
			return err
		}
		r.cmds = append(r.cmds, uint32(bg.ref))
	}
	r.cmds = append(r.cmds, workgroups[0], workgroups[1], workgroups[2])
	r.pipeAt = append(r.pipeAt, first+1)
	li := len(r.launches)
	for i, b := range bufs {
		if _, ok := r.index[b]; !ok {
			r.index[b] = len(r.buffers)
			r.buffers = append(r.buffers, graphBuffer{b: b, gen: b.gen.Load(), launch: li, binding: i})
		}
	}
	r.launches = append(r.launches, graphLaunch{p: p, wg: workgroups})
	return nil
}

// Len returns how many launches the recorder holds.
func (r *GraphRecorder) Len() int { return len(r.launches) }

// Finish returns the graph of the launches recorded (see the desktop
// build's). It waits for the browser's compiles of the graph's kernels:
// call it from a goroutine, not inside a js.FuncOf callback.
func (r *GraphRecorder) Finish() (gpu.Graph, error) {
	g, err := r.finishGraph()
	if err != nil {
		return nil, err
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
	for i, l := range r.launches {
		select {
		case <-l.p.done:
		default:
			if inCallback() {
				return nil, callbackError(op)
			}
			<-l.p.done
		}
		if l.p.err != nil {
			return nil, l.p.err
		}
		r.cmds[r.pipeAt[i]] = uint32(l.p.pipe)
	}
	leave, err := d.enter(op)
	if err != nil {
		return nil, err
	}
	defer leave()
	if d.isRetired(r.stream) {
		return nil, streamClosedError(op, r.stream)
	}
	g := &Graph{d: d, id: gpu.NewGraphID(), stream: r.stream, launches: r.launches, buffers: r.buffers, n: len(r.launches)}
	e := d.bufEpoch.Load()
	if err := g.checkBuffers(op); err != nil {
		return nil, err
	}
	if len(r.cmds) > 0 {
		raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(r.cmds))), 4*len(r.cmds))
		d.jsMu.Lock()
		catchJS(op, &err, func() {
			d.rt.load(raw)
			g.ref = d.rt.graph.Invoke(len(r.cmds)).Int()
		})
		d.jsMu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	for _, gb := range g.buffers {
		gb.b.mu.Lock()
		gb.b.graphs = append(gb.b.graphs, g)
		gb.b.mu.Unlock()
	}
	g.epoch.Store(e + 1)
	r.launches, r.cmds, r.pipeAt, r.buffers, r.index = nil, nil, nil, nil, nil
	return g, nil
}

// Graph is a captured sequence of launches on one stream of a device; see
// the desktop build's Graph. In the js build the page keeps its commands,
// and a replay costs Go one command on the stream's list. A Graph is safe
// for concurrent use by multiple goroutines. The zero value is not usable;
// use [Device.Capture].
type Graph struct {
	d        *Device       // written once
	id       uint64        // written once
	stream   gpu.StreamID  // written once
	launches []graphLaunch // written once
	buffers  []graphBuffer // written once
	n        int           // written once: len(launches)
	ref      int           // written once: the commands' index in the JS table (0: none)

	epoch     atomic.Uint64
	released  atomic.Bool
	pendingOn atomic.Pointer[stream]
}

var _ gpu.Graph = (*Graph)(nil)

// ID returns the graph's process-unique id.
func (g *Graph) ID() uint64 { return g.id }

// Len returns how many launches the graph holds.
func (g *Graph) Len() int { return g.n }

// Stream returns the stream the graph replays on.
func (g *Graph) Stream() gpu.StreamID { return g.stream }

// Device returns the graph's device.
func (g *Graph) Device() *Device { return g.d }

// Check reports whether the graph could replay now (see the desktop
// build's Check).
func (g *Graph) Check() error {
	const op = "Replay"
	if g.d.closed.Load() {
		return closedError(op)
	}
	return g.check(op)
}

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

func (g *Graph) checkBuffers(op string) error {
	for _, gb := range g.buffers {
		b := gb.b
		var why string
		switch {
		case b.released.Load():
			why = "buffer is released"
		case b.recycled.Load():
			why = "buffer is recycled"
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

// Replay records every launch of the graph on its stream, after the
// stream's earlier launches: one command on the stream's list, expanded
// by the page at the flush. It makes [Graph.Check]'s checks first, and on
// a failed one records nothing; on a stream CloseStream retired it
// returns an error matching [ErrStreamClosed].
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
	if g.n == 0 {
		return nil
	}
	s, err := d.lockStream(op, g.stream)
	if err != nil {
		return err
	}
	defer s.mu.Unlock()
	if g.released.Load() {
		return newError(op, ErrorTypeInvalidArgument, "graph %d is released", g.id)
	}
	s.cmds = append(s.cmds, cmdReplay, uint32(g.ref))
	s.seq += uint64(g.n)
	s.launches += g.n
	if g.pendingOn.Swap(s) != s {
		s.replays = append(s.replays, g)
	}
	if s.launches >= d.maxBatch {
		return s.flushLocked(op)
	}
	return nil
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
		s.mu.Lock()
		if g.pendingOn.Load() == s {
			s.flushLocked("Release")
		}
		s.mu.Unlock()
	}
	for _, gb := range g.buffers {
		gb.b.mu.Lock()
		gb.b.graphs = removeGraph(gb.b.graphs, g)
		gb.b.mu.Unlock()
	}
	if g.ref != 0 {
		d.rt.del.Invoke(g.ref)
	}
}

// String names the graph: "graph 3 (12 launches on stream 5)".
func (g *Graph) String() string {
	return fmt.Sprintf("graph %d (%d launches on stream %d)", g.id, g.n, g.stream)
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
