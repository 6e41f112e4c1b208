package registry

import (
	"fmt"
	"math/bits"
	"slices"
)

// SetHashMask makes every stream hash h&mask until restore is called: mask
// 0 gives every stream the same hash, so all of them share one collision
// node; a mask of high bits only makes streams collide below the first
// levels. Tests that call it must not run in parallel with others.
func SetHashMask(mask uint64) (restore func()) {
	old := hashUnmask.Swap(^mask)
	return func() { hashUnmask.Store(old) }
}

// CheckTrie walks r's published trie and returns an error unless it is
// well formed: every leaf on its hash's path, nodes canonical (no node
// holds a lone leaf; collision nodes only where the hash is spent, of two
// or more streams of one hash), every stack newest first, the live
// counts those of the stacks; or, while the snapshot is small, every stream
// once in the small table, with its newest mode, and no trie. It returns
// the streams with a live override.
func CheckTrie(r *Registry) (streams int, err error) {
	sn := r.state.Load()
	var c trieCheck
	if sn.tab != nil {
		err = c.small(sn)
	} else {
		err = c.trie(sn)
	}
	if err != nil {
		return 0, err
	}
	if c.live != sn.live {
		return 0, fmt.Errorf("stacks hold %v live overrides, the snapshot counts %v", c.live, sn.live)
	}
	if int(sn.streams) != len(c.seen) {
		return 0, fmt.Errorf("the trie has %d streams, the snapshot counts %d", len(c.seen), sn.streams)
	}
	slices.SortFunc(c.seen, func(a, b ServiceStream) int {
		if a.Service != b.Service {
			return int(a.Service) - int(b.Service)
		}
		return int(a.Stream) - int(b.Stream)
	})
	if len(slices.Compact(c.seen)) != len(c.seen) {
		return 0, fmt.Errorf("a stream has two leaves")
	}
	return len(c.seen), nil
}

// trieCheck is CheckTrie's walk: what it has counted so far.
type trieCheck struct {
	live [2]int32        // the live overrides of the stacks seen, by mode
	seen []ServiceStream // the streams of the leaves seen
}

// small checks a small snapshot: its table, each entry's stack.
func (c *trieCheck) small(sn *snapshot) error {
	t := sn.tab
	if t != &sn.small().t {
		return fmt.Errorf("a small snapshot's table is not its own")
	}
	if sn.rootBM != 0 {
		return fmt.Errorf("the small table is in use, yet the root's bitmap is %#x", sn.rootBM)
	}
	if sn.streams > smallMax {
		return fmt.Errorf("the small table holds %d streams", sn.streams)
	}
	for i := range smallMax {
		l := t.heads[i]
		if i >= int(sn.streams) {
			if l != nil || t.streams[i] != (ServiceStream{}) || t.modes[i] != 0 {
				return fmt.Errorf("the small table's entry %d is past its %d streams, yet not zero", i, sn.streams)
			}
			continue
		}
		if l == nil || l.stream != t.streams[i] || l.mode != t.modes[i] {
			return fmt.Errorf("the small table's entry %d: %v %v, its head %+v", i, t.streams[i], t.modes[i], l)
		}
		if err := c.walk(leafSlot(l), 0, topShift, false); err != nil {
			return err
		}
	}
	return nil
}

// trie checks a snapshot in trie mode: its root, then the walk below it.
func (c *trieCheck) trie(sn *snapshot) error {
	if sn.streams <= smallMin {
		return fmt.Errorf("%d streams in the trie: they belong in the small table", sn.streams)
	}
	ts := sn.trie()
	for i := bits.OnesCount32(ts.rootBM); i < len(ts.kids); i++ {
		if ts.kids[i] != (slot{}) {
			return fmt.Errorf("the root's slot %d is past its %d kids, yet not empty", i, bits.OnesCount32(ts.rootBM))
		}
	}
	if ts.rootBM == 0 {
		return fmt.Errorf("an empty root in trie mode")
	}
	return c.walk(ts.rootSlot(), 0, topShift, true)
}

