//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// Both builds' encoders skip a setPipeline or setBindGroup that sets what
// the compute pass has already (the desktop's sg_record_launches, the
// page's run loop in jsrt_js.go), the bind groups compared by index. The
// tests here fail on an encoder that skips one it must not: a bind group
// taken for the one last set by another pipeline, by a graph's replay or
// in an earlier pass.

// skipStep is one step of a sequence: a launch of k binding bufs, or a
// replay of g.
type skipStep struct {
	k    *gpu.Kernel
	bufs []*wgpu.Buffer
	g    *skipGraph
}

// skipGraph is a captured graph and the launches it replays.
type skipGraph struct {
	g     *wgpu.Graph
	steps []skipStep
}

// skipKernels are the kernels of the sequences: inc adds 1 to x[0], add
// adds 100 (inc's layout, another pipeline), two adds 1 to a[0] and 10 to
// b[0] (two groups).
type skipKernels struct{ inc, add, two *gpu.Kernel }

func newSkipKernels() skipKernels {
	return skipKernels{
		inc: gpu.NewKernel("skip-inc", incWGSL, "main"),
		add: gpu.NewKernel("skip-add", strings.Replace(incWGSL, "+ 1u", "+ 100u", 1), "main"),
		two: gpu.NewKernel("skip-two", twoGroupsWGSL, "main"),
	}
}

// adds returns what a launch of k adds to the first u32 of each of its
// buffers.
func (ks skipKernels) adds(k *gpu.Kernel) []uint32 {
	switch k {
	case ks.inc:
		return []uint32{1}
	case ks.add:
		return []uint32{100}
	case ks.two:
		return []uint32{1, 10}
	}
	panic("unknown kernel")
}

