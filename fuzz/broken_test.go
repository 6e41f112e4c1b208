package fuzz

import (
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/anishathalye/porcupine"

	"github.com/streamgate/streamgate/registry"
)

// Three deliberately broken registries, to show the checkers fire: split
// counts, a Release of the wrong override, and writers that publish with a
// plain store where they must compare-and-swap. A checker that never fires
// proves nothing.

// splitRegistry keeps its live counts and its entry list in separate
// atomics instead of one snapshot. Mode's fast path reads only the count.
//
// With wrongOrder, Set publishes its entry before raising the count and
// Release lowers the count before removing the entry, so the count can be
// lower than the entries: the fast path then answers the default while an
// override of the opposite mode is still live, and a later slow-path read
// sees it again. With wrongOrder false (count raised first, lowered last)
// the count is never below the entries and Mode is linearizable.
//
// Sequentially both orders are correct, so only the concurrent check can
// tell them apart.
type splitRegistry struct {
	wrongOrder bool
	entries    atomic.Pointer[[]splitEntry] // copy-on-write, oldest first
	live       [2]atomic.Int64              // by StreamMode
	process    atomic.Uint32                // a registry.ProcessMode
	ids        atomic.Uint64
	// pause, when set, is taken (swapped to nil) and run by the next
	// Release between its two publications: the window the bug lives in.
	pause atomic.Pointer[func()]
}

type splitEntry struct {
	id     uint64
	mode   registry.StreamMode
	stream registry.ServiceStream
}

type splitOverride struct {
	r        *splitRegistry
	e        splitEntry
	released atomic.Bool
}

func (r *splitRegistry) update(fn func([]splitEntry) []splitEntry) {
	for {
		old := r.entries.Load()
		var cur []splitEntry
		if old != nil {
			cur = *old
		}
		next := fn(cur)
		if r.entries.CompareAndSwap(old, &next) {
			return
		}
	}
}

func (r *splitRegistry) Set(mode registry.StreamMode, s registry.ServiceStream) override {
	e := splitEntry{id: r.ids.Add(1), mode: mode, stream: s}
	add := func(cur []splitEntry) []splitEntry { return append(slices.Clip(cur), e) }
	if r.wrongOrder {
		r.update(add)
		r.live[mode].Add(1)
	} else {
		r.live[mode].Add(1)
		r.update(add)
	}
	return &splitOverride{r: r, e: e}
}

func (o *splitOverride) Release() {
	if !o.released.CompareAndSwap(false, true) {
		return
	}
	r := o.r
	remove := func(cur []splitEntry) []splitEntry {
		return slices.DeleteFunc(slices.Clone(cur), func(e splitEntry) bool { return e.id == o.e.id })
	}
	pause := func() {
		if p := r.pause.Swap(nil); p != nil {
			(*p)()
		}
	}
	if r.wrongOrder {
		r.live[o.e.mode].Add(-1)
		pause()
		r.update(remove)
	} else {
		r.update(remove)
		pause()
		r.live[o.e.mode].Add(-1)
	}
}

func (r *splitRegistry) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	if r.live[def^1].Load() == 0 {
		return def // fast path
	}
	if p := r.entries.Load(); p != nil {
		for i := len(*p) - 1; i >= 0; i-- {
			if (*p)[i].stream == s {
				return (*p)[i].mode
			}
		}
	}
	return def
}

func (r *splitRegistry) Resolve(s registry.ServiceStream) registry.StreamMode {
	return r.Mode(s, r.ProcessMode().StreamMode())
}

func (r *splitRegistry) Live(mode registry.StreamMode) int { return int(r.live[mode].Load()) }

func (r *splitRegistry) SetProcessMode(p registry.ProcessMode) registry.ProcessMode {
	return registry.ProcessMode(r.process.Swap(uint32(p)))
}

func (r *splitRegistry) ProcessMode() registry.ProcessMode {
	return registry.ProcessMode(r.process.Load())
}

// newestRegistry is correct but for Release, which removes the newest live
// override of its stream instead of its own. A lock keeps it simple.
type newestRegistry struct {
	mu      sync.Mutex
	entries []*newestOverride // oldest first; guarded by mu
	process registry.ProcessMode
}

type newestOverride struct {
	r        *newestRegistry
	mode     registry.StreamMode
	stream   registry.ServiceStream
	released bool // guarded by r.mu
}

