package registry_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

// TestTrieCollisions drives the registry and the model with the same random
// writes over many streams while the stream hash is masked, so streams
// collide: all of them (mask 0: one collision node), below the first level
// or two (deep chains of one-child nodes ending in collision nodes), or in
// a few low bits only. After every write the trie must be well formed
// (registry.CheckTrie) and every read agree with the oracle.
func TestTrieCollisions(t *testing.T) {
	masks := []uint64{
		0,                  // every hash equal
		0xf000000000000000, // collide below the root
		0xff00000000000000, // collide below two levels
		0xf00000000000000f, // the root's bits and the last level's
		0x8000000000000001, // one bit at each end: deep chains
		^uint64(0),         // the real hash
	}
	writes := 2000
	if testing.Short() {
		writes = 400
	}
	for _, mask := range masks {
		t.Run(fmt.Sprintf("mask=%#x", mask), func(t *testing.T) {
			defer registry.SetHashMask(mask)()
			rng := rand.New(rand.NewPCG(mask, 7))
			r := registry.New()
			var m oracle.Registry
			type handle struct {
				o  *registry.Override
				id int
			}
			var hs []handle
			stream := func() registry.ServiceStream {
				return registry.ServiceStream{Service: registry.ServiceID(rng.IntN(3)), Stream: registry.StreamID(rng.IntN(40))}
			}
			for i := range writes {
				if rng.IntN(5) < 3 || len(hs) == 0 {
					s, mode := stream(), registry.StreamMode(rng.IntN(2))
					hs = append(hs, handle{r.Set(mode, s), m.Set(mode, s)})
				} else {
					j := rng.IntN(len(hs)) // any order; maybe a second release
					hs[j].o.Release()
					m.Release(hs[j].id)
					if rng.IntN(2) == 0 {
						hs = append(hs[:j], hs[j+1:]...)
					}
				}
				if _, err := registry.CheckTrie(r); err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
				for range 4 {
					s := stream()
					for _, def := range []registry.StreamMode{E, D} {
						if got, want := r.Mode(s, def), m.Mode(s, def); got != want {
							t.Fatalf("write %d: Mode(%v, %v) = %v, want %v", i, s, def, got, want)
						}
					}
				}
				for _, mode := range []registry.StreamMode{E, D} {
					if got, want := r.Live(mode), m.Live(mode); got != want {
						t.Fatalf("write %d: Live(%v) = %d, want %d", i, mode, got, want)
					}
				}
			}
			for _, h := range hs {
				h.o.Release()
			}
			if n, err := registry.CheckTrie(r); err != nil || n != 0 {
				t.Fatalf("all released: CheckTrie = %d streams, %v; want 0, nil", n, err)
			}
		})
	}
}

// TestTrieDeep opens thousands of overrides on distinct streams, so the trie
// grows several levels, checks its shape, and releases them in a random
// order back to an empty trie.
func TestTrieDeep(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 1000
	}
	r := registry.New()
	os := make([]*registry.Override, n)
	for i := range os {
		os[i] = r.Set(E, registry.ServiceStream{Service: registry.ServiceID(i % 5), Stream: registry.StreamID(i)})
	}
	if got, err := registry.CheckTrie(r); err != nil || got != n {
		t.Fatalf("CheckTrie = %d streams, %v; want %d, nil", got, err, n)
	}
	for i := range os {
		s := registry.ServiceStream{Service: registry.ServiceID(i % 5), Stream: registry.StreamID(i)}
		if got := r.Mode(s, D); got != E {
			t.Fatalf("Mode(%v, Discard) = %v, want Execute", s, got)
		}
	}
	rand.New(rand.NewPCG(5, 5)).Shuffle(n, func(i, j int) { os[i], os[j] = os[j], os[i] })
	for i, o := range os {
		o.Release()
		if i%251 == 0 {
			if got, err := registry.CheckTrie(r); err != nil || got != n-i-1 {
				t.Fatalf("after %d releases: CheckTrie = %d streams, %v; want %d, nil", i+1, got, err, n-i-1)
			}
		}
	}
	if got, err := registry.CheckTrie(r); err != nil || got != 0 {
		t.Fatalf("all released: CheckTrie = %d streams, %v; want 0, nil", got, err)
	}
}
