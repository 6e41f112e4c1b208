package wgpu

import (
	"encoding/binary"
	"slices"
)

// The bind group cache's keys and a stream's recent bind groups, shared
// by the desktop build and the browser's (js): each build's bindGroup and
// Device.bindGroupFor make and keep the bind groups themselves.

// inlineBindings is how many buffer ids a bind group cache key holds
// inline; a group with more bindings keys the rest in a string.
const inlineBindings = 16

// bgKey identifies a cached bind group: one group of a pipeline's layout
// and the ids of the buffers bound to that group's bindings, in order.
// Bind groups are cached per group, so a launch that changes only one
// group's buffers reuses the others'.
type bgKey struct {
	g    *pipeGroup
	n    int
	ids  [inlineBindings]uint64
	more string // ids past inlineBindings, 8 bytes each, when n > inlineBindings
}

// groupBG returns the bind group of group g with bufs bound, from the
// stream's recent ones or the device's cache, and marks it used by the
// batch (once per batch for a recent one: its slot remembers).
func (s *stream) groupBG(op string, g *pipeGroup, bufs []*Buffer) (*bindGroup, error) {
	key := keyOf(g, bufs)
	if r := s.recentBG(&key); r != nil {
		if !r.used {
			s.useLocked(r.bg)
			r.used = true
		}
		return r.bg, nil
	}
	bg, err := s.d.bindGroupFor(op, key, bufs)
	if err != nil {
		return nil, err
	}
	s.recent[s.nextSlot] = recentBG{key: key, bg: bg, used: true}
	s.nextSlot = (s.nextSlot + 1) % recentBGs
	s.useLocked(bg)
	return bg, nil
}

// keyOf returns the cache key of group g's bind group with bufs bound.
func keyOf(g *pipeGroup, bufs []*Buffer) bgKey {
	key := bgKey{g: g, n: len(bufs)}
	for i, b := range bufs {
		if i == inlineBindings {
			key.more = moreIDs(bufs[inlineBindings:])
			break
		}
		key.ids[i] = b.id
	}
	return key
}

// recentBGs is how many recent bind groups a stream remembers, so that a
// loop alternating a few kernels finds its bind groups without the device's
// map.
const recentBGs = 4

type recentBG struct {
	key  bgKey
	bg   *bindGroup
	used bool // bg is in the stream's used set for the current batch
}

// recentBG returns the slot of a recent launch's bind group with key, or
// nil. The caller has checked that the key's buffers are live, so the
// bind group is. It compares the key's n ids, not all of them.
func (s *stream) recentBG(key *bgKey) *recentBG {
	for i := range s.recent {
		r := &s.recent[i]
		if r.bg == nil || r.key.g != key.g || r.key.n != key.n || r.key.more != key.more {
			continue
		}
		if slices.Equal(r.key.ids[:min(key.n, inlineBindings)], key.ids[:min(key.n, inlineBindings)]) {
			return r
		}
	}
	return nil
}

// forgetUsedLocked clears the recent slots' used marks, as the batch's
// used set is emptied.
func (s *stream) forgetUsedLocked() {
	for i := range s.recent {
		s.recent[i].used = false
	}
}

// dropUsedLocked empties the batch's used set: its bind groups' buffers
// no longer name the stream as a user, and the recent slots forget their
// used marks.
func (s *stream) dropUsedLocked() {
	for bg := range s.used {
		for _, b := range bg.buffers {
			b.mu.Lock()
			delete(b.users, s)
			b.mu.Unlock()
		}
		delete(s.used, bg)
	}
	s.forgetUsedLocked()
}

// useLocked marks bg's buffers as used by the stream's batch, so that an
// upload, read-back or release of one of them flushes the stream first.
func (s *stream) useLocked(bg *bindGroup) {
	if _, ok := s.used[bg]; ok {
		return
	}
	s.used[bg] = struct{}{}
	for _, b := range bg.buffers {
		b.mu.Lock()
		b.users[s] = struct{}{}
		b.mu.Unlock()
	}
}

// moreIDs encodes the ids of the buffers past inlineBindings for a bgKey.
func moreIDs(bufs []*Buffer) string {
	out := make([]byte, 0, 8*len(bufs))
	for _, b := range bufs {
		out = binary.LittleEndian.AppendUint64(out, b.id)
	}
	return string(out)
}

// bindGroup is a cached bind group. It is released when one of its buffers
// is, or by Close.
type bindGroup struct {
	key     bgKey     // written once
	bg      bgHandle  // written once
	buffers []*Buffer // written once: the n buffers bound
}

// bindGroupFor returns the cached bind group for key, creating it. Called
// with d.life read-locked.
func (d *Device) bindGroupFor(op string, key bgKey, bufs []*Buffer) (*bindGroup, error) {
	d.bgMu.Lock()
	bg, ok := d.bindGroups[key]
	d.bgMu.Unlock()
	if ok {
		return bg, nil
	}
	h, err := d.newBindGroup(op, key, bufs)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Message = key.g.name + ": " + e.Message
		}
		return nil, err
	}
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	if old, ok := d.bindGroups[key]; ok { // lost a race: keep the first
		d.dropBindGroup(&bindGroup{bg: h})
		return old, nil
	}
	bg = &bindGroup{key: key, bg: h, buffers: append([]*Buffer(nil), bufs...)}
	d.bindGroups[key] = bg
	for _, b := range bg.buffers {
		if len(b.bindGroups) == 0 || b.bindGroups[len(b.bindGroups)-1] != bg {
			b.bindGroups = append(b.bindGroups, bg)
		}
	}
	return bg, nil
}
