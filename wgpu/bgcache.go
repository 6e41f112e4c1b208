//go:build cgo || (js && wasm)

package wgpu

import "encoding/binary"

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
// batch.
func (s *stream) groupBG(op string, g *pipeGroup, bufs []*Buffer) (*bindGroup, error) {
	key := keyOf(g, bufs)
	bg := s.recentBG(&key)
	if bg == nil {
		var err error
		if bg, err = s.d.bindGroupFor(op, key, bufs); err != nil {
			return nil, err
		}
		s.recent[s.nextSlot] = recentBG{key: key, bg: bg}
		s.nextSlot = (s.nextSlot + 1) % recentBGs
	}
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
	key bgKey
	bg  *bindGroup
}

// recentBG returns the bind group of a recent launch with key, or nil. The
// caller has checked that the key's buffers are live, so the bind group is.
func (s *stream) recentBG(key *bgKey) *bindGroup {
	for i := range s.recent {
		if r := &s.recent[i]; r.bg != nil && r.key == *key {
			return r.bg
		}
	}
	return nil
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
