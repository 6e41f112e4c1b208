package lockfree_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/low/spin"
	"github.com/streamgate/streamgate/lockfree"
)

// counter is a snapshot whose fields must always agree: a reader that sees
// N != Check*3 saw a snapshot that was never published whole.
type counter struct {
	N     int
	Check int
	Log   []int // every writer's id, in publication order
}

func TestValueZero(t *testing.T) {
	var v lockfree.Value[int]
	assert.Nil(t, v.Load())
	x := 1
	old, new := v.Update(func(old *int) *int { return &x })
	assert.Nil(t, old)
	assert.Same(t, &x, new)
	assert.Same(t, &x, v.Load())
}

func TestValueUpdateNoChange(t *testing.T) {
	x := 1
	var v lockfree.Value[int]
	v.Store(&x)
	old, new := v.Update(func(old *int) *int { return old })
	assert.Same(t, &x, old)
	assert.Same(t, &x, new)
}

func TestValueCompareAndSwap(t *testing.T) {
	a, b, c := 1, 2, 3
	var v lockfree.Value[int]
	v.Store(&a)
	assert.False(t, v.CompareAndSwap(&b, &c))
	assert.Same(t, &a, v.Load())
	assert.True(t, v.CompareAndSwap(&a, &b))
	assert.Same(t, &b, v.Load())
	v.Store(&c)
	assert.Same(t, &c, v.Load())
}

// TestValueLosesNoUpdate: many goroutines updating at once; every update
// lands exactly once, and the log holds each writer's increments in order.
func TestValueLosesNoUpdate(t *testing.T) {
	for _, procs := range []int{1, 2, 8} {
		t.Run("", func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			var v lockfree.Value[counter]
			v.Store(&counter{})
			const writers, each = 8, 500
			var retries atomic.Int64
			var wg sync.WaitGroup
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < each; i++ {
						calls := 0
						v.Update(func(old *counter) *counter {
							calls++
							log := make([]int, len(old.Log), len(old.Log)+1)
							copy(log, old.Log)
							return &counter{N: old.N + 3, Check: old.Check + 1, Log: append(log, w)}
						})
						retries.Add(int64(calls - 1))
					}
				}()
			}
			// Readers check every snapshot they see is whole.
			stop := make(chan struct{})
			var rg sync.WaitGroup
			var bad atomic.Int64
			for r := 0; r < 2; r++ {
				rg.Add(1)
				go func() {
					defer rg.Done()
					last := 0
					for {
						select {
						case <-stop:
							return
						default:
						}
						spin.Yield()
						c := v.Load()
						if c.N != c.Check*3 || len(c.Log) != c.Check || c.Check < last {
							bad.Add(1)
						}
						last = c.Check
					}
				}()
			}
			wg.Wait()
			close(stop)
			rg.Wait()
			c := v.Load()
			require.Equal(t, writers*each, c.Check, "updates lost")
			require.Equal(t, 3*writers*each, c.N)
			perWriter := make(map[int]int)
			for _, w := range c.Log {
				perWriter[w]++
			}
			for w := 0; w < writers; w++ {
				assert.Equal(t, each, perWriter[w], "writer %d", w)
			}
			assert.Zero(t, bad.Load(), "readers saw snapshots that were never published or went back in time")
			t.Logf("GOMAXPROCS=%d: %d retries", procs, retries.Load())
		})
	}
}

// brokenValue mutates the snapshot in place instead of publishing a copy: the
// reader check of TestValueLosesNoUpdate must catch it.
func TestReaderCheckCatchesInPlaceMutation(t *testing.T) {
	var v lockfree.Value[counter]
	v.Store(&counter{})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var bad atomic.Int64
	var mu sync.Mutex // keep the race detector quiet: the torn view is the point
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			spin.Yield()
			mu.Lock()
			c := v.Load()
			if c.N != c.Check*3 {
				bad.Add(1)
			}
			mu.Unlock()
		}
	}()
	for i := 0; i < 20000 && bad.Load() == 0; i++ {
		mu.Lock()
		c := v.Load()
		c.N += 3 // in place: a reader may see N bumped before Check
		mu.Unlock()
		runtime.Gosched()
		mu.Lock()
		c.Check++
		mu.Unlock()
	}
	close(stop)
	wg.Wait()
	assert.NotZero(t, bad.Load(), "the reader check never saw the torn snapshot")
}

func TestValueLoadAllocs(t *testing.T) {
	var v lockfree.Value[counter]
	v.Store(&counter{})
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = v.Load() }))
}
