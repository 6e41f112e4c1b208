//go:build cgo

package bench

import (
	"context"
	"strconv"
	"testing"
	"unsafe"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

const (
	// stepBytes is the size of the buffer one Step op uploads, launches on
	// and reads back: 1 MiB.
	stepBytes = 1 << 20
	// stepLaunches is how many launches of the increment kernel one Step
	// op records, each over the whole buffer.
	stepLaunches = 3
)

// stepWorkgroups covers stepBytes of u32s with the kernel's 64-wide
// workgroups.
var stepWorkgroups = [3]uint32{stepBytes / 4 / 64, 1, 1}

// stepCases returns the Step cases: a realistic training-loop
// step of upload stepBytes, stepLaunches launches over the buffer and a
// read-back of stepBytes, through the wgpu device with wgpu.Write and
// wgpu.ReadInto into the caller's slice and pooled staging (impl=device)
// against hand-written go-webgpu with a staging buffer made once and the
// dispatches and the copy in one submit (impl=raw, the baseline). Both
// report buffers/op, the GPU buffers created per step (0 once warm: the
// raw loop makes its two up front, the device its staging buffer in the
// first step). The result of the last step is checked.
func stepCases(e *LaunchEnv) []Case {
	v := strconv.Itoa(stepBytes)
	return []Case{
		{Thing: "Step", Impl: "device", Key: "bytes", Value: v, Baseline: "raw", F: e.stepDevice},
		{Thing: "Step", Impl: "raw", Key: "bytes", Value: v, Baseline: "raw", F: e.stepRaw},
	}
}

// stepInput returns the u32s 0, 1, 2, ... of a step's upload.
func stepInput() []uint32 {
	in := make([]uint32, stepBytes/4)
	for i := range in {
		in[i] = uint32(i)
	}
	return in
}

func checkStep(b *testing.B, out []uint32) {
	for i, v := range out {
		if v != uint32(i)+stepLaunches {
			fatalf(b, "step result [%d] = %d, want %d", i, v, uint32(i)+stepLaunches)
		}
	}
}

func (e *LaunchEnv) stepDevice(b *testing.B) {
	d := e.dev
	x, err := d.NewBuffer(stepBytes, 0)
	if err != nil {
		fatalf(b, "NewBuffer: %v", err)
	}
	defer x.Release()
	id := gpu.NewStreamID()
	defer d.CloseStream(id)
	ctx := context.Background()
	in, out := stepInput(), make([]uint32, stepBytes/4)
	step := func() {
		if err := wgpu.Write(x, 0, in); err != nil {
			fatalf(b, "Write: %v", err)
		}
		for range stepLaunches {
			if err := d.Launch(id, e.kernel, stepWorkgroups, x); err != nil {
				fatalf(b, "Launch: %v", err)
			}
		}
		if err := wgpu.ReadInto(ctx, x, 0, out); err != nil {
			fatalf(b, "ReadInto: %v", err)
		}
	}
	step() // warm: the bind group and the staging buffer
	s0 := d.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.StopTimer()
	s1 := d.Stats()
	created := s1.BuffersCreated - s0.BuffersCreated + s1.StagingCreated - s0.StagingCreated
	b.ReportMetric(float64(created)/float64(b.N), "buffers/op")
	checkStep(b, out)
}

func (e *LaunchEnv) stepRaw(b *testing.B) {
	s, err := e.raw.NewStep(stepBytes)
	if err != nil {
		fatalf(b, "NewStep: %v", err)
	}
	defer s.Release()
	in, out := stepInput(), make([]uint32, stepBytes/4)
	inB := unsafe.Slice((*byte)(unsafe.Pointer(&in[0])), stepBytes) // little-endian hosts, as wgpu.Write
	outB := unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), stepBytes)
	if err := s.Run(inB, outB, stepLaunches, stepWorkgroups); err != nil {
		fatalf(b, "Run: %v", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Run(inB, outB, stepLaunches, stepWorkgroups); err != nil {
			fatalf(b, "Run: %v", err)
		}
	}
	b.StopTimer()
	b.ReportMetric(0, "buffers/op")
	checkStep(b, out)
}
