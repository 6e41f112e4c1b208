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

// TestKernelConstants: constants are part of the content key, copied in and
// out, and replace (not merge with) the kernel's.
func TestKernelConstants(t *testing.T) {
	src := "override n: u32 = 1; @compute @workgroup_size(1) fn main() {}"
	k := gpu.NewKernel("k", src, "main")
	in := map[string]float64{"n": 4, "0": 2}
	k4 := k.WithConstants(in)
	in["n"] = 5 // the kernel keeps its copy
	if v, ok := k4.Constant("n"); !ok || v != 4 {
		t.Errorf("Constant(n) = %v, %v, want 4, true", v, ok)
	}
	out := k4.Constants()
	out["n"] = 6
	if v, _ := k4.Constant("n"); v != 4 {
		t.Errorf("Constants() handed out the kernel's map: Constant(n) = %v after a write", v)
	}
	assert.Equal(t, 2, k4.NumConstants())
	assert.NotEqual(t, k.Key(), k4.Key(), "constants are content")
	assert.Equal(t, k4.Key(), k.WithConstants(map[string]float64{"0": 2, "n": 4}).Key(), "map order does not matter")
	assert.NotEqual(t, k4.Key(), k.WithConstants(map[string]float64{"n": 4}).Key())
	assert.NotEqual(t, k.WithConstants(map[string]float64{"n": 1}).Key(), k.WithConstants(map[string]float64{"m": 1}).Key())
	assert.Equal(t, k.Key(), k.WithConstants(nil).Key(), "no constants keys as NewKernel")
	assert.Equal(t, k.Key(), k4.WithConstants(map[string]float64{}).Key(), "WithConstants replaces")
	assert.Nil(t, k.Constants())
	assert.Equal(t, "k", k4.Name())
}

type fakeView struct{}

func (fakeView) Size() uint64                 { return 0 }
func (fakeView) BindingKind() gpu.BindingKind { return gpu.KindTexture }

type fakeBuf struct{}

func (fakeBuf) Size() uint64 { return 64 }

// TestKindOf: a binding without a BindingKind method is a buffer; one with
// it is what it says.
func TestKindOf(t *testing.T) {
	if k := gpu.KindOf(fakeBuf{}); k != gpu.KindBuffer {
		t.Errorf("KindOf(buffer) = %v, want buffer", k)
	}
	if k := gpu.KindOf(fakeView{}); k != gpu.KindTexture {
		t.Errorf("KindOf(view) = %v, want texture", k)
	}
	var b gpu.Buffer = fakeBuf{}
	var bound gpu.Binding = b // the old name is the same interface: no conversion
	if bound.Size() != 64 {
		t.Errorf("Size through gpu.Binding = %d, want 64", bound.Size())
	}
	if s := gpu.BindingKind(9).String(); s != "BindingKind(9)" {
		t.Errorf("BindingKind(9).String() = %q", s)
	}
}