func (r *newestRegistry) Set(mode registry.StreamMode, s registry.ServiceStream) override {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := &newestOverride{r: r, mode: mode, stream: s}
	r.entries = append(r.entries, o)
	return o
}

func (o *newestOverride) Release() {
	r := o.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if o.released {
		return
	}
	o.released = true
	for i := len(r.entries) - 1; i >= 0; i-- {
		if r.entries[i].stream == o.stream { // the bug: not r.entries[i] == o
			r.entries[i].released = true
			r.entries = slices.Delete(r.entries, i, i+1)
			return
		}
	}
}

func (r *newestRegistry) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.entries) - 1; i >= 0; i-- {
		if r.entries[i].stream == s {
			return r.entries[i].mode
		}
	}
	return def
}

func (r *newestRegistry) Resolve(s registry.ServiceStream) registry.StreamMode {
	return r.Mode(s, r.ProcessMode().StreamMode())
}

func (r *newestRegistry) Live(mode registry.StreamMode) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, o := range r.entries {
		if o.mode == mode {
			n++
		}
	}
	return n
}

func (r *newestRegistry) SetProcessMode(p registry.ProcessMode) registry.ProcessMode {
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := r.process
	r.process = p
	return prev
}

func (r *newestRegistry) ProcessMode() registry.ProcessMode {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.process
}

// TestDifferentialCatchesReleaseNewest: FuzzRegistry's body (decode, then
// runSequential) fails on the newest-releasing registry, for a crafted
// input, for the committed seeds, and for an input found by a seeded random
// search of byte strings, while the real registry passes all of them.
func TestDifferentialCatchesReleaseNewest(t *testing.T) {
	body := func(r registryAPI, data []byte) error { return runSequential(r, decodeOps(data)) }
	newest := func() registryAPI { return &newestRegistry{} }
	real := func() registryAPI { return wrap(registry.New()) }

	t.Run("crafted", func(t *testing.T) {
		data := encodeOps(seq(set(0, E, s11), set(1, D, s11), rel(0), mode(s11, E)))
		err := body(newest(), data)
		if err == nil {
			t.Fatal("the newest-releasing registry passed")
		}
		t.Logf("caught:\n%v", err)
		if err := body(real(), data); err != nil {
			t.Fatalf("the real registry failed: %v", err)
		}
	})

	t.Run("seeds", func(t *testing.T) {
		caught := 0
		for name, ops := range registrySeeds {
			if body(newest(), encodeOps(ops)) != nil {
				caught++
			} else {
				t.Logf("seed %s does not catch it", name)
			}
		}
		if caught == 0 {
			t.Fatal("no seed catches the newest-releasing registry")
		}
		t.Logf("%d of %d seeds catch it", caught, len(registrySeeds))
	})

	t.Run("search", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		for i := 1; i <= 10_000; i++ {
			data := make([]byte, 2*(1+rng.IntN(12)))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			if err := body(newest(), data); err != nil {
				if err := body(real(), data); err != nil {
					t.Fatalf("the real registry fails too: %v", err)
				}
				t.Logf("input %d of the search, %q, catches it:\n%v", i, data, err)
				return
			}
		}
		t.Fatal("10,000 random inputs did not catch the newest-releasing registry")
	})
}

// TestDifferentialMissesSplitCounts: sequentially the split-count registry
// is correct, so the differential check passes it. Only the concurrent
// check can catch it (TestLinearizabilityCatchesSplitCounts).
func TestDifferentialMissesSplitCounts(t *testing.T) {
	for name, ops := range registrySeeds {
		if err := runSequential(&splitRegistry{wrongOrder: true}, ops); err != nil {
			t.Errorf("seed %s: %v", name, err)
		}
	}
}

