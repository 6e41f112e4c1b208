//go:build cgo

package wgpu

// Graphs: a stream's launches captured once (checked, compiled, their bind
// groups made) and replayed onto the stream in one cgo crossing each. The
// recorder and the graph are graph.go's; here are what the desktop
// build records of them.

// recorderDriver is what a desktop GraphRecorder records for the driver.
type recorderDriver struct {
	native []nativeLaunch // by handle; firstGroup indexes bgs
	bgs    []uintptr
}

// graphDriver is what a desktop Graph replays: [Graph.Replay] records them
// all on the stream in one cgo crossing, with no per-launch work in Go.
type graphDriver struct {
	native []nativeLaunch // written once; firstGroup indexes bgs
	bgs    []uintptr      // written once: bind group handles
}

// recordGroups appends the handles of p's bind groups with bufs bound,
// made if need be, and returns where they start; a failed one appends
// nothing.
func (r *GraphRecorder) recordGroups(op string, p *pipeline, bufs []*Buffer) (first int, err error) {
	first = len(r.rec.bgs)
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			r.rec.bgs = append(r.rec.bgs, g.empty.ref)
			continue
		}
		gb := bufs[g.lo:g.hi]
		bg, err := r.d.bindGroupFor(op, keyOf(g, gb), gb)
		if err != nil {
			r.rec.bgs = r.rec.bgs[:first]
			return 0, err
		}
		r.rec.bgs = append(r.rec.bgs, bg.bg.ref)
	}
	return first, nil
}

// recordDispatch records the dispatch of p whose bind groups start at
// first. The pipeline handle is filled in by Finish, once the driver half
// of p's compile (which may still run on a compile worker) is done.
func (r *GraphRecorder) recordDispatch(first int, p *pipeline, workgroups [3]uint32) {
	r.rec.native = append(r.rec.native, nativeLaunch{firstGroup: uint32(first), groups: uint32(len(p.groups)),
		x: workgroups[0], y: workgroups[1], z: workgroups[2]})
}

// waitPipelines waits for the compile of every launch's pipeline and fills
// in its handle. The error is the first failed launch's, in launch order:
// the error [Device.Launch] would have returned at that launch (the
// driver's refusal of the lowered source, or ErrClosed).
func (r *GraphRecorder) waitPipelines(string) error {
	for i := range r.launches {
		p := r.launches[i].p
		<-p.done
		if p.err != nil {
			return p.err
		}
		r.rec.native[i].pipeline = p.pipe.ref
	}
	return nil
}

// replayLocked records a checked replay of g on s.
func (s *stream) replayLocked(op string, g *Graph) error {
	if g.released.Load() { // Release flushes under this lock after setting it
		return newError(op, ErrorTypeInvalidArgument, "graph %d is released", g.id)
	}
	if s.encoded < len(s.native) {
		s.encodeLocked(op) // the launches before it; an error stays in encErr, for the flush
	}
	if err := s.openPassLocked(op); err != nil {
		return err
	}
	recordPass(s.pass, g.drv.native, g.drv.bgs)
	s.replays = append(s.replays, replayRec{g: g, seq: s.seq + 1, at: len(s.native)})
	s.seq += uint64(len(g.drv.native))
	s.launches += len(g.drv.native)
	g.pendingOn.Store(s)
	if s.launches >= s.d.maxBatch {
		return s.flushLocked(op)
	}
	return nil
}

// setDriver hands the recorder's launches to g. Called inside d.enter.
func (g *Graph) setDriver(_ string, r *GraphRecorder) error {
	g.drv = graphDriver{native: r.rec.native, bgs: r.rec.bgs}
	return nil
}

// releaseDriver frees nothing: a desktop graph holds no wgpu object of its
// own (its bind groups are the device's cached ones, its pipelines the
// device's).
func (g *Graph) releaseDriver() {}
