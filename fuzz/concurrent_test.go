package fuzz

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/streamgate/streamgate/registry"
)

// randomProgram returns a program of goroutines goroutines doing ops each,
// mixing every kind of op: Sets on any stream, Releases of their own
// overrides in any order, Releases again, Shared Releases of anyone's, and
// every read and process mode change.
func randomProgram(rng *rand.Rand, goroutines, ops int) program {
	p := make(program, goroutines)
	for g := range p {
		sets := 0
		var held, released []int
		for range ops {
			s := streams[rng.IntN(len(streams))]
			m := registry.StreamMode(rng.IntN(2))
			var op regOp
			switch k := rng.IntN(12); {
			case k < 3 || k == 3 && len(held) == 0:
				op = set(sets, m, s)
				held = append(held, sets)
				sets++
			case k == 3:
				j := rng.IntN(len(held))
				op = rel(held[j])
				released = append(released, held[j])
				held = append(held[:j], held[j+1:]...)
			case k == 4 && len(released) > 0:
				op = again(released[rng.IntN(len(released))])
			case k == 4:
				op = relShared(rng.IntN(64))
			case k < 7:
				op = mode(s, m)
			case k == 7:
				op = resolve(s)
			case k == 8:
				op = live(m)
			case k == 9:
				op = setProcess(registry.ProcessMode(rng.IntN(3)))
			case k == 10:
				op = process()
			default:
				op = relShared(rng.IntN(64))
			}
			p[g] = append(p[g], op)
		}
	}
	return p
}

// TestRandomHistories runs 1,000 random programs of 4 to 8 goroutines on a
// registry (100 under -short) and checks every history is linearizable,
// first as they run, then with writers made to lose races (see contend):
// it fails unless some writer then lost to another goroutine's write, not
// only to the copies the hook publishes.
func TestRandomHistories(t *testing.T) {
	histories := 1000
	if testing.Short() {
		histories = 100
	}
	for _, contended := range []bool{false, true} {
		t.Run(fmt.Sprintf("contended=%v", contended), func(t *testing.T) {
			var c *contention
			if contended {
				c = contend(t)
			}
			rng := rand.New(rand.NewPCG(3, 3))
			for i := 0; i < histories && !t.Failed(); i++ {
				goroutines := 4 + rng.IntN(5)
				checkConcurrent(t, wrap(registry.New()), randomProgram(rng, goroutines, 4+rng.IntN(13)))
			}
			if c == nil {
				return
			}
			retries, injected := c.retries.Load(), c.injected.Load()
			t.Logf("%d write attempts, %d retries, %d of them after an injected conflict", c.attempts.Load(), retries, injected)
			if retries <= injected {
				t.Errorf("%d retries, %d injected conflicts: no writer lost to another goroutine's write", retries, injected)
			}
		})
	}
}
