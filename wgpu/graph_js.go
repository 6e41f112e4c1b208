//go:build js && wasm

package wgpu

import "unsafe"

// Graphs of the js build: a capture's launches are checked, compiled and
// their bind groups made as on the desktop, and their commands
// (jsrt_js.go) kept by the page as one Uint32Array; a replay appends one
// command naming it to the stream's list, which the flush's one call
// expands in the page, with no per-launch work in Go.

// recorderDriver is what a js GraphRecorder records for the page.
type recorderDriver struct {
	cmds   []uint32 // the graph's commands; pipeAt are the pipeline slots Finish fills
	pipeAt []int
}

// graphDriver is what a js Graph replays: the page keeps its commands,
// and a replay costs Go one command on the stream's list.
type graphDriver struct {
	ref int // written once: the commands' index in the JS table (0: none)
}

// recordGroups appends a launch command and the indexes of p's bind
// groups with bufs bound, made if need be, and returns where the command
// starts; a failed one appends nothing.
func (r *GraphRecorder) recordGroups(op string, p *pipeline, bufs []*Buffer) (first int, err error) {
	first = len(r.rec.cmds)
	r.rec.cmds = appendLaunchHead(r.rec.cmds, p, 0)
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			r.rec.cmds = append(r.rec.cmds, uint32(g.empty))
			continue
		}
		gb := bufs[g.lo:g.hi]
		bg, err := r.d.bindGroupFor(op, keyOf(g, gb), gb)
		if err != nil {
			r.rec.cmds = r.rec.cmds[:first]
			return 0, err
		}
		r.rec.cmds = append(r.rec.cmds, uint32(bg.bg))
	}
	return first, nil
}

// recordDispatch ends the launch command at first with its workgroup
// counts; its pipeline slot is filled in by Finish, once the browser's
// compile is done.
func (r *GraphRecorder) recordDispatch(first int, _ *pipeline, workgroups [3]uint32) {
	r.rec.cmds = append(r.rec.cmds, workgroups[0], workgroups[1], workgroups[2])
	r.rec.pipeAt = append(r.rec.pipeAt, first+1)
}

// waitPipelines waits for the browser's compile of every launch's pipeline
// and fills in its slot; the error is the first failed launch's. Inside a
// js.FuncOf callback it does not wait: a compile still running is an
// error.
func (r *GraphRecorder) waitPipelines(op string) error {
	for i, l := range r.launches {
		select {
		case <-l.p.done:
		default:
			if inCallback() {
				return callbackError(op)
			}
			<-l.p.done
		}
		if l.p.err != nil {
			return l.p.err
		}
		r.rec.cmds[r.rec.pipeAt[i]] = uint32(l.p.pipe)
	}
	return nil
}

// setDriver hands the recorder's commands to the page, which keeps them
// as g's. Called inside d.enter.
func (g *Graph) setDriver(op string, r *GraphRecorder) (err error) {
	if len(r.rec.cmds) == 0 {
		return nil
	}
	d := g.d
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(r.rec.cmds))), 4*len(r.rec.cmds))
	d.jsMu.Lock()
	catchJS(op, &err, func() {
		d.rt.load(raw)
		g.drv.ref = d.rt.graph.Invoke(len(r.rec.cmds)).Int()
	})
	d.jsMu.Unlock()
	return err
}

// releaseDriver drops g's commands from the JS table.
func (g *Graph) releaseDriver() {
	if g.drv.ref != 0 {
		g.d.rt.del.Invoke(g.drv.ref)
	}
}

// replayLocked records a checked replay of g on s: one command on the
// stream's list, expanded by the page at the flush.
func (s *stream) replayLocked(op string, g *Graph) error {
	if g.released.Load() { // Release flushes under this lock after setting it
		return newError(op, ErrorTypeInvalidArgument, "graph %d is released", g.id)
	}
	n := len(g.launches)
	s.cmds = append(s.cmds, cmdReplay, uint32(g.drv.ref))
	s.seq += uint64(n)
	s.launches += n
	if g.pendingOn.Swap(s) != s {
		s.replays = append(s.replays, g)
	}
	if s.launches >= s.d.maxBatch {
		return s.flushLocked(op)
	}
	return nil
}
