package lockfree

import "sync/atomic"

// Value is an atomically replaced pointer to an immutable snapshot of type S.
//
// Value is safe for concurrent use by multiple goroutines. Load never blocks
// and never allocates; Update is lock-free. The zero value holds a nil
// snapshot and is ready to use. A Value must not be copied after first use.
type Value[S any] struct {
	p atomic.Pointer[S] // the published snapshot; never modified once stored
}

// Load returns the current snapshot. The caller must not modify it.
func (v *Value[S]) Load() *S { return v.p.Load() }

// Store publishes s unconditionally. s must not be modified afterwards.
func (v *Value[S]) Store(s *S) { v.p.Store(s) }

// CompareAndSwap publishes new if the current snapshot is old.
func (v *Value[S]) CompareAndSwap(old, new *S) (swapped bool) {
	return v.p.CompareAndSwap(old, new)
}

// Update publishes fn(old), where old is the current snapshot, retrying with
// the newer snapshot whenever another writer published in between. It
// returns the snapshot fn was given and the one published.
//
// fn must not modify old; it may run more than once and must have no side
// effects. If fn returns old itself, nothing is published and Update returns
// (old, old): a way to say "no change".
func (v *Value[S]) Update(fn func(old *S) *S) (old, new *S) {
	for {
		old = v.p.Load()
		new = fn(old)
		if new == old || v.p.CompareAndSwap(old, new) {
			return old, new
		}
	}
}
