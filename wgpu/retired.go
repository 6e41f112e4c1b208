package wgpu

import (
	"slices"
	"sync"

	"github.com/streamgate/streamgate/gpu"
)

// retiredSet is the set of stream ids CloseStream retired on a device, the
// one place that decides whether a stream's state may be made: a retired
// id never gets state again. It is a bitmap, a word per 64 ids with one
// retired; a word whose 64 ids are all retired moves into a run of full
// words. The ids gpu.NewStreamID hands out are dense, so a device whose
// streams come and go (a client each, closed) keeps one run and the words
// of the streams still open: a few bytes, not a few bytes per closed
// stream. With several devices the ids interleave and the words fill
// partly: then it costs about 16 bytes per 64 ids allocated in the
// process, a bit each.
//
// mu is a leaf (stream.go's lock order); it guards everything, and is
// taken only when a stream is created or retired.
type retiredSet struct {
	mu    sync.Mutex
	words map[uint64]uint64 // id/64 → bit id%64 set when id is retired; never a full word
	runs  []wordRun         // full words, sorted, disjoint and not adjacent
}

// wordRun is the words [lo, hi) of a retiredSet, all full.
type wordRun struct{ lo, hi uint64 }

// hasLocked reports whether id is retired.
func (r *retiredSet) hasLocked(id gpu.StreamID) bool {
	w := uint64(id) >> 6
	if r.inRun(w) {
		return true
	}
	return r.words[w]&(1<<(uint64(id)&63)) != 0
}

// addLocked retires id.
func (r *retiredSet) addLocked(id gpu.StreamID) {
	w := uint64(id) >> 6
	if r.inRun(w) {
		return
	}
	if r.words == nil {
		r.words = map[uint64]uint64{}
	}
	v := r.words[w] | 1<<(uint64(id)&63)
	if v != ^uint64(0) {
		r.words[w] = v
		return
	}
	delete(r.words, w)
	r.addRun(w)
}

// inRun reports whether word w is in a run of full words.
func (r *retiredSet) inRun(w uint64) bool {
	i := r.runAfter(w)
	return i > 0 && w < r.runs[i-1].hi
}

// runAfter returns the index of the first run that starts after w.
func (r *retiredSet) runAfter(w uint64) int {
	i, _ := slices.BinarySearchFunc(r.runs, w, func(run wordRun, w uint64) int {
		if run.lo <= w {
			return -1
		}
		return 1
	})
	return i
}

// addRun adds full word w, in no run yet, merging it with its neighbours.
func (r *retiredSet) addRun(w uint64) {
	i := r.runAfter(w)
	joinsPrev := i > 0 && r.runs[i-1].hi == w
	joinsNext := i < len(r.runs) && r.runs[i].lo == w+1
	switch {
	case joinsPrev && joinsNext:
		r.runs[i-1].hi = r.runs[i].hi
		r.runs = slices.Delete(r.runs, i, i+1)
	case joinsPrev:
		r.runs[i-1].hi = w + 1
	case joinsNext:
		r.runs[i].lo = w
	default:
		r.runs = slices.Insert(r.runs, i, wordRun{w, w + 1})
	}
}

// sizeLocked returns the words and runs the set holds (tests: its memory).
func (r *retiredSet) sizeLocked() (words, runs int) { return len(r.words), len(r.runs) }
