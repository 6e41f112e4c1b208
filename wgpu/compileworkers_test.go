//go:build cgo

package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// distinctKernels returns n kernels of distinct sources (each adds its own
// constant), so that no cache hits between them.
func distinctKernels(tag string, n int) []*gpu.Kernel {
	ks := make([]*gpu.Kernel, n)
	for i := range ks {
		src := strings.Replace(incWGSL, "+ 1u;", fmt.Sprintf("+ %du; // %s", i+1, tag), 1)
		ks[i] = gpu.NewKernel(fmt.Sprintf("%s-%d", tag, i), src, "main")
	}
	return ks
}

// TestPrecompileOnWorkers: Precompile on 1 and on 4 workers compiles
// the same kernels, returns the same errors in the same order and counts
// the same compiles.
func TestPrecompileOnWorkers(t *testing.T) {
	type outcome struct {
		err      string
		compiles int64
		cached   int
		compiled []bool
	}
	run := func(workers int) outcome {
		d := openTestDevice(t, wgpu.Options{CompileWorkers: workers})
		if got := d.CompileWorkers(); got != workers {
			t.Errorf("CompileWorkers() = %d, want %d", got, workers)
		}
		ks := distinctKernels("w", 6)
		ks = append(ks[:3:3], append([]*gpu.Kernel{
			gpu.NewKernel("bad1", "fn main( {", "main"),
			nil,
			ks[0], // the same kernel twice
			gpu.NewKernel("same-content", ks[1].Source(), "main"),
			gpu.NewKernel("bad2", incWGSL, "missing"),
		}, ks[3:]...)...)
		err := d.Precompile(context.Background(), ks)
		var o outcome
		if err != nil {
			o.err = err.Error()
		}
		st := d.Stats()
		o.compiles, o.cached = st.Compiles, st.PipelinesCached
		for _, k := range ks {
			o.compiled = append(o.compiled, d.Compiled(k))
		}
		return o
	}
	one, four := run(1), run(4)
	if one.err != four.err {
		t.Errorf("Precompile error with 1 worker:\n%s\nwith 4:\n%s", one.err, four.err)
	}
	if !strings.Contains(one.err, "bad1(main)") || strings.Index(one.err, "bad1") > strings.Index(one.err, "kernel 4 is nil") ||
		strings.Index(one.err, "kernel 4 is nil") > strings.Index(one.err, "bad2") {
		t.Errorf("Precompile error %q: want bad1, the nil kernel and bad2, in that order", one.err)
	}
	if one.compiles != four.compiles || one.cached != four.cached {
		t.Errorf("compiles, pipelines cached: %d, %d with 1 worker; %d, %d with 4", one.compiles, one.cached, four.compiles, four.cached)
	}
	if one.cached != 6 {
		t.Errorf("PipelinesCached = %d, want 6", one.cached)
	}
	if fmt.Sprint(one.compiled) != fmt.Sprint(four.compiled) {
		t.Errorf("Compiled: %v with 1 worker, %v with 4", one.compiled, four.compiled)
	}
}

// TestPrecompileCanceledMidway: a context canceled in the middle of a
// batch stops it; what compiled is cached whole, the rest is not compiled
// and not cached, and a later Precompile compiles only those.
func TestPrecompileCanceledMidway(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			d := openTestDevice(t, wgpu.Options{CompileWorkers: workers})
			ks := distinctKernels(fmt.Sprintf("cancel%d", workers), 24)
			ctx, cancel := context.WithCancel(context.Background())
			// Cancel once the batch is under way: the kernel launched
			// first is the hook.
			stop := make(chan struct{})
			go func() {
				defer close(stop)
				for !d.Compiled(ks[0]) && !d.Compiled(ks[1]) {
					runtime.Gosched()
					if ctx.Err() != nil {
						return
					}
				}
				cancel()
			}()
			err := d.Precompile(ctx, ks)
			cancel()
			<-stop
			st := d.Stats()
			n := 0
			for _, k := range ks {
				if d.Compiled(k) {
					n++
				}
			}
			if n < len(ks) && !errors.Is(err, context.Canceled) {
				t.Errorf("Precompile = %v with %d of %d compiled, want context.Canceled", err, n, len(ks))
			}
			if st.PipelinesCached != n || st.Compiles != int64(n) {
				t.Errorf("after a canceled batch: %d compiled, %d pipelines cached, %d compiles: want them equal (nothing half-built)", n, st.PipelinesCached, st.Compiles)
			}
			if err := d.Precompile(context.Background(), ks); err != nil {
				t.Fatalf("Precompile after the cancel = %v", err)
			}
			if st := d.Stats(); st.Compiles != int64(len(ks)) || st.PipelinesCached != len(ks) {
				t.Errorf("after the second batch: %d compiles, %d cached, want %d each", st.Compiles, st.PipelinesCached, len(ks))
			}
		})
	}
}

