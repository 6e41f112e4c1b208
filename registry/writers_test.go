package registry_test

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/internal/low/testhook"
	"github.com/streamgate/streamgate/internal/oracle"
	"github.com/streamgate/streamgate/registry"
)

// setWriteHook installs fn as r's write hook (see testhook.RegistryWrite)
// until the test ends: it runs on r's writes, not on other registries'
// (such as a leaked override's cleanup from an earlier test).
func setWriteHook(t *testing.T, r *registry.Registry, fn func(attempt int) bool) {
	t.Helper()
	hook := func(w any, attempt int) bool { return w == any(r) && fn(attempt) }
	testhook.RegistryWrite.Store(&hook)
	t.Cleanup(func() { testhook.RegistryWrite.Store(nil) })
}

// pair is a registry and the model it must agree with, and the overrides
// set on both.
type pair struct {
	r   *registry.Registry
	m   *oracle.Registry
	ids map[*registry.Override]int // the model's id of each override
}

func newPair() *pair {
	return &pair{r: registry.New(), m: &oracle.Registry{}, ids: map[*registry.Override]int{}}
}

func (p *pair) set(mode registry.StreamMode, s registry.ServiceStream) *registry.Override {
	o := p.r.Set(mode, s)
	p.ids[o] = p.m.Set(mode, s)
	return o
}

func (p *pair) release(o *registry.Override) {
	o.Release()
	p.m.Release(p.ids[o])
}

// check compares every read of p's registry with the model's, on streams,
// and checks the trie and the fast word.
func (p *pair) check(t *testing.T, streams []registry.ServiceStream) {
	t.Helper()
	if got, want := p.r.ProcessMode(), p.m.Process; got != want {
		t.Errorf("ProcessMode() = %v, want %v", got, want)
	}
	for _, mode := range []registry.StreamMode{E, D} {
		if got, want := p.r.Live(mode), p.m.Live(mode); got != want {
			t.Errorf("Live(%v) = %d, want %d", mode, got, want)
		}
	}
	for _, s := range streams {
		for _, def := range []registry.StreamMode{E, D} {
			if got, want := p.r.Mode(s, def), p.m.Mode(s, def); got != want {
				t.Errorf("Mode(%v, %v) = %v, want %v", s, def, got, want)
			}
		}
		if got, want := p.r.Resolve(s), p.m.Resolve(s); got != want {
			t.Errorf("Resolve(%v) = %v, want %v", s, got, want)
		}
	}
	if _, err := registry.CheckTrie(p.r); err != nil {
		t.Error(err)
	}
	if err := registry.CheckFastWord(p.r, true); err != nil {
		t.Error(err)
	}
}

// TestWriterLosesRace: a writer (Set, Release of its stream's newest or of
// a middle override, SetProcessMode) loses its compare-and-swap losses
// times in a row — to a writer that publishes a copy, or to real Sets and
// Releases, on its own stream and on others (growing the snapshot from the
// small table into the trie, or shrinking it back), or to process mode
// changes — and then wins. Each lost attempt finds the fast word no more
// than the published snapshot claims; afterwards every read agrees with
// the model, which applies the conflicting writes first (the writer takes
// effect at its winning compare-and-swap), the trie is well formed and the
// fast word is exact again.
func TestWriterLosesRace(t *testing.T) {
	const losses = 100
	s1, own := registry.ServiceStream{Service: 1, Stream: 1}, registry.ServiceStream{Service: 1, Stream: 9}
	fresh := func(i int) registry.ServiceStream {
		return registry.ServiceStream{Service: 2, Stream: registry.StreamID(i)}
	}
	held := func(i int) registry.ServiceStream {
		return registry.ServiceStream{Service: 3, Stream: registry.StreamID(i)}
	}
	streams := []registry.ServiceStream{s1, own}
	for i := range losses {
		streams = append(streams, fresh(i), held(i))
	}

	writers := []struct {
		name  string
		setup func(e *env)
		write func(e *env)
	}{
		{"Set", nil, func(e *env) { e.p.set(E, s1) }},
		{"Release newest", func(e *env) { e.on = append(e.on, e.p.set(E, s1), e.p.set(D, s1)) }, func(e *env) {
			e.p.release(e.on[1])
		}},
		{"Release middle", func(e *env) { e.on = append(e.on, e.p.set(E, s1), e.p.set(D, s1), e.p.set(E, s1)) }, func(e *env) {
			e.p.release(e.on[1])
		}},
		{"SetProcessMode", nil, func(e *env) {
			got := e.p.r.SetProcessMode(registry.ProcessCompile)
			if want := e.p.m.SetProcessMode(registry.ProcessCompile); got != want {
				e.t.Errorf("SetProcessMode(%v) = %v, want %v", registry.ProcessCompile, got, want)
			}
		}},
	}
	conflicts := []struct {
		name string
		copy bool                // the conflicting writer publishes a copy
		do   func(e *env, i int) // or these real writes, before attempt i's swap
	}{
		{"copy", true, nil},
		{"Set on its stream", false, func(e *env, i int) { e.p.set(registry.StreamMode(i&1), s1) }},
		{"Set on new streams", false, func(e *env, i int) { e.p.set(E, fresh(i)) }},
		{"Release", false, func(e *env, i int) { e.p.release(e.held[i]) }},
		{"SetProcessMode", false, func(e *env, i int) {
			// Never the SetProcessMode writer's mode, which would
			// leave it nothing to publish.
			pm := registry.ProcessExecute
			if e.p.m.Process == pm {
				pm = registry.ProcessCompileAndAutotune
			}
			e.p.r.SetProcessMode(pm)
			e.p.m.SetProcessMode(pm)
		}},
	}
	for _, w := range writers {
		for _, c := range conflicts {
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				e := &env{t: t, p: newPair()}
				e.p.set(E, own) // a bystander
				for i := range losses {
					e.held = append(e.held, e.p.set(registry.StreamMode(i&1), held(i)))
				}
				if w.setup != nil {
					w.setup(e)
				}
				e.p.check(t, streams)
				var attempts []int
				inHook := false
				setWriteHook(t, e.p.r, func(attempt int) bool {
					if inHook {
						return false // a conflicting write's own attempt
					}
					if err := registry.CheckFastWord(e.p.r, false); err != nil {
						t.Errorf("attempt %d: %v", attempt, err)
					}
					attempts = append(attempts, attempt)
					if attempt >= losses {
						return false
					}
					if c.do != nil {
						inHook = true
						c.do(e, attempt)
						inHook = false
					}
					return c.copy
				})
				w.write(e)
				testhook.RegistryWrite.Store(nil)
				if len(attempts) != losses+1 {
					t.Fatalf("the writer made %d attempts, want %d", len(attempts), losses+1)
				}
				for i, a := range attempts {
					if a != i {
						t.Fatalf("attempt %d numbered %d", i, a)
					}
				}
				e.p.check(t, streams)
			})
		}
	}
}

