package registry_test

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// step is one operation of a table test: set an override (named by its
// position among the sets), release one, or check a stream's mode.
type step struct {
	set     *registry.StreamMode
	stream  registry.ServiceStream
	release int // index of the set to release, when set == nil and check == nil
	check   *check
}

type check struct {
	def  registry.StreamMode
	want registry.StreamMode
}

func set(m registry.StreamMode, s registry.ServiceStream) step { return step{set: &m, stream: s} }
func rel(i int) step                                           { return step{release: i} }
func want(s registry.ServiceStream, def, w registry.StreamMode) step {
	return step{stream: s, check: &check{def: def, want: w}}
}

func TestRegistryRules(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{"no override: the default", []step{want(s1, E, E), want(s1, D, D)}},
		{"one override decides", []step{set(E, s1), want(s1, D, E), want(s1, E, E), rel(0), want(s1, D, D)}},
		{"override of the default changes nothing", []step{set(D, s1), want(s1, D, D), want(s1, E, D)}},
		{"newest decides", []step{set(E, s1), set(D, s1), want(s1, D, D), want(s1, E, D), set(E, s1), want(s1, D, E)}},
		{"release newest first", []step{set(E, s1), set(D, s1), set(E, s1), rel(2), want(s1, E, D), rel(1), want(s1, D, E), rel(0), want(s1, D, D)}},
		{"release oldest first", []step{set(E, s1), set(D, s1), set(E, s1), rel(0), want(s1, D, E), rel(1), want(s1, D, E), rel(2), want(s1, D, D)}},
		{"release middle first", []step{set(E, s1), set(D, s1), set(E, s1), rel(1), want(s1, D, E), rel(2), want(s1, D, E), rel(0), want(s1, D, D)}},
		{"default nested inside opposite", []step{set(E, s1), set(D, s1), want(s1, D, D), rel(1), want(s1, D, E)}},
		{"release twice does nothing", []step{set(E, s1), set(E, s1), rel(1), rel(1), want(s1, D, E), rel(0), rel(0), want(s1, D, D)}},
		{"streams are separate", []step{set(E, s1), want(s2, D, D), want(s1, D, E)}},
		{"services are separate", []step{set(E, s1), want(s1b, D, D), set(D, s1b), want(s1, E, E), want(s1b, E, D)}},
		{"the zero stream is a stream", []step{set(E, s1), want(registry.ServiceStream{}, D, D), set(E, registry.ServiceStream{}), want(registry.ServiceStream{}, D, E), want(s1b, D, D)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := registry.New()
			var overrides []*registry.Override
			for i, st := range tc.steps {
				switch {
				case st.set != nil:
					overrides = append(overrides, r.Set(*st.set, st.stream))
				case st.check != nil:
					assert.Equal(t, st.check.want, r.Mode(st.stream, st.check.def), "step %d: Mode(%v, %v)", i, st.stream, st.check.def)
				default:
					overrides[st.release].Release()
				}
			}
			for _, o := range overrides {
				o.Release()
			}
			assert.Zero(t, r.Live(E))
			assert.Zero(t, r.Live(D))
		})
	}
}

func TestRegistryLive(t *testing.T) {
	r := registry.New()
	a := r.Set(E, s1)
	b := r.Set(E, s2)
	c := r.Set(D, s1b)
	assert.Equal(t, 2, r.Live(E))
	assert.Equal(t, 1, r.Live(D))
	b.Release()
	b.Release()
	assert.Equal(t, 1, r.Live(E))
	a.Release()
	c.Release()
	assert.Equal(t, 0, r.Live(E))
	assert.Equal(t, 0, r.Live(D))
	assert.Equal(t, "Execute on 1/1", a.String())
	assert.Equal(t, E, a.Mode())
	assert.Equal(t, s1, a.Stream())
}

