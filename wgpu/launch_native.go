//go:build cgo

package wgpu

import (
	"github.com/streamgate/streamgate/gpu"
)

// Launch: the checks before a launch is recorded, and the recording.

// launchRec is one launch, or one graph's replay, recorded on a stream's
// pending encoder, kept so that a batch the driver rejects can be replayed
// without its bad launches. A launch's bind groups are in the stream's bgs,
// named by its nativeLaunch, native[ni]; a replay's are the graph's.
type launchRec struct {
	p   *pipeline
	wg  [3]uint32
	seq uint64 // the launch's sequence number; a replay's first launch's
	ni  int    // the launch's index in the stream's native
	g   *Graph // non-nil for a replay of g: its launches are seq, seq+1, …
}

// launchRecent reports false: on the desktop every launch takes Launch's
// one path (the browser's build has a flat path for a repeated launch).
func (d *Device) launchRecent(gpu.StreamID, *gpu.Kernel, [3]uint32, []gpu.Buffer) bool { return false }

// appendLaunchLocked appends a checked launch of p to the stream's batch:
// a bind group per group of p's layout and the dispatch, or nothing and
// the error of a bind group that could not be made.
func (s *stream) appendLaunchLocked(op string, p *pipeline, bufs []*Buffer, workgroups [3]uint32) error {
	first := len(s.bgs)
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			s.bgs = append(s.bgs, g.empty.ref)
			continue
		}
		bg, err := s.groupBG(op, g, bufs[g.lo:g.hi])
		if err != nil {
			s.bgs = s.bgs[:first]
			return err
		}
		s.bgs = append(s.bgs, bg.bg.ref)
	}
	s.seq++
	s.batch = append(s.batch, launchRec{p: p, wg: workgroups, seq: s.seq, ni: len(s.native)})
	s.native = append(s.native, nativeLaunch{pipeline: p.pipe.ref, firstGroup: uint32(first), groups: uint32(len(p.groups)),
		x: workgroups[0], y: workgroups[1], z: workgroups[2]})
	return nil
}