// TestLinearizabilityCatchesSplitCounts drives the split-count registry
// through one fixed interleaving, made deterministic by pausing a Release
// between its two publications, and checks porcupine rejects the history
// when the two are in the wrong order and accepts it in the right order.
//
//	g0: o0 := Set(Execute, 1/1); o1 := Set(Execute, 1/1)
//	g1: o0.Release() — lowers Live(Execute) to 1, then pauses
//	g0: o1.Release()                 Live(Execute) is 0; o0's entry is still there
//	g0: Mode(1/1, Discard)           fast path: Discard, as if o0 were gone
//	g0: o2 := Set(Execute, 2/1)      Live(Execute) is 1 again
//	g0: Mode(1/1, Discard)           slow path finds o0: Execute
//	g1: (resumes, removes o0's entry)
//
// The two Modes on 1/1 see o0 gone and then live again while nothing set
// 1/1: no sequential order explains that.
func TestLinearizabilityCatchesSplitCounts(t *testing.T) {
	for _, wrong := range []bool{true, false} {
		r := &splitRegistry{wrongOrder: wrong}
		s := newSession(r, 2)
		s.Do(0, set(0, E, s11))
		s.Do(0, set(1, E, s11))
		paused, resume := make(chan struct{}), make(chan struct{})
		pause := func() { close(paused); <-resume }
		r.pause.Store(&pause)
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Do(1, relShared(0)) // o0: the first override in the pool
		}()
		<-paused
		s.Do(0, rel(1))
		s.Do(0, mode(s11, D))
		s.Do(0, set(2, E, s21))
		s.Do(0, mode(s11, D))
		close(resume)
		<-done
		s.ReleaseAll()
		h := s.History()
		res := checkHistory(h, checkTimeout)
		switch {
		case wrong && res != porcupine.Illegal:
			t.Errorf("wrong order: porcupine said %q, want %q\n%v", res, porcupine.Illegal, h)
		case !wrong && res != porcupine.Ok:
			t.Errorf("right order: porcupine said %q, want %q\n%v", res, porcupine.Ok, h)
		default:
			t.Logf("wrongOrder=%v: %s\n%v", wrong, res, h)
		}
	}
}

// TestPartitionKeepsViolations: the split-count history above stays
// illegal when every other kind of call joins it — a Live (which ties all
// streams into one part), a Resolve and process mode calls — so partition
// never hides a violation by cutting the history where it must not.
func TestPartitionKeepsViolations(t *testing.T) {
	r := &splitRegistry{wrongOrder: true}
	s := newSession(r, 2)
	s.Do(0, setProcess(registry.ProcessCompile))
	s.Do(0, set(0, E, s11))
	s.Do(0, set(1, E, s11))
	s.Do(0, live(E))
	paused, resume := make(chan struct{}), make(chan struct{})
	pause := func() { close(paused); <-resume }
	r.pause.Store(&pause)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Do(1, relShared(0))
	}()
	<-paused
	s.Do(0, rel(1))
	s.Do(0, resolve(s11)) // Discard: the fast path under ProcessCompile
	s.Do(0, set(2, E, s21))
	s.Do(0, process())
	s.Do(0, mode(s11, D))
	close(resume)
	<-done
	s.Do(0, live(E))
	s.ReleaseAll()
	h := s.History()
	if got := len(partition(h.Operations())); got != 1 {
		t.Errorf("Partition made %d parts, want 1: Live ties every stream, Resolve the process mode", got)
	}
	if res := checkHistory(h, checkTimeout); res != porcupine.Illegal {
		t.Errorf("porcupine said %q, want %q\n%v", res, porcupine.Illegal, h)
	}
}

// blindRegistry is a copy-on-write registry whose writers, with blind, load
// the snapshot, build the next one and publish it with a plain store
// instead of a compare-and-swap: a writer that another overtook between
// its load and its store throws the other's write away. Sequentially
// nothing overtakes anyone, so it is correct; without blind, writers retry
// their compare-and-swap and it is linearizable.
type blindRegistry struct {
	blind bool
	state atomic.Pointer[blindState] // never nil after newBlindRegistry
	ids   atomic.Uint64
	// pause, when set, is taken (swapped to nil) and run by the next write
	// between building its snapshot and publishing it: the window the bug
	// lives in.
	pause atomic.Pointer[func()]
}

// blindState is one snapshot of a blindRegistry, never modified once
// published.
type blindState struct {
	entries []splitEntry // oldest first
	process registry.ProcessMode
}

type blindOverride struct {
	r *blindRegistry
	e splitEntry
}

func newBlindRegistry(blind bool) *blindRegistry {
	r := &blindRegistry{blind: blind}
	r.state.Store(&blindState{})
	return r
}

