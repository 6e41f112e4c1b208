package bench_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/bench"
	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

const (
	E = registry.Execute
	D = registry.Discard
)

var (
	s1  = registry.ServiceStream{Service: 1, Stream: 1}
	s2  = registry.ServiceStream{Service: 1, Stream: 2}
	s1b = registry.ServiceStream{Service: 2, Stream: 1} // stream 1 of another service
)

// op is one step of a sequence: set (mode, stream), release the i-th set
// handle, or read (stream, def) and compare with the oracle.
type op struct {
	kind    byte // 's'et, 'r'elease, 'm'ode
	mode    registry.StreamMode
	stream  registry.ServiceStream
	release int
}

func set(m registry.StreamMode, s registry.ServiceStream) op {
	return op{kind: 's', mode: m, stream: s}
}
func rel(i int) op                     { return op{kind: 'r', release: i} }
func read(s registry.ServiceStream) op { return op{kind: 'm', stream: s} }

// run applies ops to impl and to the model, comparing every read (under
// both defaults) and, after every step, the reads of every stream.
func run(t *testing.T, impl bench.Impl, ops []op, streams []registry.ServiceStream) {
	t.Helper()
	var m oracle.Registry
	var hs []bench.Handle
	var ids []int
	check := func(i int, s registry.ServiceStream) {
		for _, def := range []registry.StreamMode{E, D} {
			require.Equal(t, m.Mode(s, def), impl.Mode(s, def), "step %d: Mode(%v, %v)", i, s, def)
		}
	}
	for i, o := range ops {
		switch o.kind {
		case 's':
			hs = append(hs, impl.Set(o.mode, o.stream))
			ids = append(ids, m.Set(o.mode, o.stream))
		case 'r':
			hs[o.release].Release()
			m.Release(ids[o.release])
		case 'm':
			check(i, o.stream)
		}
		for _, s := range streams {
			check(i, s)
		}
	}
	for i, h := range hs {
		h.Release()
		m.Release(ids[i])
	}
	for _, s := range streams {
		check(len(ops), s)
	}
}

func TestImplsRules(t *testing.T) {
	streams := []registry.ServiceStream{s1, s2, s1b}
	tests := []struct {
		name string
		ops  []op
	}{
		{"no override", []op{read(s1)}},
		{"one override", []op{set(E, s1), read(s1), rel(0), read(s1)}},
		{"nesting, newest decides", []op{set(E, s1), set(D, s1), set(E, s1), read(s1), rel(2), read(s1), rel(1), rel(0)}},
		{"release oldest first", []op{set(E, s1), set(D, s1), set(E, s1), rel(0), read(s1), rel(1), read(s1), rel(2)}},
		{"release middle first", []op{set(E, s1), set(D, s1), set(E, s1), rel(1), read(s1), rel(2), read(s1), rel(0)}},
		{"double release", []op{set(E, s1), set(E, s1), rel(1), rel(1), read(s1), rel(0), rel(0), read(s1), set(D, s1), read(s1)}},
		{"two services", []op{set(E, s1), read(s1b), set(D, s1b), read(s1), read(s1b), rel(0), read(s1b), rel(1)}},
		{"two streams", []op{set(E, s1), set(D, s2), read(s1), read(s2), rel(0), read(s2)}},
	}
	for _, impl := range bench.Impls() {
		t.Run("impl="+impl.Name, func(t *testing.T) {
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					run(t, impl.New(), tc.ops, streams)
				})
			}
		})
	}
}

// TestImplsDifferential drives every implementation and the model with the
// same random sequences, out-of-order and double releases included.
func TestImplsDifferential(t *testing.T) {
	streams := []registry.ServiceStream{s1, s2, s1b, {Service: 3, Stream: 3}}
	seeds := uint64(30)
	if testing.Short() {
		seeds = 5
	}
	for seed := uint64(0); seed < seeds; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		var ops []op
		sets := 0
		for range 300 {
			switch n := rng.IntN(5); {
			case n < 2:
				ops = append(ops, set(registry.StreamMode(rng.IntN(2)), streams[rng.IntN(len(streams))]))
				sets++
			case n < 4 && sets > 0:
				ops = append(ops, rel(rng.IntN(sets))) // any, maybe again
			default:
				ops = append(ops, read(streams[rng.IntN(len(streams))]))
			}
		}
		for _, impl := range bench.Impls() {
			run(t, impl.New(), ops, streams)
		}
	}
}

// TestImplsConcurrent: goroutines each own a stream and check every read of
// it against their own model while the others churn; releases happen from
// another goroutine than the one that set.
func TestImplsConcurrent(t *testing.T) {
	iters := 2000
	if testing.Short() {
		iters = 200
	}
	for _, named := range bench.Impls() {
		t.Run("impl="+named.Name, func(t *testing.T) {
			impl := named.New()
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					rng := rand.New(rand.NewPCG(uint64(g), 3))
					s := registry.ServiceStream{Service: registry.ServiceID(g % 2), Stream: registry.StreamID(g / 2)}
					var m oracle.Registry
					var hs []bench.Handle
					var ids []int
					for range iters {
						if rng.IntN(2) == 0 || len(hs) == 0 {
							mode := registry.StreamMode(rng.IntN(2))
							hs = append(hs, impl.Set(mode, s))
							ids = append(ids, m.Set(mode, s))
						} else {
							j := rng.IntN(len(hs))
							done := make(chan struct{})
							go func() { hs[j].Release(); close(done) }()
							<-done
							hs[j].Release() // twice
							m.Release(ids[j])
							hs = append(hs[:j], hs[j+1:]...)
							ids = append(ids[:j], ids[j+1:]...)
						}
						for _, def := range []registry.StreamMode{E, D} {
							if got, want := impl.Mode(s, def), m.Mode(s, def); got != want {
								t.Errorf("Mode(%v, %v) = %v, want %v", s, def, got, want)
								return
							}
						}
					}
					for _, h := range hs {
						h.Release()
					}
				})
			}
			wg.Wait()
			for g := range 4 {
				s := registry.ServiceStream{Service: registry.ServiceID(g % 2), Stream: registry.StreamID(g / 2)}
				assert.Equal(t, D, impl.Mode(s, D))
				assert.Equal(t, E, impl.Mode(s, E))
			}
		})
	}
}

func TestAtomicInt64(t *testing.T) {
	var a bench.AtomicInt64
	assert.Equal(t, D, a.Mode(s1, D))
	a.V.Store(1)
	assert.Equal(t, E, a.Mode(s1, D))
}
