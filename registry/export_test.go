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
// counts those of the stacks, and the small table (up to smallMax streams)
// the streams' newest modes. It returns the streams with a live override.
func CheckTrie(r *Registry) (streams int, err error) {
	sn := r.state.Load()
	var live [2]int32
	var seen []ServiceStream
	var walk func(sl slot, prefix uint64, shift int, root bool) error
	walk = func(sl slot, prefix uint64, shift int, root bool) error {
		if sl.bm == 0 {
			l := (*leaf)(sl.ptr)
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
			seen = append(seen, l.stream)
			for o := l; o != nil; o = o.older {
				if o.stream != l.stream {
					return fmt.Errorf("stack of %v holds %v", l.stream, o.stream)
				}
				if o.older != nil && o.older.id >= o.id {
					return fmt.Errorf("stack of %v: id %d above id %d", l.stream, o.id, o.older.id)
				}
				live[o.mode]++
			}
			return nil
		}
		kids := sl.kids()
		if sl.bm&collisionNode != 0 {
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
				if err := walk(k, prefix, shift, false); err != nil {
					return err
				}
			}
			return nil
		}
		if shift < 0 {
			return fmt.Errorf("an interior node below the hash's last bits")
		}
		if len(kids) == 1 && kids[0].bm == 0 {
			return fmt.Errorf("a node holds a lone leaf")
		}
		for i, b := 0, sl.bm; b != 0; i, b = i+1, b&(b-1) {
			idx := uint64(bits.TrailingZeros32(b))
			if err := walk(kids[i], prefix|idx<<uint(shift), shift-trieBits, false); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(sn.root, 0, topShift, true); err != nil {
		return 0, err
	}
	if live != sn.live {
		return 0, fmt.Errorf("stacks hold %v live overrides, the snapshot counts %v", live, sn.live)
	}
	if int(sn.streams) != len(seen) {
		return 0, fmt.Errorf("the trie has %d streams, the snapshot counts %d", len(seen), sn.streams)
	}
	if sn.streams <= smallMax {
		// The small table lists every stream once, with its newest mode.
		for i, s := range sn.smallStreams[:sn.streams] {
			l := sn.root.lookup(s)
			if l == nil {
				return 0, fmt.Errorf("the small table lists %v, which has no live override", s)
			}
			if sn.smallModes[i] != l.mode {
				return 0, fmt.Errorf("the small table has %v for %v, its newest override %v", sn.smallModes[i], s, l.mode)
			}
			if slices.Index(sn.smallStreams[:sn.streams], s) != i {
				return 0, fmt.Errorf("the small table lists %v twice", s)
			}
		}
	}
	slices.SortFunc(seen, func(a, b ServiceStream) int {
		if a.Service != b.Service {
			return int(a.Service) - int(b.Service)
		}
		return int(a.Stream) - int(b.Stream)
	})
	if len(slices.Compact(seen)) != len(seen) {
		return 0, fmt.Errorf("a stream has two leaves")
	}
	return len(seen), nil
}