// env is what one case of TestWriterLosesRace works on.
type env struct {
	t    *testing.T
	p    *pair
	held []*registry.Override // one on each of 100 streams, set before the writer runs
	on   []*registry.Override // the overrides the writer's setup set on its stream
}

// TestReleaseLosesRaceToItself: a Release loses its compare-and-swap to a
// Release of the same override (the race of
// TestLosingReleaseReturnsAfterRemoval, through the write hook), so its
// retry finds nothing left to remove and publishes nothing. The fast word,
// which its lost attempt lowered, must still come back.
func TestReleaseLosesRaceToItself(t *testing.T) {
	s := registry.ServiceStream{Service: 1, Stream: 1}
	p := newPair()
	o := p.set(E, s)
	inHook := false
	attempts := 0
	setWriteHook(t, p.r, func(attempt int) bool {
		if inHook {
			return false
		}
		attempts++
		inHook = true
		o.Release() // the other Release, which wins
		inHook = false
		return false
	})
	p.release(o)
	testhook.RegistryWrite.Store(nil)
	if attempts != 1 {
		t.Errorf("the Release made %d attempts that publish, want 1 (its retry has nothing to publish)", attempts)
	}
	p.check(t, []registry.ServiceStream{s})
}

// TestLeakedOverridesConcurrent: writers set overrides at once, while
// garbage collections hand the young list over; some overrides they
// release at once, some they hold to the end, some they drop without
// Release. Every dropped one, and only those, is released by its cleanup
// and counted in Leaked: the lock-free young list loses none to a racing
// push or hand-over, and a held override, pushed after dropped ones, does
// not keep them reachable once handed over.
func TestLeakedOverridesConcurrent(t *testing.T) {
	const writers = 4
	each := 3000
	if testing.Short() {
		each = 600
	}
	r := registry.New()
	var wg sync.WaitGroup
	held := make([][]*registry.Override, writers)
	dropped := 0
	for g := range writers {
		for i := range each {
			if i%7 == 3 {
				dropped++
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				o := r.Set(registry.StreamMode(i&1), registry.ServiceStream{Service: 1, Stream: registry.StreamID(g*16 + i%16)})
				switch {
				case i%7 == 3: // dropped: a leak
				case i%3 == 0:
					held[g] = append(held[g], o)
				default:
					o.Release()
				}
				if i%500 == 0 {
					runtime.GC()
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(20 * time.Second)
	for r.Leaked() < uint64(dropped) && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := r.Leaked(); got != uint64(dropped) {
		t.Fatalf("Leaked() = %d, want %d", got, dropped)
	}
	nheld := 0
	for _, os := range held {
		nheld += len(os)
	}
	if got := r.Live(E) + r.Live(D); got != nheld {
		t.Errorf("Live(E)+Live(D) = %d, want the %d held", got, nheld)
	}
	for _, os := range held {
		for _, o := range os {
			o.Release()
		}
	}
	runtime.GC()
	runtime.GC()
	if got := r.Leaked(); got != uint64(dropped) {
		t.Errorf("after releasing the held: Leaked() = %d, want %d", got, dropped)
	}
	if got := r.Live(E) + r.Live(D); got != 0 {
		t.Errorf("Live(E)+Live(D) = %d, want 0", got)
	}
}
