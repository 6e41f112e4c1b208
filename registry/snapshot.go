package registry

import "unsafe"

// smallMax is how many streams with a live override a snapshot holds in its
// small table rather than in the trie: up to that many, a read scans the
// table, newest stream first, with no hashing and no pointer hops, and a
// write copies the snapshot alone, no trie node. The table hands its
// streams to the trie when a Set would make them more than smallMax, and
// takes them back when releases bring them down to smallMin, so that a
// count going back and forth across smallMax does not move them every time.
const (
	smallMax = 8
	smallMin = smallMax / 2
)

// snapshot is the registry's whole state at one instant: the live
// overrides, their counts, and the process mode. It is immutable once
// published; a writer builds a new one that shares all the rest with the
// old: the override stacks, and all but one path of the trie (trie.go).
//
// A snapshot comes in two shapes, each one allocation: while at most
// smallMax streams have a live override, a smallSnapshot, whose tab points
// at its own small table; beyond, a trieSnapshot, with tab nil and the
// trie's root node built in, so that a write in trie mode neither copies an
// unused table nor allocates the root.
type snapshot struct {
	// quiet has bit d set when no live override sets d.Opposite(): then
	// every stream's mode under default d is d. Only bits 0 and 1 are ever
	// set, so an invalid default always takes the slow path.
	quiet uint8
	// def is process.StreamMode().
	def     StreamMode
	process ProcessMode
	// streams is how many streams have a live override.
	streams int32
	live    [2]int32 // live overrides setting each mode, by StreamMode
	// rootBM is the bitmap of a trieSnapshot's root node (its kids): one
	// bit for each of the hash's top trieBits values with a stream. Zero
	// in a smallSnapshot.
	rootBM uint32
	nextID uint64 // the id the next override takes; above every live one
	seq    uint64 // publication sequence number: the parent's plus one
	// tab is the small table of a smallSnapshot (its own), nil in a
	// trieSnapshot.
	tab *smallTable
}

// smallTable holds the streams with a live override of a smallSnapshot:
// [:streams] of each array, in the order the streams' stacks were started
// (the newest last): the stream, the mode its newest live override sets,
// and its override stack. The rest is zero.
type smallTable struct {
	streams [smallMax]ServiceStream
	modes   [smallMax]StreamMode
	heads   [smallMax]*leaf
}

// smallSnapshot is a snapshot and its small table, in one allocation.
type smallSnapshot struct {
	snapshot
	t smallTable
}

// trieSnapshot is a snapshot and its trie's root node, in one allocation:
// the slots of kids[:bits.OnesCount32(rootBM)], one for each bit of rootBM,
// in bit order (as an interior node's, trie.go); the rest are zero. In trie
// mode more than smallMin streams have a live override, so the root is
// never a lone leaf.
type trieSnapshot struct {
	snapshot
	kids [1 << trieBits]slot
}

// trie returns sn as the trieSnapshot it is; sn.tab is nil.
func (sn *snapshot) trie() *trieSnapshot { return (*trieSnapshot)(unsafe.Pointer(sn)) }

// small returns sn as the smallSnapshot it is; sn.tab is not nil.
func (sn *snapshot) small() *smallSnapshot { return (*smallSnapshot)(unsafe.Pointer(sn)) }

// rootSlot returns the root of a trieSnapshot's trie as a slot, to walk.
func (t *trieSnapshot) rootSlot() slot {
	return slot{ptr: unsafe.Pointer(&t.kids[0]), bm: t.rootBM}
}

// emptySnapshot returns a snapshot with no overrides under process mode p.
func emptySnapshot(p ProcessMode) *snapshot {
	ss := &smallSnapshot{snapshot: snapshot{process: p, def: p.StreamMode()}}
	ss.tab = &ss.t
	ss.seal()
	return &ss.snapshot
}

// clone returns a copy of sn, of its shape, to modify: the caller seals
// it.
func (sn *snapshot) clone() *snapshot {
	if sn.tab != nil {
		n := new(smallSnapshot)
		*n = *sn.small()
		n.tab = &n.t
		return &n.snapshot
	}
	n := new(trieSnapshot)
	*n = *sn.trie()
	return &n.snapshot
}

// smallIndex returns s's index in sn's small table, or -1.
func (sn *snapshot) smallIndex(s ServiceStream) int {
	for i, t := range sn.tab.streams[:sn.streams] {
		if t == s {
			return i
		}
	}
	return -1
}

// head returns the head of s's override stack, or nil, and s's index in
// the small table, or -1.
func (sn *snapshot) head(s ServiceStream) (l *leaf, i int) {
	if sn.tab != nil {
		if i = sn.smallIndex(s); i >= 0 {
			return sn.tab.heads[i], i
		}
		return nil, -1
	}
	return sn.trie().lookup(hash(s), s), -1
}