func TestRegistryProcessMode(t *testing.T) {
	r := registry.New()
	assert.Equal(t, registry.ProcessExecute, r.ProcessMode())
	assert.Equal(t, E, r.Resolve(s1))
	assert.Equal(t, registry.ProcessExecute, r.SetProcessMode(registry.ProcessCompile))
	assert.Equal(t, D, r.Resolve(s1))
	o := r.Set(E, s1)
	assert.Equal(t, E, r.Resolve(s1))
	assert.Equal(t, D, r.Resolve(s2))
	assert.Equal(t, registry.ProcessCompile, r.SetProcessMode(registry.ProcessCompileAndAutotune))
	assert.Equal(t, E, r.Resolve(s1), "overrides survive a process mode change")
	assert.Equal(t, registry.ProcessCompileAndAutotune, r.SetProcessMode(registry.ProcessCompileAndAutotune))
	o.Release()
	assert.Equal(t, D, r.Resolve(s1))
	r.SetProcessMode(registry.ProcessExecute)
	assert.Equal(t, E, r.Resolve(s1))
}

func TestRegistryInvalidPanics(t *testing.T) {
	r := registry.New()
	assert.PanicsWithError(t, "registry: invalid StreamMode 2", func() { r.Set(2, s1) })
	assert.PanicsWithError(t, "registry: invalid StreamMode 2", func() { r.Mode(s1, 2) })
	assert.PanicsWithError(t, "registry: invalid StreamMode 255", func() { r.Mode(s1, 255) })
	assert.PanicsWithError(t, "registry: invalid StreamMode 3", func() { r.Live(3) })
	assert.PanicsWithError(t, "registry: invalid ProcessMode 3", func() { r.SetProcessMode(3) })
	// With live overrides, the slow path validates too.
	o := r.Set(E, s1)
	defer o.Release()
	assert.PanicsWithError(t, "registry: invalid StreamMode 4", func() { r.Mode(s1, 4) })
	assert.Equal(t, 1, r.Live(E), "a panicking call changes nothing")
}

func TestRegistryManyOverrides(t *testing.T) {
	// Past the inline capacity the snapshot indexes its entries; check the
	// index agrees with the model for 1,024 overrides over many streams.
	r := registry.New()
	var m oracle.Registry
	rng := rand.New(rand.NewPCG(1, 2))
	type pair struct {
		o  *registry.Override
		id int
	}
	var live []pair
	for i := 0; i < 1024; i++ {
		s := registry.ServiceStream{Service: registry.ServiceID(rng.IntN(4)), Stream: registry.StreamID(rng.IntN(300))}
		mode := registry.StreamMode(rng.IntN(2))
		live = append(live, pair{r.Set(mode, s), m.Set(mode, s)})
	}
	checkAll := func() {
		for svc := registry.ServiceID(0); svc < 4; svc++ {
			for st := registry.StreamID(0); st < 300; st += 7 {
				s := registry.ServiceStream{Service: svc, Stream: st}
				for _, def := range []registry.StreamMode{E, D} {
					require.Equal(t, m.Mode(s, def), r.Mode(s, def), "Mode(%v, %v)", s, def)
				}
			}
		}
		require.Equal(t, m.Live(E), r.Live(E))
		require.Equal(t, m.Live(D), r.Live(D))
	}
	checkAll()
	rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
	for i, p := range live {
		p.o.Release()
		m.Release(p.id)
		if i%97 == 0 || len(live)-i < 12 {
			checkAll()
		}
	}
	checkAll()
}

// TestRegistryDifferential drives the registry and the sequential model with
// the same random operations — out-of-order and double releases included —
// and compares every read.
func TestRegistryDifferential(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		r := registry.New()
		var m oracle.Registry
		type handle struct {
			o  *registry.Override
			id int
		}
		var hs []handle
		streams := []registry.ServiceStream{s1, s2, s1b, {Service: 3, Stream: 3}}
		for op := 0; op < 400; op++ {
			s := streams[rng.IntN(len(streams))]
			mode := registry.StreamMode(rng.IntN(2))
			switch rng.IntN(6) {
			case 0, 1:
				hs = append(hs, handle{r.Set(mode, s), m.Set(mode, s)})
			case 2:
				if len(hs) > 0 {
					h := hs[rng.IntN(len(hs))] // any, not only the newest; maybe again
					h.o.Release()
					m.Release(h.id)
				}
			case 3:
				require.Equal(t, m.Mode(s, mode), r.Mode(s, mode), "seed %d op %d: Mode(%v, %v)", seed, op, s, mode)
			case 4:
				require.Equal(t, m.Resolve(s), r.Resolve(s), "seed %d op %d: Resolve(%v)", seed, op, s)
				require.Equal(t, m.Live(mode), r.Live(mode), "seed %d op %d: Live(%v)", seed, op, mode)
			case 5:
				p := registry.ProcessMode(rng.IntN(3))
				require.Equal(t, m.SetProcessMode(p), r.SetProcessMode(p), "seed %d op %d: SetProcessMode(%v)", seed, op, p)
			}
		}
	}
}