// update publishes fn(the snapshot) and returns the snapshot fn was given.
func (r *blindRegistry) update(fn func(old *blindState) *blindState) *blindState {
	for {
		old := r.state.Load()
		next := fn(old)
		if p := r.pause.Swap(nil); p != nil {
			(*p)()
		}
		if r.blind {
			r.state.Store(next) // the bug
			return old
		}
		if r.state.CompareAndSwap(old, next) {
			return old
		}
	}
}

func (r *blindRegistry) Set(mode registry.StreamMode, s registry.ServiceStream) override {
	e := splitEntry{id: r.ids.Add(1), mode: mode, stream: s}
	r.update(func(old *blindState) *blindState {
		return &blindState{entries: append(slices.Clip(old.entries), e), process: old.process}
	})
	return &blindOverride{r: r, e: e}
}

func (o *blindOverride) Release() {
	o.r.update(func(old *blindState) *blindState {
		entries := slices.DeleteFunc(slices.Clone(old.entries), func(e splitEntry) bool { return e.id == o.e.id })
		return &blindState{entries: entries, process: old.process}
	})
}

func (r *blindRegistry) Mode(s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	return blindMode(r.state.Load(), s, def)
}

func blindMode(st *blindState, s registry.ServiceStream, def registry.StreamMode) registry.StreamMode {
	for i := len(st.entries) - 1; i >= 0; i-- {
		if st.entries[i].stream == s {
			return st.entries[i].mode
		}
	}
	return def
}

func (r *blindRegistry) Resolve(s registry.ServiceStream) registry.StreamMode {
	st := r.state.Load()
	return blindMode(st, s, st.process.StreamMode())
}

func (r *blindRegistry) Live(mode registry.StreamMode) int {
	n := 0
	for _, e := range r.state.Load().entries {
		if e.mode == mode {
			n++
		}
	}
	return n
}

func (r *blindRegistry) SetProcessMode(p registry.ProcessMode) registry.ProcessMode {
	return r.update(func(old *blindState) *blindState {
		return &blindState{entries: old.entries, process: p}
	}).process
}

func (r *blindRegistry) ProcessMode() registry.ProcessMode { return r.state.Load().process }

// TestDifferentialMissesBlindStore: sequentially the blind-store registry
// is correct, so the differential check passes it. Only the concurrent
// check can catch it (TestLinearizabilityCatchesBlindStore).
func TestDifferentialMissesBlindStore(t *testing.T) {
	for name, ops := range registrySeeds {
		if err := runSequential(newBlindRegistry(true), ops); err != nil {
			t.Errorf("seed %s: %v", name, err)
		}
	}
}

// TestLinearizabilityCatchesBlindStore drives the blind-store registry
// through one fixed interleaving, made deterministic by pausing a Set
// between building its snapshot and publishing it, and checks porcupine
// rejects the history when writers store blind and accepts it when they
// compare-and-swap, the second Set then retrying from the newer snapshot:
//
//	g1: Set(Execute, 1/1) — builds its snapshot, then pauses
//	g0: Set(Execute, 2/1)
//	g0: Mode(2/1, Discard)           Execute
//	g1: (resumes, publishes)         blind: 2/1's override is gone
//	g0: Mode(2/1, Discard)           blind: Discard, with 2/1's override live
//	g0: Live(Execute)                blind: 1, with two live
func TestLinearizabilityCatchesBlindStore(t *testing.T) {
	for _, blind := range []bool{true, false} {
		r := newBlindRegistry(blind)
		s := newSession(r, 2)
		paused, resume := make(chan struct{}), make(chan struct{})
		pause := func() { close(paused); <-resume }
		r.pause.Store(&pause)
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Do(1, set(0, E, s11))
		}()
		<-paused
		s.Do(0, set(0, E, s21))
		s.Do(0, mode(s21, D))
		close(resume)
		<-done
		s.Do(0, mode(s21, D))
		s.Do(0, live(E))
		s.ReleaseAll()
		h := s.History()
		res := checkHistory(h, checkTimeout)
		switch {
		case blind && res != porcupine.Illegal:
			t.Errorf("blind store: porcupine said %q, want %q\n%v", res, porcupine.Illegal, h)
		case !blind && res != porcupine.Ok:
			t.Errorf("compare-and-swap: porcupine said %q, want %q\n%v", res, porcupine.Ok, h)
		default:
			t.Logf("blind=%v: %s\n%v", blind, res, h)
		}
	}
}