// TestSkippedBindGroups runs sequences of launches and replays that an
// encoder skipping a setBindGroup it must not would get wrong, each in one
// batch and with a Flush after every step (a pass each, where nothing set
// in the pass before may be skipped), and checks that every launch wrote
// its own buffers: two kernels of one layout alternating over two
// buffers, the same bind group index set by a kernel of one group and one
// of two, a replay between launches whose bind group the graph's last
// launch replaced, and a replay first in a batch.
func TestSkippedBindGroups(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ks := newSkipKernels()
	for _, k := range []*gpu.Kernel{ks.inc, ks.add, ks.two} {
		if err := d.Compile(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	x, y, z := mustBuffer(t, d, 16), mustBuffer(t, d, 16), mustBuffer(t, d, 16)
	names := map[*wgpu.Buffer]string{x: "x", y: "y", z: "z"}
	s := gpu.NewStreamID()
	graph := func(steps ...skipStep) *skipGraph {
		t.Helper()
		r, err := d.NewGraphRecorder(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			if err := r.Launch(st.k, [3]uint32{1, 1, 1}, buffers(st.bufs)...); err != nil {
				t.Fatal(err)
			}
		}
		g, err := r.FinishGraph()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(g.Release)
		return &skipGraph{g, steps}
	}
	l := func(k *gpu.Kernel, bufs ...*wgpu.Buffer) skipStep { return skipStep{k: k, bufs: bufs} }
	addX, incYaddX := graph(l(ks.add, x)), graph(l(ks.inc, y), l(ks.add, x))
	twoXY := graph(l(ks.two, x, y))
	seqs := []struct {
		name  string
		steps []skipStep
	}{
		{"two-kernels-alternating", []skipStep{
			l(ks.inc, x), l(ks.inc, y), l(ks.add, y), l(ks.add, x), l(ks.inc, x), l(ks.add, x), l(ks.inc, y), l(ks.add, y),
		}},
		{"one-group-and-two", []skipStep{
			l(ks.two, x, y), l(ks.inc, z), l(ks.two, x, y), l(ks.inc, x), l(ks.two, z, x), l(ks.two, z, x), l(ks.inc, z), l(ks.inc, y),
		}},
		{"replay-replaces-the-bind-group", []skipStep{
			l(ks.add, y), {g: addX}, l(ks.add, y), {g: incYaddX}, l(ks.add, y), l(ks.inc, y), {g: incYaddX}, l(ks.inc, y),
		}},
		{"replay-after-a-launch-of-its-bind-group", []skipStep{
			l(ks.add, x), {g: addX}, {g: addX}, l(ks.add, x), l(ks.two, x, y), {g: twoXY}, l(ks.inc, x),
		}},
		{"replay-first", []skipStep{
			{g: twoXY}, l(ks.two, x, y), l(ks.inc, z), {g: twoXY}, l(ks.inc, z),
		}},
	}
	for _, seq := range seqs {
		for _, flushEach := range []bool{false, true} {
			name := seq.name + "/one-batch"
			if flushEach {
				name = seq.name + "/flush-each"
			}
			t.Run(name, func(t *testing.T) {
				before := map[*wgpu.Buffer]uint32{x: readU32(t, x, 1)[0], y: readU32(t, y, 1)[0], z: readU32(t, z, 1)[0]}
				want := maps.Clone(before)
				for i, st := range seq.steps {
					var err error
					if st.g != nil {
						err = st.g.g.Replay()
						for _, gs := range st.g.steps {
							for j, b := range gs.bufs {
								want[b] += ks.adds(gs.k)[j]
							}
						}
					} else {
						err = d.Launch(s, st.k, [3]uint32{1, 1, 1}, buffers(st.bufs)...)
						for j, b := range st.bufs {
							want[b] += ks.adds(st.k)[j]
						}
					}
					if err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					if flushEach {
						if err := d.Flush(s); err != nil {
							t.Fatalf("Flush after step %d: %v", i, err)
						}
					}
				}
				if err := d.Sync(ctx, s); err != nil {
					t.Fatalf("Sync = %v", err)
				}
				for _, b := range []*wgpu.Buffer{x, y, z} {
					if got := readU32(t, b, 1)[0]; got != want[b] {
						t.Errorf("%s[0] = %d, want %d (%d before): a launch ran on another's bind group", names[b], got, want[b], before[b])
					}
				}
			})
		}
	}
}

func buffers(bs []*wgpu.Buffer) []gpu.Buffer {
	out := make([]gpu.Buffer, len(bs))
	for i, b := range bs {
		out[i] = b
	}
	return out
}

// TestSkippedBindGroupsAfterARejectedBatch: a batch the driver rejects
// (Launch's checks off, a binding too small) whose last launches bind x,
// then a batch whose first launch binds x again. On the desktop the
// rejected batch is encoded again without its bad launch, and in the
// browser it is lost whole; either way the next batch is a pass of its
// own, in which x's bind group must be set, and its launch runs.
func TestSkippedBindGroupsAfterARejectedBatch(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	wgpu.SkipLaunchChecks(d)
	ks := newSkipKernels()
	bad := gpu.NewKernel("skip-bad", countWGSL, "main")
	x, y, c := mustBuffer(t, d, 16), mustBuffer(t, d, 16), mustBuffer(t, d, 4)
	s := gpu.NewStreamID()
	launch := func(k *gpu.Kernel, bufs ...gpu.Buffer) {
		t.Helper()
		if err := d.Launch(s, k, [3]uint32{1, 1, 1}, bufs...); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []*gpu.Kernel{ks.inc, bad} {
		if err := d.Compile(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	launch(ks.inc, x)
	launch(ks.inc, y)
	launch(ks.inc, x)
	launch(bad, c, mustBuffer(t, d, 4)) // binding 1 needs 256 bytes
	launch(ks.inc, y)
	launch(ks.inc, x)
	launch(ks.inc, x)
	if err := d.Sync(ctx, s); err == nil {
		t.Fatal("Sync = nil after a batch with a launch the driver rejects")
	}
	wantX, wantY := uint32(4), uint32(2) // the desktop: the good launches ran once
	if d.Info().Backend == wgpu.BackendBrowser {
		wantX, wantY = 0, 0 // the browser: the batch is lost
	}
	if got := readU32(t, x, 1)[0]; got != wantX {
		t.Fatalf("after the rejected batch x[0] = %d, want %d", got, wantX)
	}
	if got := readU32(t, y, 1)[0]; got != wantY {
		t.Fatalf("after the rejected batch y[0] = %d, want %d", got, wantY)
	}
	launch(ks.inc, x)
	launch(ks.inc, x)
	launch(ks.inc, y)
	if err := d.Sync(ctx, s); err != nil {
		t.Fatalf("Sync of the next batch = %v", err)
	}
	if got := readU32(t, x, 1)[0]; got != wantX+2 {
		t.Errorf("x[0] = %d, want %d: a launch of the batch after the rejected one did not run", got, wantX+2)
	}
	if got := readU32(t, y, 1)[0]; got != wantY+1 {
		t.Errorf("y[0] = %d, want %d", got, wantY+1)
	}
}

// TestDispatchDimensions: a launch's workgroup counts reach the dispatch
// whatever they are, for a kernel of one group and one of two (their
// commands differ in the page, which passes x alone when y and z are 1).
func TestDispatchDimensions(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	one := gpu.NewKernel("dims-one", `
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@compute @workgroup_size(1)
fn main() { atomicAdd(&c[0], 1u); }`, "main")
	two := gpu.NewKernel("dims-two", `
@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;
@group(1) @binding(0) var<storage, read_write> e: array<atomic<u32>>;
@compute @workgroup_size(1)
fn main() { atomicAdd(&c[0], 1u); atomicAdd(&e[0], 1u); }`, "main")
	c, e := mustBuffer(t, d, 16), mustBuffer(t, d, 16)
	s := gpu.NewStreamID()
	want := uint32(0)
	for _, wg := range [][3]uint32{{1, 1, 1}, {3, 1, 1}, {1, 2, 1}, {1, 1, 3}, {2, 3, 4}, {1, 1, 1}, {5, 1, 1}} {
		for _, k := range []*gpu.Kernel{one, two, one} {
			bufs := []gpu.Buffer{c}
			if k == two {
				bufs = append(bufs, e)
			}
			if err := d.Launch(s, k, wg, bufs...); err != nil {
				t.Fatal(err)
			}
			want += wg[0] * wg[1] * wg[2]
		}
	}
	if err := d.Sync(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got := readU32(t, c, 1)[0]; got != want {
		t.Errorf("invocations = %d, want %d", got, want)
	}
}