// TestPrecompileRacingBatches: batches racing on the same kernels (and
// kernels of the same content) compile each once.
func TestPrecompileRacingBatches(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{CompileWorkers: 3})
	ks := distinctKernels("race", 12)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		batch := ks
		if g%2 == 1 { // other kernels of the same contents, in reverse
			batch = make([]*gpu.Kernel, len(ks))
			for i, k := range ks {
				batch[len(ks)-1-i] = gpu.NewKernel(fmt.Sprintf("copy%d-%d", g, i), k.Source(), "main")
			}
		}
		wg.Go(func() { errs[g] = d.Precompile(context.Background(), batch) })
	}
	wg.Wait()
	for g, err := range errs {
		if err != nil {
			t.Errorf("Precompile %d = %v", g, err)
		}
	}
	if st := d.Stats(); st.Compiles != int64(len(ks)) {
		t.Errorf("Compiles = %d after 4 racing batches of %d kernels, want %d (each once)", st.Compiles, len(ks), len(ks))
	}
}

// TestCaptureReportsCompileErrors: a capture, whose compiles finish in the
// background, fails each launch with the error Device.Launch returns, at
// the same launch, and the graph it finishes replays what it captured.
func TestCaptureReportsCompileErrors(t *testing.T) {
	const n = 64
	type step struct {
		k    *gpu.Kernel
		bufs int
	}
	ks := distinctKernels("capture", 4)
	steps := []step{
		{ks[0], 1},
		{gpu.NewKernel("bad", "fn main( {", "main"), 1},
		{ks[1], 2}, // a buffer too many
		{gpu.NewKernel("entry", ks[2].Source(), "nope"), 1}, // no such entry point
		{ks[2], 1},
		{ks[3], 1},
		{ks[0], 1},
	}
	launchErrs := func(launch func(k *gpu.Kernel, bs ...gpu.Buffer) error, x gpu.Buffer) []string {
		var out []string
		for _, s := range steps {
			bs := []gpu.Buffer{x, x}[:s.bufs]
			err := launch(s.k, bs...)
			out = append(out, fmt.Sprint(err))
		}
		return out
	}
	wg := [3]uint32{1, 1, 1}

	d1 := openTestDevice(t)
	x1 := mustBuffer(t, d1, 4*n)
	want := launchErrs(func(k *gpu.Kernel, bs ...gpu.Buffer) error { return d1.Launch(1, k, wg, bs...) }, x1)
	if err := d1.Sync(context.Background(), 1); err != nil {
		t.Fatal(err)
	}

	d2 := openTestDevice(t, wgpu.Options{CompileWorkers: 4})
	x2 := mustBuffer(t, d2, 4*n)
	r, err := d2.NewGraphRecorder(1)
	if err != nil {
		t.Fatal(err)
	}
	got := launchErrs(func(k *gpu.Kernel, bs ...gpu.Buffer) error {
		return r.Launch(k, wg, bs...)
	}, x2)
	for i := range want {
		if got[i] != strings.ReplaceAll(want[i], "Launch", "Capture") && got[i] != want[i] {
			t.Errorf("launch %d: capture's error %q, Launch's %q", i, got[i], want[i])
		}
	}
	g, err := r.FinishGraph()
	if err != nil {
		t.Fatalf("Finish = %v", err)
	}
	if g.Len() != 4 {
		t.Fatalf("graph of %d launches, want 4", g.Len())
	}
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	if err := d2.Sync(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	// The replay added 1 + 3 + 4 + 1 and the direct launches the same.
	allEqual(t, "x after the replay", readU32(t, x2, n), 9)
	allEqual(t, "x after the launches", readU32(t, x1, n), 9)
	if a, b := d1.Stats().Compiles, d2.Stats().Compiles; a != b {
		t.Errorf("Compiles: %d by the launches, %d by the capture", a, b)
	}
}

// TestCloseWithCompilesRunning: Close while the driver halves of
// compiles run in the background leaves no wgpu object behind.
func TestCloseWithCompilesRunning(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{CompileWorkers: 2})
	for _, k := range distinctKernels("close", 8) {
		if err := d.CompileAsync(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	r, err := wgpu.CloseWithReport(d)
	if err != nil {
		t.Fatal(err)
	}
	if r.ComputePipelines.Occupied != 0 || r.PipelineLayouts.Occupied != 0 || r.BindGroupLayouts.Occupied != 0 ||
		r.BindGroups.Occupied != 0 || r.ShaderModules.Occupied != 0 {
		t.Errorf("after Close with compiles running: %+v, want nothing live", r)
	}
}
