package registry

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// The overrides live in a persistent hash array mapped trie (HAMT) from a
// stream to its override stack. A write copies the nodes on one path, from
// the root to the stream's leaf: O(log k) small nodes for k streams with a
// live override, never the whole map. Published nodes are never modified.
//
// Each level consumes trieBits bits of the stream's hash, from the top.
// Once the hash is spent (below maxShift levels), streams whose hashes are
// all equal share a collision node, scanned in full.

const (
	// trieBits is how many hash bits a level consumes: 16-way nodes.
	trieBits = 4
	// trieMask selects one level's bits.
	trieMask = 1<<trieBits - 1
	// topShift is the shift of the root's bits: the hash's top trieBits.
	topShift = 64 - trieBits
	// collisionNode marks, in a slot's bm, a collision node rather than an
	// interior one; its low bits count the node's leaves.
	collisionNode = 1 << 31
)

// slot is one child of a node, and the root: the node's bitmap is kept in
// the slot that points at it, so a lookup reads a node's bitmap and its
// child in one place.
//
//   - bm == 0: a leaf, or nothing: ptr is the *leaf (nil when empty).
//   - bm&collisionNode != 0: a collision node: ptr points at the first of
//     bm&^collisionNode slots, each a leaf of a different stream, all of
//     one hash. Only where the hash is spent.
//   - otherwise an interior node: ptr points at the first of
//     bits.OnesCount32(bm) slots, one for each bit set in bm, in bit order.
//
// A slot is never modified once published.
type slot struct {
	ptr unsafe.Pointer
	bm  uint32
}

// slotSize is the size of a slot, for stepping through a node.
const slotSize = unsafe.Sizeof(slot{})

// leaf is one live override, and the head of its stream's override stack:
// the newest live override of a stream is the leaf in the trie, the older
// ones are linked behind it. Set allocates one leaf; releasing the newest
// override publishes the next one as the new head without allocating.
// A leaf is never modified once published.
type leaf struct {
	stream ServiceStream
	id     uint64
	mode   StreamMode
	older  *leaf // the stream's next newest live override, or nil
}

// leafSlot returns the slot holding l (the empty slot when l is nil).
func leafSlot(l *leaf) slot { return slot{ptr: unsafe.Pointer(l)} }

// kids returns the slots of the interior or collision node sl points at.
func (sl slot) kids() []slot {
	n := bits.OnesCount32(sl.bm)
	if sl.bm&collisionNode != 0 {
		n = int(sl.bm &^ collisionNode)
	}
	return unsafe.Slice((*slot)(sl.ptr), n)
}

// newNode returns a slot pointing at a copy of kids, with bitmap bm.
func newNode(bm uint32, kids ...slot) slot {
	n := make([]slot, len(kids))
	copy(n, kids)
	return slot{ptr: unsafe.Pointer(&n[0]), bm: bm}
}

// hashUnmask is cleared from every stream hash: 0 but in tests, which set
// it (SetHashMask in export_test.go) to force hash collisions. Atomic,
// because a leaked override's cleanup may hash while a test sets it.
var hashUnmask atomic.Uint64

// hash mixes s into 64 bits (a multiply-xorshift finalizer): the trie
// consumes them from the top.
func hash(s ServiceStream) uint64 {
	h := uint64(s.Stream)*0x9e3779b97f4a7c15 ^ uint64(s.Service)
	h ^= h >> 32
	h *= 0xd6e8feb86659fd93
	h ^= h >> 32
	return h &^ hashUnmask.Load()
}

// lookup returns the head of s's override stack, or nil; h is hash(s). It
// never allocates.
func (t *trieSnapshot) lookup(h uint64, s ServiceStream) *leaf {
	bit := uint32(1) << (h >> topShift & trieMask)
	if t.rootBM&bit == 0 {
		return nil
	}
	return t.kids[bits.OnesCount32(t.rootBM&(bit-1))].lookup(h, topShift-trieBits, s)
}

// lookupMode returns the mode of s's newest live override, or def.
func (t *trieSnapshot) lookupMode(s ServiceStream, def StreamMode) StreamMode {
	if l := t.lookup(hash(s), s); l != nil {
		return l.mode
	}
	return def
}

// lookup returns the head of s's override stack in the subtrie at sl,
// whose bits start at shift, or nil; h is hash(s).
func (sl *slot) lookup(h uint64, shift int, s ServiceStream) *leaf {
	for ; ; shift -= trieBits {
		if sl.bm == 0 {
			if l := (*leaf)(sl.ptr); l != nil && l.stream == s {
				return l
			}
			return nil
		}
		if shift < 0 { // a collision node
			for _, k := range sl.kids() {
				if l := (*leaf)(k.ptr); l.stream == s {
					return l
				}
			}
			return nil
		}
		bit := uint32(1) << (h >> uint(shift) & trieMask)
		if sl.bm&bit == 0 {
			return nil
		}
		sl = (*slot)(unsafe.Add(sl.ptr, uintptr(bits.OnesCount32(sl.bm&(bit-1)))*slotSize))
	}
}

