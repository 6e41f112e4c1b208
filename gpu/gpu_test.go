package gpu_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/streamgate/streamgate/gpu"
)

func TestKernel(t *testing.T) {
	kA := gpu.NewKernel("a", "@compute @workgroup_size(1) fn main() {}", "main")
	kB := gpu.NewKernel("b", "@compute @workgroup_size(2) fn main() {}", "main")
	same := gpu.NewKernel("other name", kA.Source(), "main")
	assert.Equal(t, kA.Key(), same.Key(), "content decides the key, not the name")
	assert.NotEqual(t, kA.Key(), kB.Key())
	assert.NotEqual(t, kA.Key(), gpu.NewKernel("a", kA.Source(), "other").Key())
	assert.Equal(t, "a(main)", kA.String())
	assert.PanicsWithValue(t, "gpu: NewKernel with an empty entry point", func() { gpu.NewKernel("x", "", "") })
}

// TestIDsUnique: one allocator each, never 0, never repeated across
// goroutines.
func TestIDsUnique(t *testing.T) {
	const goroutines, per = 8, 1000
	var mu sync.Mutex
	services := map[gpu.ServiceID]bool{}
	streams := map[gpu.StreamID]bool{}
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				sv, st := gpu.NewServiceID(), gpu.NewStreamID()
				mu.Lock()
				if sv == 0 || services[sv] {
					t.Errorf("NewServiceID() = %d, zero or repeated", sv)
				}
				if st == 0 || streams[st] {
					t.Errorf("NewStreamID() = %d, zero or repeated", st)
				}
				services[sv], streams[st] = true, true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	assert.Len(t, services, goroutines*per)
	assert.Len(t, streams, goroutines*per)
}

// TestKernelMemo: one entry, the last service's; another service's lookup
// misses.
func TestKernelMemo(t *testing.T) {
	k := gpu.NewKernel("m", "@compute @workgroup_size(1) fn main() {}", "main")
	assert.Nil(t, k.Memo(1))
	k.SetMemo(1, "one")
	assert.Equal(t, "one", k.Memo(1))
	assert.Nil(t, k.Memo(2), "another service's lookup misses")
	k.SetMemo(2, "two")
	assert.Equal(t, "two", k.Memo(2))
	assert.Nil(t, k.Memo(1), "one entry: the last one stored")
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = k.Memo(2) }))
}
