package registry

import (
	"runtime"
	"sync/atomic"
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
//
// Writers hold no lock, so neither does the list: it is a stack linked
// through Override.older, its top in one atomic pointer. Set pushes by
// compare-and-swap (each Override is pushed once, so the top never comes
// back to a value a pusher loaded: no ABA); a hand-over takes the whole list
// with one Swap to nil, which gives it to exactly one taker, who unlinks
// each Override as it goes so that one the program still holds does not
// keep the older ones reachable.

// youngMax is how many young overrides the list holds before the Set that
// fills it hands it over.
const youngMax = 256

// The states of an Override (Override.state).
const (
	overrideYoung    = iota // live, held by the young list, no cleanup
	overrideWatched         // live, cleanup attached (Override.cleanup)
	overrideReleased        // Release was called
)

// young is a registry's list of young overrides. Its zero value is empty.
type young struct {
	// top is the newest young override, linked to the older ones through
	// Override.older; nil when the list is empty. Pushed by
	// compare-and-swap, taken whole by Swap.
	top atomic.Pointer[Override]
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

// addYoung pushes o, just set, on r's young list. When that fills the
// list, it takes the list and hands it over.
func (r *Registry) addYoung(o *Override) {
	for {
		top := r.young.top.Load()
		o.older, o.youngLen = top, 1
		if top != nil {
			o.youngLen = top.youngLen + 1
		}
		if r.young.top.CompareAndSwap(top, o) {
			break
		}
	}
	if o.youngLen >= youngMax {
		// Another Set may have pushed on top meanwhile, or a hand-over
		// taken the list: whatever is there now goes.
		watch(r.young.top.Swap(nil))
	}
}

// handOver gives every override of r's young list still live its cleanup
// and empties the list.
func (r *Registry) handOver() { watch(r.young.top.Swap(nil)) }

// watch attaches a cleanup to each override still live of the young list
// whose top is top, taken from its registry, and unlinks the list.
func watch(top *Override) {
	for o := top; o != nil; {
		next := o.older
		o.older = nil
		if o.state.Load() == overrideYoung {
			c := runtime.AddCleanup(o, releaseLeaked, leakedOverride{r: o.r, id: o.id, stream: o.stream})
			o.cleanup = c // published to Release by the CompareAndSwap
			if !o.state.CompareAndSwap(overrideYoung, overrideWatched) {
				c.Stop() // released meanwhile
			}
		}
		o = next
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