// put makes head (never nil) the head of s's stack in n and returns n, or
// what replaces it when s is one stream too many for the small table; i is
// s's index in the small table, or -1 (not there, or n a trieSnapshot);
// fresh: s had no stack.
func (n *snapshot) put(s ServiceStream, head *leaf, i int, fresh bool) *snapshot {
	if t := n.tab; t != nil {
		if i < 0 {
			if n.streams == smallMax {
				n = n.toTrie()
				return n.put(s, head, -1, true)
			}
			i = int(n.streams)
			n.streams++
			t.streams[i] = s
		}
		t.modes[i], t.heads[i] = head.mode, head
		return n
	}
	if fresh {
		n.streams++
	}
	n.trie().replace(hash(s), s, head)
	return n
}

// drop removes s's stack from n and returns n, or what replaces it when
// the streams left go back to the small table; i is s's index in the small
// table, or -1 (n a trieSnapshot).
func (n *snapshot) drop(s ServiceStream, i int) *snapshot {
	n.streams--
	if t := n.tab; t != nil {
		k := int(n.streams)
		copy(t.streams[i:k], t.streams[i+1:k+1])
		copy(t.modes[i:k], t.modes[i+1:k+1])
		copy(t.heads[i:k], t.heads[i+1:k+1])
		t.streams[k], t.modes[k], t.heads[k] = ServiceStream{}, 0, nil
		return n
	}
	n.trie().replace(hash(s), s, nil)
	if n.streams <= smallMin {
		return n.toSmall()
	}
	return n
}

// toTrie returns a trieSnapshot with n's header and n's streams, moved
// from its small table to the trie.
func (n *snapshot) toTrie() *snapshot {
	t := &trieSnapshot{snapshot: *n}
	t.tab = nil
	for _, l := range n.tab.heads[:n.streams] {
		t.replace(hash(l.stream), l.stream, l)
	}
	return &t.snapshot
}

// toSmall returns a smallSnapshot with n's header and n's streams, at most
// smallMax, moved from its trie to the small table. Their order is then
// the trie's, not their age: that changes only the scan's speed, each
// stream being in the table once.
func (n *snapshot) toSmall() *snapshot {
	ss := &smallSnapshot{snapshot: *n}
	ss.tab, ss.rootBM = &ss.t, 0
	i := 0
	n.trie().rootSlot().each(func(l *leaf) {
		ss.t.streams[i], ss.t.modes[i], ss.t.heads[i] = l.stream, l.mode, l
		i++
	})
	return &ss.snapshot
}

// withSet returns sn plus a new override of s, the newest, with id
// sn.nextID.
func (sn *snapshot) withSet(s ServiceStream, mode StreamMode) *snapshot {
	older, i := sn.head(s)
	n := sn.clone().put(s, &leaf{stream: s, id: sn.nextID, mode: mode, older: older}, i, older == nil)
	n.live[mode]++
	n.nextID++
	n.seal()
	return n
}

// withRelease returns sn less the override of s with id, or sn itself when
// it has no such live override. Releasing a stream's newest override
// allocates only the snapshot and the trie path, if any; an older one also
// copies the overrides of its stream above it.
func (sn *snapshot) withRelease(s ServiceStream, id uint64) *snapshot {
	head, i := sn.head(s)
	var mode StreamMode
	var rest *leaf
	switch {
	case head == nil:
		return sn
	case head.id == id:
		mode, rest = head.mode, head.older
	default:
		// Copy the overrides above id: each links to the next copy.
		var above []*leaf
		l := head
		for ; l != nil && l.id != id; l = l.older {
			if l.id < id {
				return sn // older than id: id is not live (ids grow up the stack)
			}
			above = append(above, l)
		}
		if l == nil {
			return sn
		}
		mode, rest = l.mode, l.older
		for i := len(above) - 1; i >= 0; i-- {
			c := *above[i]
			c.older = rest
			rest = &c
		}
	}
	n := sn.clone()
	if rest != nil {
		n = n.put(s, rest, i, false)
	} else {
		n = n.drop(s, i)
	}
	n.live[mode]--
	n.seal()
	return n
}

// withProcess returns sn under process mode p.
func (sn *snapshot) withProcess(p ProcessMode) *snapshot {
	n := sn.clone()
	n.process, n.def = p, p.StreamMode()
	n.seal()
	return n
}

// mode is the slow path of Resolve (Registry.slowMode has it written out,
// as BenchmarkSlowMode shows the call matters; keep the two in step): it
// validates def, then scans the small table or looks s up in the trie.
func (sn *snapshot) mode(s ServiceStream, def StreamMode) StreamMode {
	if def > Discard {
		panic(invalidStreamMode(def))
	}
	if sn.quiet>>def&1 != 0 {
		return def
	}
	if t := sn.tab; t != nil {
		ss := t.streams[:sn.streams]
		for i := len(ss) - 1; i >= 0; i-- { // newest first
			if ss[i].Stream == s.Stream && ss[i].Service == s.Service {
				return t.modes[i]
			}
		}
		return def
	}
	return sn.trie().lookupMode(s, def)
}

// seal sets quiet from live.
func (sn *snapshot) seal() {
	sn.quiet = 0
	for d := Execute; d <= Discard; d++ {
		if sn.live[d^1] == 0 {
			sn.quiet |= 1 << d
		}
	}
}
