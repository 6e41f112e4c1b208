package fuzz

import (
	"fmt"
	"testing"

	"github.com/streamgate/streamgate/registry"
)

// permutations calls fn with every order of 0…n-1 (Heap's algorithm). fn
// must not keep p.
func permutations(n int, fn func(p []int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			fn(p)
			return
		}
		for i := 0; i < k; i++ {
			gen(k - 1)
			if k%2 == 0 {
				p[i], p[k-1] = p[k-1], p[i]
			} else {
				p[0], p[k-1] = p[k-1], p[0]
			}
		}
	}
	gen(n)
}

// modePatterns returns the modes the n nested overrides set, one slice per
// pattern: all 2^n patterns, or under -short from n = 5 only four:
// alternating (both ways round), all Execute, and one Execute with only
// Discard (the default) nested inside it.
func modePatterns(n int) [][]registry.StreamMode {
	var out [][]registry.StreamMode
	if n <= 4 || !testing.Short() {
		for bits := 0; bits < 1<<n; bits++ {
			ms := make([]registry.StreamMode, n)
			for i := range ms {
				ms[i] = registry.StreamMode(bits >> i & 1)
			}
			out = append(out, ms)
		}
		return out
	}
	alt0, alt1, allE, inside := make([]registry.StreamMode, n), make([]registry.StreamMode, n), make([]registry.StreamMode, n), make([]registry.StreamMode, n)
	for i := range n {
		alt0[i] = registry.StreamMode(i & 1)
		alt1[i] = registry.StreamMode(i&1 ^ 1)
		allE[i] = E
		inside[i] = D
	}
	inside[0] = E
	return append(out, alt0, alt1, allE, inside)
}

// TestReleaseOrders sets n nested overrides on one stream and releases
// them in every order (all 720 at n = 6), releasing each a second time
// right after its first release. runSequential compares every read
// (Mode of every stream under both defaults, Resolve, Live, ProcessMode)
// with the model after every op. Half the orders run under ProcessCompile,
// and half with an Execute override on stream 1 of the other service. They
// all run twice: as they are, and with every write losing its first
// compare-and-swap (see loseFirst), so each Set and Release publishes from
// a retry.
func TestReleaseOrders(t *testing.T) {
	for _, lose := range []bool{false, true} {
		t.Run(fmt.Sprintf("loseFirst=%v", lose), func(t *testing.T) {
			if lose {
				loseFirst(t)
			}
			releaseOrders(t)
		})
	}
}

func releaseOrders(t *testing.T) {
	for n := 1; n <= 6; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			orders := 0
			for _, modes := range modePatterns(n) {
				k := 0
				permutations(n, func(order []int) {
					if t.Failed() {
						return
					}
					k++
					var ops regOps
					if k%2 == 0 {
						ops = append(ops, setProcess(registry.ProcessCompile))
					}
					base := 0
					if k%4 < 2 {
						ops = append(ops, set(0, E, s21)) // a bystander: same stream id, other service
						base = 1
					}
					for i, m := range modes {
						ops = append(ops, set(base+i, m, s11))
					}
					for _, i := range order {
						ops = append(ops, rel(base+i), again(base+i))
					}
					if err := runSequential(wrap(registry.New()), ops); err != nil {
						t.Errorf("modes %v, release order %v: %v", modes, order, err)
					}
				})
				orders = k
			}
			if want := factorial(n); orders != want {
				t.Errorf("ran %d orders, want %d", orders, want)
			}
		})
	}
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}
