//go:build js && wasm

package wgpu

import (
	"slices"
	"syscall/js"
	"unsafe"

	"github.com/streamgate/streamgate/gpu"
)

// A stream of the js build: Launch appends to an integer command list
// (jsrt_js.go's commands) in Go; flushLocked hands the list to the page
// in one call, which encodes it into one compute pass and submits it.

// streamMutex is a stream's lock: in the page, pageMutex (plainload_js.go).
type streamMutex = pageMutex

// streamDriver is the browser's part of a stream: the command list since
// the last flush. Its fields are guarded by the stream's mu.
type streamDriver struct {
	cmds    []uint32 // the commands since the last flush
	replays []*Graph // graphs replayed in the batch
}

// newBindGroup creates the GPUBindGroup of key's group with bufs bound
// and returns its index in the JS table. Called inside d.enter.
func (d *Device) newBindGroup(op string, key bgKey, bufs []*Buffer) (ref int, err error) {
	args := make([]any, 0, 1+3*key.n)
	args = append(args, key.g.bgl)
	for i := range key.n {
		switch b := bufs[i]; {
		case b.view != nil:
			args = append(args, key.g.binds[i].Index, 1, b.view.view)
		case b.sampler != nil:
			args = append(args, key.g.binds[i].Index, 1, b.sampler.h)
		default:
			args = append(args, key.g.binds[i].Index, 0, b.buf)
		}
	}
	catchJS(op, &err, func() { ref = d.rt.bindGroup.Invoke(args...).Int() })
	return ref, err
}

// dropBindGroup drops a bind group that left the cache from the JS table.
func (d *Device) dropBindGroup(bg *bindGroup) { d.rt.del.Invoke(bg.bg) }

