package fuzz

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

// TestStress: 8 goroutines at GOMAXPROCS 1, 2 and 8 each do 100,000 random
// Set, Release and Mode calls (fewer under -race and -short). Each
// goroutine half uses a stream of its own, whose every Mode it checks
// against its own model, and half the four streams all share, which only
// the final check covers. Releases pick any held override, and sometimes
// release one again. Afterwards the registry must be empty: zero live
// counts, every stream at its default, nothing leaked.
func TestStress(t *testing.T) {
	const goroutines = 8
	iters := 100_000
	switch {
	case testing.Short() && raceEnabled:
		iters = 1_000
	case raceEnabled:
		iters = 30_000
	case testing.Short():
		iters = 10_000
	}
	shared := []registry.ServiceStream{s11, s12, s21, {Service: 2, Stream: 2}}
	for _, procs := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			r := registry.New()
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					stressGoroutine(t, r, g, iters, shared)
				}()
			}
			wg.Wait()
			for _, m := range []registry.StreamMode{E, D} {
				if n := r.Live(m); n != 0 {
					t.Errorf("Live(%v) = %d, want 0", m, n)
				}
			}
			for g := range goroutines {
				own := registry.ServiceStream{Service: 3, Stream: registry.StreamID(g)}
				for _, s := range append(shared, own) {
					for _, def := range []registry.StreamMode{E, D} {
						if got := r.Mode(s, def); got != def {
							t.Errorf("Mode(%v, %v) = %v, want %v", s, def, got, def)
						}
					}
				}
			}
			if n := r.Leaked(); n != 0 {
				t.Errorf("Leaked() = %d, want 0", n)
			}
		})
	}
}

// stressGoroutine is one goroutine of TestStress.
func stressGoroutine(t *testing.T, r *registry.Registry, g, iters int, shared []registry.ServiceStream) {
	rng := rand.New(rand.NewPCG(uint64(g), 7))
	own := registry.ServiceStream{Service: 3, Stream: registry.StreamID(g)}
	var m oracle.Registry // own's overrides only
	type held struct {
		o  *registry.Override
		id int // in m; 0 for a shared stream's
	}
	var hs []held
	var done []*registry.Override // released, to release again
	for i := range iters {
		mode := registry.StreamMode(rng.IntN(2))
		switch k := rng.IntN(8); {
		case k < 3 && len(hs) < 8:
			if rng.IntN(2) == 0 {
				hs = append(hs, held{r.Set(mode, own), m.Set(mode, own)})
			} else {
				hs = append(hs, held{o: r.Set(mode, shared[rng.IntN(len(shared))])})
			}
		case k < 5 && len(hs) > 0:
			j := rng.IntN(len(hs))
			hs[j].o.Release()
			m.Release(hs[j].id)
			done = append(done, hs[j].o)
			hs = append(hs[:j], hs[j+1:]...)
		case k == 5 && len(done) > 0:
			done[rng.IntN(len(done))].Release() // again: changes nothing
			if len(done) > 64 {
				done = done[32:]
			}
		default:
			r.Mode(shared[rng.IntN(len(shared))], mode)
		}
		for _, def := range []registry.StreamMode{E, D} {
			if got, want := r.Mode(own, def), m.Mode(own, def); got != want {
				t.Errorf("goroutine %d, iteration %d: Mode(%v, %v) = %v, want %v", g, i, own, def, got, want)
				return
			}
		}
	}
	for _, h := range hs {
		h.o.Release()
	}
}
