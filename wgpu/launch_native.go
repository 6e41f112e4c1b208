//go:build cgo

package wgpu

import (
	"github.com/streamgate/streamgate/gpu"
)

// Launch: the checks before a launch is recorded, and the recording.

// replayRec is one graph's replay recorded on a stream's batch, kept (with
// the batch's launches, native) so that a batch the driver rejects can be
// replayed without its bad launches. A launch is its nativeLaunch alone:
// its sequence number follows from its place in the batch, and its
// kernel's name from its pipeline handle (flattenLocked), so that a launch
// writes no record beside the one the encoder reads.
type replayRec struct {
	g   *Graph // its launches are seq, seq+1, …
	seq uint64 // the sequence number of the replay's first launch
	at  int    // the replay follows native[:at]
}

// launch is Launch: it records the launch that a loop makes most, as the
// browser's build does (stream_js.go), on its flat path: of a pipeline
// found in its kernel's slot, on the stream last recorded on, each of its
// groups binding the buffers of one of the stream's recent bind groups.
// Any other launch it makes through launchSlow, in full, errors included
// (with flatOnly, launchSlow records nothing).
//
// It skips what Launch in full repeats for such a launch: the bind group
// cache's key, and the checks of sizes and usages, which a recent bind
// group's buffers passed for this very pipeline group when its slot was
// filled (a buffer's size and usage never change); it makes the
// workgroup limits, the number of buffers, their liveness and, across
// groups, aliasing. It holds what Launch in full holds, in the same
// order: the device's life lock (read), then the stream's lock. The life
// lock is what keeps a recent bind group alive from the liveness check to
// the flush: a buffer's Release (and a texture's or sampler's) marks it
// released, flushes the streams that use it and releases its bind groups
// all under the life lock written, so a launch that found the buffer live
// has either recorded before the Release began, and is flushed by it, or
// records after it ended and finds the buffer released. (Without it, a
// launch that read the buffer live as the Release began could name the
// stream a user after the Release had flushed the users it knew, and its
// bind group be released under the recorded launch: wgpu-native aborts
// the process on such a batch.) A launch that would fill the batch to
// MaxBatch takes Launch's path, which submits it.
func (d *Device) launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer, flatOnly bool) error {
	if k == nil || d == nil {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	e := d.recent[kernelSlot(k)].Load()
	if e == nil || e.k != k || !e.p.ok.Load() {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	p := e.p
	if lim := d.limits.MaxComputeWorkgroupsPerDimension; workgroups[0] > lim || workgroups[1] > lim || workgroups[2] > lim || len(bindings) != len(p.bindings) {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	s := d.lastStream.Load()
	if s == nil || s.id != id || d.closed.Load() {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	d.life.RLock()
	s.mu.Lock()
	ok := s.recordRecentLocked(p, bindings, workgroups)
	s.mu.Unlock()
	d.life.RUnlock()
	if !ok {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	return nil
}

// recordRecentLocked is launch's recording on the flat path, under the
// device's life lock (read) and the stream's lock: false, with nothing
// recorded, when the device or the stream is closed, the batch would
// fill, or a group has no recent bind group binding exactly its buffers.
func (s *stream) recordRecentLocked(p *pipeline, bindings []gpu.Buffer, workgroups [3]uint32) bool {
	if s.closed || s.d.closed.Load() || s.launches+1 >= s.d.maxBatch {
		return false
	}
	first := len(s.bgs)
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			s.bgs = append(s.bgs, g.empty.ref)
			continue
		}
		r := s.recentFor(g, bindings[g.lo:g.hi])
		if r == nil {
			s.bgs = s.bgs[:first]
			return false
		}
		if recentHook != nil {
			recentHook()
		}
		if !r.used {
			s.useLocked(r.bg)
			r.used = true
		}
		s.bgs = append(s.bgs, r.bg.bg.ref)
	}
	if len(p.groups) > 1 && aliased(p, bindings) {
		s.bgs = s.bgs[:first]
		return false
	}
	s.pushLocked(p, first, workgroups)
	s.launches++
	return true
}

// recentHook, when set (by tests only, before any launch), runs in
// recordRecentLocked between a group's liveness check and the stream's
// naming as its buffers' user, with the locks held: a test makes a
// Release race the launch there.
var recentHook func()

// recentFor returns the stream's recent bind group of group g that binds
// exactly bindings, all live *Buffers, or nil: the lookup of the flat
// path for a repeated launch (launch), which builds no key.
func (s *stream) recentFor(g *pipeGroup, bindings []gpu.Buffer) *recentBG {
	n := len(bindings)
	if n > inlineBindings {
		return nil
	}
slots:
	for i := range s.recent {
		r := &s.recent[i]
		if r.key.g != g || r.key.n != n {
			continue
		}
		ids := r.key.ids[:n]
		for j, cb := range bindings {
			b, ok := cb.(*Buffer)
			if !ok || b == nil || b.id != ids[j] {
				continue slots
			}
			if b.released.Load() || b.recycled.Load() {
				return nil
			}
		}
		return r
	}
	return nil
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
	s.pushLocked(p, first, workgroups)
	return nil
}

// pushLocked appends a launch of p whose bind groups are s.bgs[first:] to
// the batch.
func (s *stream) pushLocked(p *pipeline, first int, workgroups [3]uint32) {
	s.seq++
	s.native = append(s.native, nativeLaunch{pipeline: p.pipe.ref, firstGroup: uint32(first), groups: uint32(len(p.groups)),
		x: workgroups[0], y: workgroups[1], z: workgroups[2]})
}
