package registry

// snapshot is the registry's whole state at one instant: the live
// overrides, their counts, and the process mode. It is immutable once
// published; a writer builds a new one that shares all but one path of the
// trie with the old (see trie.go).
type snapshot struct {
	// root is the trie from each stream with a live override to its
	// override stack, newest first.
	root slot
	// quiet has bit d set when no live override sets d.Opposite(): then
	// every stream's mode under default d is d. Only bits 0 and 1 are ever
	// set, so an invalid default always takes the slow path.
	quiet uint8
	// def is process.StreamMode().
	def     StreamMode
	process ProcessMode
	live    [2]int32 // live overrides setting each mode, by StreamMode
	nextID  uint64   // the id the next override takes; above every live one
	seq     uint64   // publication sequence number: the parent's plus one
}

// emptySnapshot returns a snapshot with no overrides under process mode p.
func emptySnapshot(p ProcessMode) *snapshot {
	sn := &snapshot{process: p, def: p.StreamMode()}
	sn.seal()
	return sn
}

// next returns a copy of sn under process mode p with root as its trie,
// sealed. The caller adjusts live and nextID before it publishes.
func (sn *snapshot) next(root slot, p ProcessMode) *snapshot {
	n := &snapshot{root: root, process: p, def: p.StreamMode(), live: sn.live, nextID: sn.nextID}
	return n
}

// withSet returns sn plus a new override of s, the newest, with id
// sn.nextID.
func (sn *snapshot) withSet(s ServiceStream, mode StreamMode) *snapshot {
	head := &leaf{stream: s, id: sn.nextID, mode: mode, older: sn.root.lookup(s)}
	n := sn.next(sn.root.replace(hash(s), topShift, s, head), sn.process)
	n.live[mode]++
	n.nextID++
	n.seal()
	return n
}

// withRelease returns sn less the override of s with id, or sn itself when
// it has no such live override. Releasing a stream's newest override
// allocates only the snapshot and the trie path; an older one also copies
// the overrides of its stream above it.
func (sn *snapshot) withRelease(s ServiceStream, id uint64) *snapshot {
	head := sn.root.lookup(s)
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
	n := sn.next(sn.root.replace(hash(s), topShift, s, rest), sn.process)
	n.live[mode]--
	n.seal()
	return n
}

// withProcess returns sn under process mode p.
func (sn *snapshot) withProcess(p ProcessMode) *snapshot {
	n := sn.next(sn.root, p)
	n.seal()
	return n
}

// mode is the slow path of Registry.Mode and Resolve: it validates def and
// looks s up in the trie.
func (sn *snapshot) mode(s ServiceStream, def StreamMode) StreamMode {
	if def > Discard {
		panic(invalidStreamMode(def))
	}
	if sn.quiet>>def&1 != 0 {
		return def
	}
	if l := sn.root.lookup(s); l != nil {
		return l.mode
	}
	return def
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