// walk checks the subtree in sl, reached by the hash bits prefix above
// shift.
func (c *trieCheck) walk(sl slot, prefix uint64, shift int, root bool) error {
	if sl.bm == 0 {
		return c.leaf((*leaf)(sl.ptr), prefix, shift, root)
	}
	kids := sl.kids()
	if sl.bm&collisionNode != 0 {
		return c.collision(kids, prefix, shift)
	}
	if shift < 0 {
		return fmt.Errorf("an interior node below the hash's last bits")
	}
	if len(kids) == 1 && kids[0].bm == 0 {
		return fmt.Errorf("a node holds a lone leaf")
	}
	for i, b := 0, sl.bm; b != 0; i, b = i+1, b&(b-1) {
		idx := uint64(bits.TrailingZeros32(b))
		if err := c.walk(kids[i], prefix|idx<<uint(shift), shift-trieBits, false); err != nil {
			return err
		}
	}
	return nil
}

// leaf checks one stream's stack, nil only as an empty root.
func (c *trieCheck) leaf(l *leaf, prefix uint64, shift int, root bool) error {
	if l == nil {
		if !root {
			return fmt.Errorf("an empty slot below the root")
		}
		return nil
	}
	// The leaf's hash must agree with the path's bits above shift.
	if h := hash(l.stream); shift < topShift && h>>uint(shift+trieBits) != prefix>>uint(shift+trieBits) {
		return fmt.Errorf("leaf %v (hash %#x) under prefix %#x at shift %d", l.stream, h, prefix, shift)
	}
	c.seen = append(c.seen, l.stream)
	for o := l; o != nil; o = o.older {
		if o.stream != l.stream {
			return fmt.Errorf("stack of %v holds %v", l.stream, o.stream)
		}
		if o.older != nil && o.older.id >= o.id {
			return fmt.Errorf("stack of %v: id %d above id %d", l.stream, o.id, o.older.id)
		}
		c.live[o.mode]++
	}
	return nil
}

// collision checks a collision node: where the hash is spent, two or more
// leaves of one hash.
func (c *trieCheck) collision(kids []slot, prefix uint64, shift int) error {
	if shift >= 0 {
		return fmt.Errorf("a collision node at shift %d", shift)
	}
	if len(kids) < 2 {
		return fmt.Errorf("a collision node of %d leaves", len(kids))
	}
	h := hash((*leaf)(kids[0].ptr).stream)
	for _, k := range kids {
		if k.bm != 0 || k.ptr == nil {
			return fmt.Errorf("a collision node holds a non-leaf")
		}
		if hk := hash((*leaf)(k.ptr).stream); hk != h {
			return fmt.Errorf("a collision node holds hashes %#x and %#x", h, hk)
		}
		if err := c.walk(k, prefix, shift, false); err != nil {
			return err
		}
	}
	return nil
}

// AllOf iterates over one snapshot of r as All does and returns what it
// yielded with that snapshot's live counts, by StreamMode.
func AllOf(r *Registry) (infos []OverrideInfo, live [2]int) {
	sn := r.state.Load()
	sn.all(func(i OverrideInfo) bool {
		infos = append(infos, i)
		return true
	})
	return infos, [2]int{int(sn.live[0]), int(sn.live[1])}
}

// CheckFastWord returns an error unless r's fast word claims no more than
// r's published snapshot (each quiet bit it has, the snapshot has, and a
// Resolve answer it holds is the snapshot's) or, with exact, unless it
// describes that snapshot exactly, as it must once no writer is running.
// Call it only where no other goroutine writes to r.
func CheckFastWord(r *Registry, exact bool) error {
	sn := r.state.Load()
	w, want := r.fast.Load(), fastWord(sn)
	if exact && w != want {
		return fmt.Errorf("fast word %#x, want %#x (seq %d): the fast path did not come back", w, want, sn.seq)
	}
	if q := uint8(w >> 8); q&^sn.quiet != 0 {
		return fmt.Errorf("fast word quiet bits %02b, snapshot %02b (seq %d)", q, sn.quiet, sn.seq)
	}
	if m := uint8(w); m != 0 && (StreamMode(m-1) != sn.def || sn.quiet>>sn.def&1 == 0) {
		return fmt.Errorf("fast word answers Resolve with %d, snapshot default %v, quiet %02b", m-1, sn.def, sn.quiet)
	}
	return nil
}