// launch is Launch: it records the launch that a loop makes most on its
// flat path: of a pipeline found in its kernel's slot, on the stream last
// recorded on, each of its groups binding the buffers of one of the
// stream's recent bind groups. Any other launch it makes through
// launchSlow, in full, errors included (with flatOnly, launchSlow records
// nothing).
//
// It is the browser's hot path, written flat: in the page every call
// costs (Launch in full made 15 of them), so it makes none on a launch
// that repeats (Launch inlines, so that a launch from Go calls launch
// alone; the lookup of the stream's recent bind groups, recentFor in the
// desktop's build, is written out here, and a kernel's one group, the
// common case, apart from the loop over groups), and none of the bind
// group cache's key building. A recent bind group's buffers passed this
// very pipeline group's checks of sizes and usages when the slot was
// filled, and a buffer's size and usage never change, so those are not
// made again; the workgroup limits, the number of buffers, their liveness
// and, across groups, aliasing are. It holds the stream's lock and not
// the device's life lock: Close marks every stream closed under the
// stream's lock after it sets d.closed, so a launch that reads d.closed
// false as it takes the lock is discarded by Close as any pending one.
// The page runs one goroutine at a time and nothing between those reads
// and TryLock can yield, so reading them just before taking the lock is
// reading them under it; a lock held by a goroutine that yielded inside
// it sends the launch to launchSlow, which waits for it.
func (d *Device) launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer, flatOnly bool) error {
	if k == nil || d == nil {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	e := loadPointer(&d.recent[kernelSlot(k)])
	if e == nil || e.k != k || !loadBool(&e.p.ok) {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	p := e.p
	if lim := d.limits.MaxComputeWorkgroupsPerDimension; workgroups[0] > lim || workgroups[1] > lim || workgroups[2] > lim || len(bindings) != len(p.bindings) {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	s := loadPointer(&d.lastStream)
	if s == nil || s.id != id || s.closed || loadBool(&d.closed) || s.launches+1 >= d.maxBatch || !s.mu.TryLock() {
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	if len(p.groups) == 1 {
		// One group, with all the bindings (it is the highest group a
		// binding uses: splitGroups), at least one: the loop below for a
		// single group, its command (cmdLaunch1) of a fixed size stored
		// with one bounds check.
		b0, _ := bindings[0].(*Buffer)
		if b0 == nil || len(bindings) > inlineBindings {
			s.mu.Unlock()
			return d.launchSlow(id, k, workgroups, bindings, flatOnly)
		}
		g, id0 := &p.groups[0], b0.id
		var r *recentBG
		for i := range s.recent {
			if q := &s.recent[i]; q.key.ids[0] == id0 && q.key.g == g && q.key.n == len(bindings) && sameRest(q, bindings) {
				r = q
				break
			}
		}
		if r == nil || loadBool(&b0.released) || loadBool(&b0.recycled) || len(bindings) > 1 && anyDead(bindings[1:]) {
			s.mu.Unlock()
			return d.launchSlow(id, k, workgroups, bindings, flatOnly)
		}
		if !r.used {
			s.useLocked(r.bg)
			r.used = true
		}
		l := len(s.cmds)
		if cap(s.cmds)-l < 6 {
			s.cmds = slices.Grow(s.cmds, 6)
		}
		c := (*[6]uint32)(s.cmds[l : l+6])
		c[0], c[1], c[2] = cmdLaunch1, uint32(p.pipe), uint32(r.bg.bg)
		c[3], c[4], c[5] = workgroups[0], workgroups[1], workgroups[2]
		s.cmds = s.cmds[:l+6]
		s.seq++
		s.launches++
		s.mu.Unlock()
		return nil
	}
	// The launch's commands go past len(s.cmds) and are kept by the one
	// reslice at the end: a launch that falls back leaves nothing.
	n := 6 + len(p.groups)
	l := len(s.cmds)
	if cap(s.cmds)-l < n {
		s.cmds = slices.Grow(s.cmds, n)
	}
	c := s.cmds[l : l+n : l+n]
	c[0], c[1], c[2] = cmdLaunch, uint32(p.pipe), uint32(len(p.groups))
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			c[3+gi] = uint32(g.empty)
			continue
		}
		// The stream's recent bind group that binds exactly this group's
		// buffers (recentFor, written out: a call costs here). Each slot
		// is tested by its first buffer's id first, read once.
		bs := bindings[g.lo:g.hi]
		b0, _ := bs[0].(*Buffer)
		if b0 == nil || len(bs) > inlineBindings {
			s.mu.Unlock()
			return d.launchSlow(id, k, workgroups, bindings, flatOnly)
		}
		var r *recentBG
		for i := range s.recent {
			if q := &s.recent[i]; q.key.ids[0] == b0.id && q.key.g == g && q.key.n == len(bs) && sameRest(q, bs) {
				r = q
				break
			}
		}
		if r == nil || loadBool(&b0.released) || loadBool(&b0.recycled) || len(bs) > 1 && anyDead(bs[1:]) {
			s.mu.Unlock()
			return d.launchSlow(id, k, workgroups, bindings, flatOnly)
		}
		if !r.used {
			s.useLocked(r.bg)
			r.used = true
		}
		c[3+gi] = uint32(r.bg.bg)
	}
	if len(p.groups) > 1 && aliased(p, bindings) {
		s.mu.Unlock()
		return d.launchSlow(id, k, workgroups, bindings, flatOnly)
	}
	c[n-3], c[n-2], c[n-1] = workgroups[0], workgroups[1], workgroups[2]
	s.cmds = s.cmds[:l+n]
	s.seq++
	s.launches++
	s.mu.Unlock()
	return nil
}

// sameRest reports whether bs[1:] are the buffers whose ids r's key holds
// after its first (launch compares the first).
func sameRest(r *recentBG, bs []gpu.Buffer) bool {
	for j := 1; j < len(bs); j++ {
		if b, ok := bs[j].(*Buffer); !ok || b == nil || b.id != r.key.ids[j] {
			return false
		}
	}
	return true
}

// anyDead reports whether one of bs, all *Buffers, is released or
// recycled.
func anyDead(bs []gpu.Buffer) bool {
	for _, cb := range bs {
		if b := cb.(*Buffer); loadBool(&b.released) || loadBool(&b.recycled) {
			return true
		}
	}
	return false
}

// appendLaunchLocked appends a checked launch of p to the stream's
// command list (its head, a bind group per group, the workgroups), or
// nothing and the error of a bind group that could not be made.
func (s *stream) appendLaunchLocked(op string, p *pipeline, bufs []*Buffer, workgroups [3]uint32) error {
	first := len(s.cmds)
	s.cmds = appendLaunchHead(s.cmds, p, uint32(p.pipe))
	for gi := range p.groups {
		g := &p.groups[gi]
		if g.lo == g.hi {
			s.cmds = append(s.cmds, uint32(g.empty))
			continue
		}
		bg, err := s.groupBG(op, g, bufs[g.lo:g.hi])
		if err != nil {
			s.cmds = s.cmds[:first]
			return err
		}
		s.cmds = append(s.cmds, uint32(bg.bg))
	}
	s.cmds = append(s.cmds, workgroups[0], workgroups[1], workgroups[2])
	s.seq++
	return nil
}

// flushLocked hands the stream's commands to the page, which encodes them
// into one compute pass and submits it: one copy of the list and one call.
func (s *stream) flushLocked(op string) error {
	if len(s.cmds) == 0 {
		return nil
	}
	d := s.d
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s.cmds))), 4*len(s.cmds))
	var err error
	d.jsMu.Lock()
	catchJS(op, &err, func() {
		d.rt.load(raw)
		d.rt.flush.Invoke(len(s.cmds))
	})
	d.jsMu.Unlock()
	if err == nil {
		s.submitted = true
	}
	s.clearLocked()
	return err
}

// clearLocked forgets the batch: its commands, the bind groups it used
// and its replays.
func (s *stream) clearLocked() {
	s.dropUsedLocked()
	for _, g := range s.replays {
		g.pendingOn.CompareAndSwap(s, nil)
	}
	clear(s.replays)
	s.replays = s.replays[:0]
	s.cmds = s.cmds[:0]
	s.launches = 0
}

// discardLocked drops the pending work without submitting it.
func (s *stream) discardLocked() { s.clearLocked() }

// workDone returns a status word set once the queue has done the work
// submitted so far (queue.onSubmittedWorkDone) and the error scope of the
// device's work since the last call has resolved: its err is the first
// error the browser found in that work.
func (d *Device) workDone(op string) (st statusWord, err error) {
	var p js.Value
	catchJS(op, &err, func() { p = d.rt.done.Invoke() })
	if err != nil {
		return st, err
	}
	st = newStatusWord()
	st.settle(p)
	return st, nil
}