// TestRegistryOwnStreams: each goroutine owns a stream and checks every read
// of it against its own history while the others churn theirs.
func TestRegistryOwnStreams(t *testing.T) {
	r := registry.New()
	n := 8
	iters := 3000
	if testing.Short() {
		iters = 300
	}
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			s := registry.ServiceStream{Service: registry.ServiceID(g % 2), Stream: registry.StreamID(g)}
			var m oracle.Registry
			type handle struct {
				o  *registry.Override
				id int
			}
			var hs []handle
			for i := 0; i < iters; i++ {
				if rng.IntN(2) == 0 || len(hs) == 0 {
					mode := registry.StreamMode(rng.IntN(2))
					hs = append(hs, handle{r.Set(mode, s), m.Set(mode, s)})
				} else {
					j := rng.IntN(len(hs))
					hs[j].o.Release()
					m.Release(hs[j].id)
					hs = append(hs[:j], hs[j+1:]...)
				}
				for _, def := range []registry.StreamMode{E, D} {
					if got, w := r.Mode(s, def), m.Mode(s, def); got != w {
						errs <- "goroutine " + s.String() + ": Mode = " + got.String() + ", want " + w.String()
						return
					}
				}
			}
			for _, h := range hs {
				h.o.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	assert.Zero(t, r.Live(E))
	assert.Zero(t, r.Live(D))
}

func TestRegistryReleaseFromOtherGoroutines(t *testing.T) {
	r := registry.New()
	os := make([]*registry.Override, 64)
	for i := range os {
		os[i] = r.Set(E, s1)
	}
	assert.Equal(t, E, r.Mode(s1, D))
	var wg sync.WaitGroup
	for i := range os {
		wg.Add(2)
		go func() { defer wg.Done(); os[i].Release() }()
		go func() { defer wg.Done(); os[len(os)-1-i].Release() }() // each twice, racing
	}
	wg.Wait()
	assert.Equal(t, D, r.Mode(s1, D))
	assert.Zero(t, r.Live(E))
}

func TestRegistryModeAllocs(t *testing.T) {
	r := registry.New()
	assert.Zero(t, testing.AllocsPerRun(100, func() { r.Mode(s1, D) }), "fast path")
	var os []*registry.Override
	for i := 0; i < 100; i++ {
		os = append(os, r.Set(E, registry.ServiceStream{Service: 1, Stream: registry.StreamID(i)}))
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { r.Mode(s1, D) }), "indexed, hit")
	assert.Zero(t, testing.AllocsPerRun(100, func() { r.Mode(s1b, D) }), "indexed, miss")
	assert.Zero(t, testing.AllocsPerRun(100, func() { r.Resolve(s1) }), "Resolve")
	for _, o := range os {
		o.Release()
	}
}

func TestRegistryLeakedOverride(t *testing.T) {
	r := registry.New()
	func() {
		r.Set(E, s1) // never released: a bug the cleanup mends
	}()
	keep := r.Set(E, s2)
	deadline := time.Now().Add(10 * time.Second)
	for r.Leaked() == 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	require.Equal(t, uint64(1), r.Leaked())
	assert.Equal(t, D, r.Mode(s1, D), "the leaked override no longer pins its stream")
	assert.Equal(t, E, r.Mode(s2, D), "the reachable override is untouched")
	keep.Release()
	runtime.GC()
	runtime.GC()
	assert.Equal(t, uint64(1), r.Leaked(), "a released override is not counted as leaked")
}
