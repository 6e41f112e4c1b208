//go:build cgo || (js && wasm)

package wgpu

import (
	"math/rand/v2"
	"testing"

	"github.com/streamgate/streamgate/gpu"
)

// TestRetiredSetModel: a retiredSet answers as a map of the ids added
// does, over random ids dense and sparse, with full words merged into
// runs in any order of adds.
func TestRetiredSetModel(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 27))
		var r retiredSet
		ref := map[gpu.StreamID]bool{}
		span := uint64(64 * (1 + rng.IntN(40)))
		for range 4000 {
			id := gpu.StreamID(rng.Uint64N(span))
			if rng.IntN(50) == 0 {
				id = gpu.StreamID(rng.Uint64()) // sparse
			}
			r.addLocked(id)
			ref[id] = true
			probe := gpu.StreamID(rng.Uint64N(span + 64))
			if got := r.hasLocked(probe); got != ref[probe] {
				t.Fatalf("seed %d: has(%d) = %v, want %v", seed, probe, got, ref[probe])
			}
		}
		for id := gpu.StreamID(0); uint64(id) < span+64; id++ {
			if got := r.hasLocked(id); got != ref[id] {
				t.Fatalf("seed %d: has(%d) = %v, want %v", seed, id, got, ref[id])
			}
		}
		for i := 1; i < len(r.runs); i++ {
			if r.runs[i-1].hi >= r.runs[i].lo {
				t.Fatalf("seed %d: runs %v and %v overlap or touch", seed, r.runs[i-1], r.runs[i])
			}
		}
		for w, v := range r.words {
			if v == ^uint64(0) || r.inRun(w) {
				t.Fatalf("seed %d: word %d is full or in a run", seed, w)
			}
		}
	}
}

// TestRetiredSetSize: the set's memory, by the shape of the ids retired.
// One device whose streams are closed in any order keeps one run and the
// partial words at its ends (id 0, Single's stream, is never closed; the
// last ids fill part of a word); a stream still open splits the run and
// keeps one partial word; two devices alternating ids keep a word per 128
// ids each.
func TestRetiredSetSize(t *testing.T) {
	const n = 100_000
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name       string
		ids        func() []gpu.StreamID
		words, run int
	}{
		{"dense in order", func() []gpu.StreamID { return seq(1, n, 1) }, 2, 1},
		{"dense shuffled", func() []gpu.StreamID {
			ids := seq(1, n, 1)
			rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			return ids
		}, 2, 1},
		{"one left open", func() []gpu.StreamID {
			ids := seq(1, n, 1)
			return append(ids[:5000], ids[5001:]...)
		}, 3, 2},
		{"two devices", func() []gpu.StreamID { return seq(1, n, 2) }, (n + 63) / 64, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r retiredSet
			for _, id := range tc.ids() {
				r.addLocked(id)
			}
			words, runs := r.sizeLocked()
			if words > tc.words || runs > tc.run {
				t.Errorf("%d ids: %d words, %d runs; want at most %d, %d", n, words, runs, tc.words, tc.run)
			}
			t.Logf("%d ids: %d words, %d runs", n, words, runs)
		})
	}
}

func seq(from, to, step int) []gpu.StreamID {
	var ids []gpu.StreamID
	for i := from; i < to; i += step {
		ids = append(ids, gpu.StreamID(i))
	}
	return ids
}
