package lockfree

import "slices"

// Slice is a copy-on-write slice of T: Load returns the current elements as
// an immutable slice; Append and DeleteFunc publish a modified copy.
//
// Slice is safe for concurrent use by multiple goroutines. Load never blocks
// and never allocates; writers are lock-free and copy the slice (O(n)). The
// zero value is an empty slice ready to use. A Slice must not be copied after
// first use.
type Slice[T any] struct {
	v Value[[]T] // the published elements; never modified once stored
}

// Load returns the current elements, in the order they were appended. The
// caller must not modify the returned slice. It is a consistent snapshot:
// later writes do not change it.
func (s *Slice[T]) Load() []T {
	if p := s.v.Load(); p != nil {
		return *p
	}
	return nil
}

// Len returns the number of elements now.
func (s *Slice[T]) Len() int { return len(s.Load()) }

// Append publishes the current elements followed by elems, atomically with
// respect to other writers.
func (s *Slice[T]) Append(elems ...T) {
	if len(elems) == 0 {
		return
	}
	s.v.Update(func(old *[]T) *[]T {
		var cur []T
		if old != nil {
			cur = *old
		}
		next := make([]T, 0, len(cur)+len(elems))
		next = append(append(next, cur...), elems...)
		return &next
	})
}

// DeleteFunc publishes the current elements less those for which del returns
// true, and returns how many it removed. del may run more than once per
// element and must have no side effects. When del matches nothing, nothing
// is published.
func (s *Slice[T]) DeleteFunc(del func(T) bool) (deleted int) {
	s.v.Update(func(old *[]T) *[]T {
		if old == nil {
			deleted = 0
			return old
		}
		i := slices.IndexFunc(*old, del)
		if i < 0 {
			deleted = 0
			return old
		}
		next := make([]T, i, len(*old)-1)
		copy(next, (*old)[:i])
		for _, e := range (*old)[i+1:] {
			if !del(e) {
				next = append(next, e)
			}
		}
		deleted = len(*old) - len(next)
		return &next
	})
	return deleted
}
