package registry

// smallMax is how many streams with a live override a snapshot also lists
// in its small table: up to that many, a read scans the table, newest
// stream first, with no hashing and no pointer hops; beyond it, a read
// looks the stream up in the trie.
const smallMax = 8

// snapshot is the registry's whole state at one instant: the live
// overrides, their counts, and the process mode. It is immutable once
// published; a writer builds a new one that shares all but one path of the
// trie with the old (see trie.go).
type snapshot struct {
	// quiet has bit d set when no live override sets d.Opposite(): then
	// every stream's mode under default d is d. Only bits 0 and 1 are ever
	// set, so an invalid default always takes the slow path.
	quiet uint8
	// def is process.StreamMode().
	def     StreamMode
	process ProcessMode
	// streams is how many streams have a live override: the trie's leaves.
	// Up to smallMax, the small table lists them all.
	streams int32
	live    [2]int32 // live overrides setting each mode, by StreamMode
	// smallStreams[:streams] are the streams with a live override, in the
	// order their stacks were started (the newest last), and smallModes the
	// mode of each one's newest live override; only while streams <=
	// smallMax.
	smallStreams [smallMax]ServiceStream
	smallModes   [smallMax]StreamMode
	// root is the trie from each stream with a live override to its
	// override stack, newest first.
	root   slot
	nextID uint64 // the id the next override takes; above every live one
	seq    uint64 // publication sequence number: the parent's plus one
}

// emptySnapshot returns a snapshot with no overrides under process mode p.
func emptySnapshot(p ProcessMode) *snapshot {
	sn := &snapshot{process: p, def: p.StreamMode()}
	sn.seal()
	return sn
}

// clone returns a copy of sn to modify: the caller seals it.
func (sn *snapshot) clone() *snapshot {
	n := new(snapshot)
	*n = *sn
	return n
}

// withSet returns sn plus a new override of s, the newest, with id
// sn.nextID.
func (sn *snapshot) withSet(s ServiceStream, mode StreamMode) *snapshot {
	h := hash(s)
	older := sn.root.lookupHash(h, s)
	head := &leaf{stream: s, id: sn.nextID, mode: mode, older: older}
	n := sn.clone()
	n.root = sn.root.replace(h, topShift, s, head)
	n.live[mode]++
	n.nextID++
	if older == nil {
		n.streams++
	}
	n.smallSet(s, mode)
	n.seal()
	return n
}

// withRelease returns sn less the override of s with id, or sn itself when
// it has no such live override. Releasing a stream's newest override
// allocates only the snapshot and the trie path; an older one also copies
// the overrides of its stream above it.
func (sn *snapshot) withRelease(s ServiceStream, id uint64) *snapshot {
	h := hash(s)
	head := sn.root.lookupHash(h, s)
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
	n.root = sn.root.replace(h, topShift, s, rest)
	n.live[mode]--
	if rest != nil {
		n.smallSet(s, rest.mode)
	} else {
		n.streams--
		n.smallDelete(s)
	}
	n.seal()
	return n
}

// smallSet records in n's small table that s's newest live override sets
// mode; n.streams already counts s.
func (n *snapshot) smallSet(s ServiceStream, mode StreamMode) {
	if n.streams > smallMax {
		return
	}
	k := int(n.streams)
	for i := range k - 1 {
		if n.smallStreams[i] == s {
			n.smallModes[i] = mode
			return
		}
	}
	// s is the newest stream or it is new: either way it is at k-1.
	n.smallStreams[k-1], n.smallModes[k-1] = s, mode
}

// smallDelete drops s from n's small table, s's stack now empty;
// n.streams no longer counts s. When n.streams has just come down to
// smallMax, it rebuilds the table from the trie.
func (n *snapshot) smallDelete(s ServiceStream) {
	switch k := int(n.streams); {
	case k > smallMax:
	case k == smallMax:
		// The table was out of use (smallMax+1 streams): fill it from the
		// trie. Its order is then the trie's, not the streams' age: that
		// changes only the scan's speed, each stream being in it once.
		i := 0
		n.root.each(func(l *leaf) {
			n.smallStreams[i], n.smallModes[i] = l.stream, l.mode
			i++
		})
	default:
		for i := range k + 1 {
			if n.smallStreams[i] == s {
				copy(n.smallStreams[i:k], n.smallStreams[i+1:k+1])
				copy(n.smallModes[i:k], n.smallModes[i+1:k+1])
				break
			}
		}
		n.smallStreams[k], n.smallModes[k] = ServiceStream{}, 0
	}
}

// withProcess returns sn under process mode p.
func (sn *snapshot) withProcess(p ProcessMode) *snapshot {
	n := sn.clone()
	n.process, n.def = p, p.StreamMode()
	n.seal()
	return n
}

// mode is the slow path of Registry.Mode and Resolve: it validates def,
// then scans the small table or looks s up in the trie.
func (sn *snapshot) mode(s ServiceStream, def StreamMode) StreamMode {
	if def > Discard {
		panic(invalidStreamMode(def))
	}
	if sn.quiet>>def&1 != 0 {
		return def
	}
	if k := uint(sn.streams); k <= smallMax {
		ss := sn.smallStreams[:k]
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
