//go:build cgo

package wgpu

import (
	"context"

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

// Launch records one dispatch of k with the given workgroup counts and
// buffers on stream. The buffers bind in (group, binding) order of k's
// entry point's interface: the bindings the entry point statically uses,
// in whichever of the device's bind groups and with whatever numbering
// (gaps included), sorted by @group then @binding ([CheckKernel] lists
// them). It compiles k first if needed. The dispatch is submitted later:
// when the stream has MaxBatch dispatches pending, on [Device.Flush] or
// [Device.Sync], or on an upload, read-back or release of a buffer it binds.
//
// Launch checks everything it can before recording: k is not nil; the
// workgroup counts against maxComputeWorkgroupsPerDimension; the number of
// buffers against the kernel's bindings; that each buffer is a live
// [*Buffer] of this device; each buffer's size against the minimum its
// binding needs and its usage against the binding's kind (storage or
// uniform), as the WGSL front-end derives them; and that no buffer is
// bound twice where one binding is read_write. Each failure is an [*Error]
// naming the kernel and the binding, and nothing is recorded.
//
// Should the driver still reject a submitted batch, the stream replays it
// without the launches it rejects: every other launch runs exactly once, in
// order, and the call that submitted the batch returns a
// [*gpu.LaunchError] naming the rejected launches.
func (d *Device) Launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	const op = "Launch"
	var inline [inlineBindings]*Buffer
	p, bufs, err := d.checkLaunch(op, k, workgroups, bindings, inline[:0])
	if err != nil {
		return err
	}
	return d.record(op, id, p, bufs, workgroups)
}

// checkLaunch makes Launch's checks (and a graph recorder's) before
// anything is recorded: it compiles k and returns its pipeline and the
// bindings as *Buffers, appended to bufs.
func (d *Device) checkLaunch(op string, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer, bufs []*Buffer) (*pipeline, []*Buffer, error) {
	if k == nil {
		return nil, nil, newError(op, ErrorTypeInvalidArgument, "nil kernel")
	}
	p, err := d.pipelineFor(context.Background(), k)
	if err != nil {
		return nil, nil, err
	}
	return d.checkBindings(op, p, workgroups, bindings, bufs)
}

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