// replace makes head the head of s's override stack in t's trie, in
// place (t is not published yet): removed when head is nil. h is hash(s).
// The root's kids are t's own; below them it copies the nodes on s's path
// only (slot.replace).
func (t *trieSnapshot) replace(h uint64, s ServiceStream, head *leaf) {
	bit := uint32(1) << (h >> topShift & trieMask)
	n := bits.OnesCount32(t.rootBM)
	i := bits.OnesCount32(t.rootBM & (bit - 1))
	if t.rootBM&bit == 0 {
		if head != nil {
			copy(t.kids[i+1:n+1], t.kids[i:n])
			t.kids[i] = leafSlot(head)
			t.rootBM |= bit
		}
		return
	}
	k := t.kids[i].replace(h, topShift-trieBits, s, head)
	if k == (slot{}) { // the child is gone
		copy(t.kids[i:n-1], t.kids[i+1:n])
		t.kids[n-1] = slot{}
		t.rootBM &^= bit
		return
	}
	t.kids[i] = k
}

// each calls f with the head of every override stack of the subtrie at sl.
func (sl slot) each(f func(*leaf)) {
	if sl.bm == 0 {
		if l := (*leaf)(sl.ptr); l != nil {
			f(l)
		}
		return
	}
	for _, k := range sl.kids() {
		k.each(f)
	}
}

// replace returns a copy of the subtrie at sl (whose bits start at shift)
// in which s's override stack is head: removed when head is nil. h is
// hash(s). It copies the nodes on s's path only; every other node is
// shared with sl.
//
// The trie stays canonical: a node never holds a lone leaf (it moves up to
// its parent's slot), so the same streams make the same shape whatever the
// order of the writes.
func (sl slot) replace(h uint64, shift int, s ServiceStream, head *leaf) slot {
	if sl.bm == 0 {
		l := (*leaf)(sl.ptr)
		if l == nil || l.stream == s {
			return leafSlot(head)
		}
		if head == nil {
			return sl // s has no stack here: nothing to remove
		}
		return join(l, hash(l.stream), head, h, shift)
	}
	kids := sl.kids()
	if shift < 0 { // a collision node: every leaf has hash h
		for i, k := range kids {
			if (*leaf)(k.ptr).stream != s {
				continue
			}
			if head != nil {
				n := newNode(sl.bm, kids...)
				n.kids()[i] = leafSlot(head)
				return n
			}
			if len(kids) == 2 {
				return kids[1-i] // a lone leaf moves up
			}
			n := newNode(sl.bm-1, kids[:len(kids)-1]...)
			copy(n.kids()[i:], kids[i+1:])
			return n
		}
		if head == nil {
			return sl
		}
		n := newNode(sl.bm+1, append(kids[:len(kids):len(kids)], leafSlot(head))...)
		return n
	}
	bit := uint32(1) << (h >> uint(shift) & trieMask)
	i := bits.OnesCount32(sl.bm & (bit - 1))
	if sl.bm&bit == 0 {
		if head == nil {
			return sl
		}
		n := make([]slot, len(kids)+1)
		copy(n, kids[:i])
		n[i] = leafSlot(head)
		copy(n[i+1:], kids[i:])
		return slot{ptr: unsafe.Pointer(&n[0]), bm: sl.bm | bit}
	}
	k := kids[i].replace(h, shift-trieBits, s, head)
	if k == (slot{}) { // the child is gone
		switch len(kids) {
		case 1:
			return slot{}
		case 2:
			if other := kids[1-i]; other.bm == 0 {
				return other // a lone leaf moves up
			}
		}
		n := make([]slot, len(kids)-1)
		copy(n, kids[:i])
		copy(n[i:], kids[i+1:])
		return slot{ptr: unsafe.Pointer(&n[0]), bm: sl.bm &^ bit}
	}
	if len(kids) == 1 && k.bm == 0 {
		return k // a lone leaf moves up
	}
	n := newNode(sl.bm, kids...)
	n.kids()[i] = k
	return n
}

// join returns the subtrie at shift holding the leaves a and b, of two
// different streams with hashes ha and hb.
func join(a *leaf, ha uint64, b *leaf, hb uint64, shift int) slot {
	if shift < 0 {
		return newNode(collisionNode|2, leafSlot(a), leafSlot(b))
	}
	ia, ib := ha>>uint(shift)&trieMask, hb>>uint(shift)&trieMask
	if ia == ib {
		return newNode(1<<ia, join(a, ha, b, hb, shift-trieBits))
	}
	if ia > ib {
		a, b = b, a
	}
	return newNode(1<<ia|1<<ib, leafSlot(a), leafSlot(b))
}
