package registry_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/low/spin"
	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

// checkOrder fails unless infos hold each stream's overrides one after the
// other, newest (largest ID) first, all of one snapshot, each once.
func checkOrder(t *testing.T, infos []registry.OverrideInfo) {
	t.Helper()
	done := map[registry.ServiceStream]bool{}
	ids := map[uint64]bool{}
	for i, in := range infos {
		require.False(t, ids[in.ID], "id %d yielded twice", in.ID)
		ids[in.ID] = true
		require.Equal(t, infos[0].Snapshot, in.Snapshot, "two snapshots in one iteration")
		if i > 0 && infos[i-1].Stream == in.Stream {
			require.Greater(t, infos[i-1].ID, in.ID, "stream %v: not newest first", in.Stream)
			continue
		}
		require.False(t, done[in.Stream], "stream %v yielded in two runs", in.Stream)
		done[in.Stream] = true
	}
}

// checkAllModel fails unless r.All yields exactly m's live overrides; ids
// maps a registry override id to the model's.
func checkAllModel(t *testing.T, r *registry.Registry, m *oracle.Registry, ids map[uint64]int) {
	t.Helper()
	infos := slices.Collect(r.All())
	checkOrder(t, infos)
	got := make([]oracle.Override, 0, len(infos))
	for _, in := range infos {
		id, ok := ids[in.ID]
		require.True(t, ok, "All yields an unknown id %d", in.ID)
		got = append(got, oracle.Override{ID: id, Mode: in.Mode, Stream: in.Stream})
	}
	slices.SortFunc(got, func(a, b oracle.Override) int { return a.ID - b.ID })
	want := slices.Clone(m.Overrides)
	slices.SortFunc(want, func(a, b oracle.Override) int { return a.ID - b.ID })
	if len(want) == 0 {
		want = got[:0]
	}
	require.Equal(t, want, got)
}

// TestAllDifferential drives the registry and the model with the same
// random sets and releases, over few streams (the small table) and many
// (the trie), and compares All with the model's overrides after each.
func TestAllDifferential(t *testing.T) {
	for _, nstreams := range []int{3, 12, 200} {
		for seed := uint64(0); seed < 10; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(nstreams)))
			r := registry.New()
			var m oracle.Registry
			ids := map[uint64]int{}
			type handle struct {
				o  *registry.Override
				id int
			}
			var hs []handle
			for op := 0; op < 600; op++ {
				s := registry.ServiceStream{Service: registry.ServiceID(rng.IntN(2)), Stream: registry.StreamID(rng.IntN(nstreams))}
				if rng.IntN(5) < 3 || len(hs) == 0 {
					mode := registry.StreamMode(rng.IntN(2))
					h := handle{r.Set(mode, s), m.Set(mode, s)}
					ids[h.o.ID()] = h.id
					hs = append(hs, h)
				} else {
					j := rng.IntN(len(hs)) // any, not only the newest
					hs[j].o.Release()
					m.Release(hs[j].id)
					hs = append(hs[:j], hs[j+1:]...)
				}
				if op%7 == 0 {
					checkAllModel(t, r, &m, ids)
				}
			}
			for _, h := range hs {
				h.o.Release()
				m.Release(h.id)
			}
			checkAllModel(t, r, &m, ids)
		}
	}
}

// TestAllConcurrent: while writers set and release overrides, every
// iteration yields the overrides of one snapshot: as many setting each mode
// as that snapshot counts live, each stream's newest first.
func TestAllConcurrent(t *testing.T) {
	for _, nstreams := range []int{4, 64} {
		r := registry.New()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for g := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(g), 5))
				var open []*registry.Override
				for {
					select {
					case <-stop:
						for _, o := range open {
							o.Release()
						}
						return
					default:
					}
					spin.Yield()
					if rng.IntN(2) == 0 || len(open) == 0 {
						s := registry.ServiceStream{Service: 1, Stream: registry.StreamID(rng.IntN(nstreams))}
						open = append(open, r.Set(registry.StreamMode(rng.IntN(2)), s))
					} else {
						j := rng.IntN(len(open))
						open[j].Release()
						open = append(open[:j], open[j+1:]...)
					}
					if len(open) > 40 {
						open[0].Release()
						open = open[1:]
					}
				}
			}()
		}
		for range 300 {
			infos, live := registry.AllOf(r)
			checkOrder(t, infos)
			var got [2]int
			for _, in := range infos {
				got[in.Mode]++
			}
			require.Equal(t, live, got, "yielded per mode vs the snapshot's live counts")
			// The public iterator: one snapshot per iteration.
			checkOrder(t, slices.Collect(r.All()))
			runtime.Gosched()
		}
		close(stop)
		wg.Wait()
		require.Empty(t, slices.Collect(r.All()))
	}
}

// TestAllBreak: an iteration stopped early yields nothing more, in the
// small table and in the trie, and the registry is unchanged.
func TestAllBreak(t *testing.T) {
	for _, n := range []int{5, 100} {
		r := registry.New()
		var os []*registry.Override
		for i := range n {
			s := registry.ServiceStream{Service: 1, Stream: registry.StreamID(i % (n - 2))} // two stacks of 2
			os = append(os, r.Set(registry.Execute, s))
		}
		for stopAt := 1; stopAt <= n; stopAt++ {
			seen := 0
			for range r.All() {
				seen++
				if seen == stopAt {
					break
				}
			}
			require.Equal(t, stopAt, seen)
		}
		require.Len(t, slices.Collect(r.All()), n)
		require.Equal(t, n, r.Live(registry.Execute))
		for _, o := range os {
			o.Release()
		}
	}
}

func TestOverrideInfoString(t *testing.T) {
	in := registry.OverrideInfo{Stream: registry.ServiceStream{Service: 1, Stream: 7}, Mode: registry.Discard, ID: 12, Snapshot: 30}
	require.Equal(t, "#12 Discard on 1/7", in.String())
	require.Equal(t, "#12 Discard on 1/7", fmt.Sprint(in))
}
