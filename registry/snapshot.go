package registry

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
type snapshot struct {
	// quiet has bit d set when no live override sets d.Opposite(): then
	// every stream's mode under default d is d. Only bits 0 and 1 are ever
	// set, so an invalid default always takes the slow path.
	quiet uint8
	// def is process.StreamMode().
	def     StreamMode
	process ProcessMode
	// small: the streams with a live override are in the small table, and
	// the trie is empty. Otherwise they are in the trie, and the table is
	// unused (and zero).
	small bool
	// streams is how many streams have a live override.
	streams int32
	live    [2]int32 // live overrides setting each mode, by StreamMode
	// The small table: [:streams] of each array, in the order the streams'
	// stacks were started (the newest last): the stream, the mode its
	// newest live override sets, and its override stack.
	smallStreams [smallMax]ServiceStream
	smallModes   [smallMax]StreamMode
	smallHeads   [smallMax]*leaf
	// root is the trie from each stream with a live override to its
	// override stack, newest first; empty while small.
	root   slot
	nextID uint64 // the id the next override takes; above every live one
	seq    uint64 // publication sequence number: the parent's plus one
}

// emptySnapshot returns a snapshot with no overrides under process mode p.
func emptySnapshot(p ProcessMode) *snapshot {
	sn := &snapshot{process: p, def: p.StreamMode(), small: true}
	sn.seal()
	return sn
}

// clone returns a copy of sn to modify, in sp's spare snapshot if it has
// one: the caller seals it.
func (sn *snapshot) clone(sp *spare) *snapshot {
	n := sp.sn
	if n == nil {
		n = new(snapshot)
		sp.sn = n
	}
	*n = *sn
	return n
}

// smallIndex returns s's index in sn's small table, or -1.
func (sn *snapshot) smallIndex(s ServiceStream) int {
	for i, t := range sn.smallStreams[:sn.streams] {
		if t == s {
			return i
		}
	}
	return -1
}

// head returns the head of s's override stack, or nil, and s's index in
// the small table, or -1.
func (sn *snapshot) head(s ServiceStream) (l *leaf, i int) {
	if sn.small {
		if i = sn.smallIndex(s); i >= 0 {
			return sn.smallHeads[i], i
		}
		return nil, -1
	}
	return sn.root.lookup(s), -1
}

// put makes head (never nil) the head of s's stack in n; i is s's index
// in the small table, or -1 (not there, or n not small); fresh: s had no
// stack.
func (n *snapshot) put(s ServiceStream, head *leaf, i int, fresh bool) {
	if n.small {
		if i < 0 {
			if n.streams == smallMax {
				n.toTrie()
				n.put(s, head, -1, true)
				return
			}
			i = int(n.streams)
			n.streams++
			n.smallStreams[i] = s
		}
		n.smallModes[i], n.smallHeads[i] = head.mode, head
		return
	}
	if fresh {
		n.streams++
	}
	n.root = n.root.replace(hash(s), topShift, s, head)
}

// drop removes s's stack from n; i is s's index in the small table, or -1
// (n not small).
func (n *snapshot) drop(s ServiceStream, i int) {
	n.streams--
	if n.small {
		k := int(n.streams)
		copy(n.smallStreams[i:k], n.smallStreams[i+1:k+1])
		copy(n.smallModes[i:k], n.smallModes[i+1:k+1])
		copy(n.smallHeads[i:k], n.smallHeads[i+1:k+1])
		n.smallStreams[k], n.smallModes[k], n.smallHeads[k] = ServiceStream{}, 0, nil
		return
	}
	n.root = n.root.replace(hash(s), topShift, s, nil)
	if n.streams <= smallMin {
		n.toSmall()
	}
}

// toTrie moves n's streams from the small table to the trie.
func (n *snapshot) toTrie() {
	var root slot
	for i, l := range n.smallHeads[:n.streams] {
		root = root.replace(hash(l.stream), topShift, l.stream, l)
		n.smallStreams[i], n.smallModes[i], n.smallHeads[i] = ServiceStream{}, 0, nil
	}
	n.root, n.small = root, false
}

// toSmall moves n's streams, at most smallMax, from the trie to the small
// table. Their order is then the trie's, not their age: that changes only
// the scan's speed, each stream being in the table once.
func (n *snapshot) toSmall() {
	i := 0
	n.root.each(func(l *leaf) {
		n.smallStreams[i], n.smallModes[i], n.smallHeads[i] = l.stream, l.mode, l
		i++
	})
	n.root, n.small = slot{}, true
}

// withSet returns sn plus a new override of s, the newest, with id
// sn.nextID, built in sp's spare memory where it has some.
func (sn *snapshot) withSet(sp *spare, s ServiceStream, mode StreamMode) *snapshot {
	older, i := sn.head(s)
	l := sp.leaf
	if l == nil {
		l = new(leaf)
		sp.leaf = l
	}
	*l = leaf{stream: s, id: sn.nextID, mode: mode, older: older}
	n := sn.clone(sp)
	n.put(s, l, i, older == nil)
	n.live[mode]++
	n.nextID++
	n.seal()
	return n
}

// withRelease returns sn less the override of s with id, or sn itself when
// it has no such live override. Releasing a stream's newest override
// allocates only the snapshot and the trie path, if any; an older one also
// copies the overrides of its stream above it.
func (sn *snapshot) withRelease(sp *spare, s ServiceStream, id uint64) *snapshot {
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
	n := sn.clone(sp)
	if rest != nil {
		n.put(s, rest, i, false)
	} else {
		n.drop(s, i)
	}
	n.live[mode]--
	n.seal()
	return n
}

// withProcess returns sn under process mode p.
func (sn *snapshot) withProcess(sp *spare, p ProcessMode) *snapshot {
	n := sn.clone(sp)
	n.process, n.def = p, p.StreamMode()
	n.seal()
	return n
}

// mode is the slow path of Resolve (Registry.slowMode has it written out):
// it validates def, then scans the small table or looks s up in the trie.
func (sn *snapshot) mode(s ServiceStream, def StreamMode) StreamMode {
	if def > Discard {
		panic(invalidStreamMode(def))
	}
	if sn.quiet>>def&1 != 0 {
		return def
	}
	if sn.small {
		ss := sn.smallStreams[:sn.streams]
		for i := len(ss) - 1; i >= 0; i-- { // newest first
			if ss[i].Stream == s.Stream && ss[i].Service == s.Service {
				return sn.smallModes[i]
			}
		}
		return def
	}
	return sn.root.lookupMode(s, def)
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
