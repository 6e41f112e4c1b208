package registry

import (
	"runtime"
	"weak"
)

// Leaked overrides: an Override dropped without Release must still be
// released and counted in Leaked. The garbage collector tells us, through a
// cleanup (runtime.AddCleanup) on the Override. But a cleanup costs more
// than the rest of a Set and its Release together (AddCleanup and Stop take
// runtime locks and allocate a special record), and almost every override
// is released soon after it is set: an autotune measurement lives for
// milliseconds.
//
// So a new Override starts young: the registry holds it in a list, which
// keeps it reachable, and it has no cleanup. The list is handed over when
// it is full and at every garbage collection: each Override in it that is
// still live then gets its cleanup and the registry lets go of it. An
// Override released while young never pays for a cleanup. One dropped
// without Release is released by its cleanup one collection later than a
// cleanup at Set would have: the collection that hands it over, then the
// one that finds it unreachable.

// youngMax is how many young overrides the list holds before the Set that
// fills it hands it over.
const youngMax = 256

// The states of an Override (Override.state).
const (
	overrideYoung    = iota // live, held by the young list, no cleanup
	overrideWatched         // live, cleanup attached (Override.cleanup)
	overrideReleased        // Release was called
)

// young is a registry's list of young overrides, guarded by Registry.mu.
type young struct {
	list []*Override // young overrides, maybe released since; at most youngMax
}

// leakedOverride is what an Override's cleanup needs: never the Override
// itself, which would keep it reachable.
type leakedOverride struct {
	r      *Registry
	id     uint64
	stream ServiceStream
}

// releaseLeaked is the cleanup of an override never released.
func releaseLeaked(l leakedOverride) {
	if l.r.remove(l.stream, l.id) {
		l.r.leaked.Add(1)
	}
}

// addYoung adds o, just set, to r's young list; r.mu is held. When that
// fills the list, it empties it and returns the full list, for the caller
// to hand over (watch) once it has unlocked r.mu.
func (r *Registry) addYoung(o *Override) (full []*Override) {
	y := &r.young
	if y.list == nil {
		y.list = make([]*Override, 0, youngMax)
	}
	y.list = append(y.list, o)
	if len(y.list) < youngMax {
		return nil
	}
	full = y.list
	y.list = nil
	return full
}

// handOver gives every override of r's young list still live its cleanup
// and empties the list.
func (r *Registry) handOver() {
	r.mu.Lock()
	list := r.young.list
	r.young.list = nil
	r.mu.Unlock()
	watch(list)
}

// watch attaches a cleanup to each override of list still live.
func watch(list []*Override) {
	for _, o := range list {
		if o.state.Load() != overrideYoung {
			continue
		}
		c := runtime.AddCleanup(o, releaseLeaked, leakedOverride{r: o.r, id: o.id, stream: o.stream})
		o.cleanup = c // published to Release by the CompareAndSwap
		if !o.state.CompareAndSwap(overrideYoung, overrideWatched) {
			c.Stop() // released meanwhile
		}
	}
}

// gcTick is an object made to be collected: its cleanup hands r's young
// list over at each garbage collection, then makes the next one. It
// holds r weakly, so that a registry no longer used can be collected.
type gcTick struct {
	_ *byte // a pointer, so the object is not in a tiny block, whose cleanup may never run
}

// tickEveryGC arranges for r's young list to be handed over at every
// garbage collection, for as long as r is reachable.
func tickEveryGC(r weak.Pointer[Registry]) {
	runtime.AddCleanup(new(gcTick), onGC, r)
}

func onGC(wr weak.Pointer[Registry]) {
	r := wr.Value()
	if r == nil {
		return
	}
	r.handOver()
	tickEveryGC(wr)
}
