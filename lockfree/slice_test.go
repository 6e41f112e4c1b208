package lockfree_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/streamgate/streamgate/lockfree"
)

func TestSlice(t *testing.T) {
	var s lockfree.Slice[int]
	assert.Nil(t, s.Load())
	assert.Zero(t, s.DeleteFunc(func(int) bool { return true }))
	s.Append()
	assert.Zero(t, s.Len())
	s.Append(1, 2, 3)
	snap := s.Load()
	s.Append(4)
	assert.Equal(t, []int{1, 2, 3}, snap, "an earlier snapshot does not change")
	assert.Equal(t, []int{1, 2, 3, 4}, s.Load())
	assert.Equal(t, 2, s.DeleteFunc(func(x int) bool { return x%2 == 0 }))
	assert.Equal(t, []int{1, 3}, s.Load())
	assert.Equal(t, []int{1, 2, 3, 4}, append(snap, 4)[:4])
	assert.Zero(t, s.DeleteFunc(func(x int) bool { return x > 10 }))
	assert.Equal(t, 2, s.Len())
}

func TestSliceConcurrent(t *testing.T) {
	var s lockfree.Slice[int]
	const writers, each = 8, 300
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				s.Append(w*each + i)
				if i%3 == 2 {
					// Delete one of our own: it must be there.
					x := w*each + i - 1
					if n := s.DeleteFunc(func(v int) bool { return v == x }); n != 1 {
						t.Errorf("DeleteFunc(%d) = %d, want 1", x, n)
					}
				}
			}
		}()
	}
	wg.Wait()
	got := slices.Clone(s.Load())
	slices.Sort(got)
	var want []int
	for w := 0; w < writers; w++ {
		for i := 0; i < each; i++ {
			if i%3 != 1 {
				want = append(want, w*each+i)
			}
		}
	}
	assert.Equal(t, want, got)
}
