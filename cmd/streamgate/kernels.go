//go:build cgo

package main

import (
	"context"
	"fmt"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/kernels"
	"github.com/streamgate/streamgate/internal/workload/scratch"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// The warmup workload's kernels are the workloads' one copy, in
// internal/workload/kernels: the matmul is the decoder's, out = a·w + bias,
// run here with a zero bias. A kernel's variants (tile, workgroup size,
// workgroup count) are one source and the values of its override constants,
// set with [gpu.Kernel.WithConstants]; each set of values compiles to its
// own pipeline. Every kernel takes its sizes from a uniform vec4<u32>, so
// one pipeline serves every shape.

// maxPartials is the most partial sums a reduce candidate writes: the size
// of the partial buffer.
const maxPartials = 256

// op is one tunable operation of the step: the tune op (key, candidates,
// and the fresh buffers it is measured on) and the step's own buffers, which
// only the real run touches.
type op struct {
	name    string
	tune    tune.Op
	args    []gpu.Buffer  // the step's buffers, in binding order
	kernels []*gpu.Kernel // the candidates' kernels, each once
}

// newInputs returns an Op.NewInputs that makes buffers for the
// measurements: a uniform holding dims (the sizes the kernels read), then a
// zeroed buffer the size and usage of each of storage. A measurement then
// does the real step's work without touching the step's data.
func (w *workload) newInputs(dims []uint32, storage ...*wgpu.Buffer) func(context.Context) ([]gpu.Buffer, func(), error) {
	return scratch.Inputs(w.d, func(s *scratch.Buffers) error {
		u, err := s.New(uint64(4*len(dims)), wgpu.BufferUsageUniform|wgpu.BufferUsageCopyDst)
		if err != nil {
			return err
		}
		if err := wgpu.Write(u, 0, dims); err != nil {
			return err
		}
		for _, a := range storage {
			if _, err := s.New(a.Size(), a.Usage()); err != nil {
				return err
			}
		}
		return nil
	})
}

// workload is the warmup demo's GPU state: the buffers of one step and the
// ops that run on them. Its candidates launch through whatever client the
// tuner hands them.
type workload struct {
	shape
	d                              *wgpu.Device
	a, b, bias, c, s, partial, out *wgpu.Buffer // bias: N zeros, the matmul's
	mmDims, smDims, sumDims        *wgpu.Buffer
	ops                            []op // in step order: matmul, softmax, reduce
	kernels                        int  // distinct kernels over all candidates
}

// newWorkload allocates the step's buffers on d, uploads A and B (random
// from seed) and builds the ops. It returns A and B for the CPU check.
func newWorkload(d *wgpu.Device, sh shape, seed uint64) (w *workload, a, b []float32, err error) {
	if sh.M < 1 || sh.N < 1 || sh.K < 1 {
		return nil, nil, nil, fmt.Errorf("sizes must be positive, got m=%d n=%d k=%d", sh.M, sh.N, sh.K)
	}
	if lim := int(d.Limits().MaxComputeWorkgroupsPerDimension); sh.M > lim {
		return nil, nil, nil, fmt.Errorf("m=%d exceeds the device's maxComputeWorkgroupsPerDimension %d (softmax runs a workgroup per row)", sh.M, lim)
	}
	if uint64(sh.M)*uint64(sh.N) > 1<<31 || uint64(sh.M)*uint64(sh.K) > 1<<31 || uint64(sh.K)*uint64(sh.N) > 1<<31 {
		return nil, nil, nil, fmt.Errorf("sizes m=%d n=%d k=%d are too large (2^31 elements per matrix at most)", sh.M, sh.N, sh.K)
	}
	w = &workload{shape: sh, d: d}
	var bufs []*wgpu.Buffer
	newBuf := func(elems int, usage wgpu.BufferUsage) *wgpu.Buffer {
		if err != nil {
			return nil
		}
		var buf *wgpu.Buffer
		buf, err = d.NewBuffer(uint64(4*elems), usage)
		bufs = append(bufs, buf)
		return buf
	}
	const uniform = wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst
	w.a = newBuf(sh.M*sh.K, 0)
	w.b = newBuf(sh.K*sh.N, 0)
	w.bias = newBuf(sh.N, 0) // zeroed: the shared matmul adds it
	w.c = newBuf(sh.M*sh.N, 0)
	w.s = newBuf(sh.M*sh.N, 0)
	w.partial = newBuf(maxPartials, 0)
	w.out = newBuf(1, 0)
	w.mmDims = newBuf(4, uniform)
	w.smDims = newBuf(4, uniform)
	w.sumDims = newBuf(4, uniform)
	if err != nil {
		for _, buf := range bufs {
			if buf != nil {
				buf.Release()
			}
		}
		return nil, nil, nil, err
	}
	a = randomMatrix(sh.M, sh.K, seed)
	b = randomMatrix(sh.K, sh.N, seed+1)
	for _, up := range []struct {
		buf *wgpu.Buffer
		f   []float32
		u   []uint32
	}{
		{buf: w.a, f: a},
		{buf: w.b, f: b},
		{buf: w.mmDims, u: w.mmDimsData()},
		{buf: w.smDims, u: w.smDimsData()},
		{buf: w.sumDims, u: w.sumDimsData()},
	} {
		if up.f != nil {
			err = wgpu.Write(up.buf, 0, up.f)
		} else {
			err = wgpu.Write(up.buf, 0, up.u)
		}
		if err != nil {
			w.release()
			return nil, nil, nil, err
		}
	}
	w.ops = []op{w.matmulOp(), w.softmaxOp(), w.reduceOp()}
	for _, o := range w.ops {
		w.kernels += len(o.kernels)
	}
	return w, a, b, nil
}

// The contents of the uniforms: each kernel's sizes.
func (w *workload) mmDimsData() []uint32  { return []uint32{uint32(w.M), uint32(w.N), uint32(w.K), 0} }
func (w *workload) smDimsData() []uint32  { return []uint32{uint32(w.M), uint32(w.N), 0, 0} }
func (w *workload) sumDimsData() []uint32 { return []uint32{uint32(w.M * w.N), 0, 0, 0} }

// release releases the workload's buffers.
func (w *workload) release() {
	for _, buf := range []*wgpu.Buffer{w.a, w.b, w.bias, w.c, w.s, w.partial, w.out, w.mmDims, w.smDims, w.sumDims} {
		if buf != nil {
			buf.Release()
		}
	}
}

// matmulOp: C = A·B (+ a zero bias); naive and shared-memory tiled, 8×8
// and 16×16.
func (w *workload) matmulOp() op {
	o := op{name: "matmul", args: []gpu.Buffer{w.mmDims, w.a, w.b, w.bias, w.c}}
	o.tune = tune.Op{Key: "matmul/" + w.class(w.M, w.N, w.K), NewInputs: w.newInputs(w.mmDimsData(), w.a, w.b, w.bias, w.c)}
	for _, v := range []struct {
		name  string
		src   string
		tile  int
		tiled bool
	}{
		{"naive-8x8", kernels.MatmulNaive, 8, false},
		{"naive-16x16", kernels.MatmulNaive, 16, false},
		{"tiled-8", kernels.MatmulTiled, 8, true},
		{"tiled-16", kernels.MatmulTiled, 16, true},
	} {
		k := gpu.NewKernel("matmul/"+v.name, v.src, "main").WithConstants(map[string]float64{"T": float64(v.tile)})
		wg := [3]uint32{ceilDiv(w.N, v.tile), ceilDiv(w.M, v.tile), 1}
		o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: v.name, Kernels: []*gpu.Kernel{k}, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
			return c.Launch(k, wg, in...) // dims, a, b, bias, c
		}})
		o.kernels = append(o.kernels, k)
	}
	return o
}

// softmaxOp: S = softmax of each row of C; a thread per row, or a workgroup
// per row of 64 or 256 invocations.
func (w *workload) softmaxOp() op {
	o := op{name: "softmax", args: []gpu.Buffer{w.smDims, w.c, w.s}}
	o.tune = tune.Op{Key: "softmax/" + w.class(w.M, w.N), NewInputs: w.newInputs(w.smDimsData(), w.c, w.s)}
	const rowWG = 64 // rows per workgroup
	rowK := gpu.NewKernel("softmax/thread-per-row", kernels.SoftmaxRow, "main").WithConstants(map[string]float64{"W": rowWG})
	o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: "thread-per-row", Kernels: []*gpu.Kernel{rowK}, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
		return c.Launch(rowK, [3]uint32{ceilDiv(w.M, rowWG), 1, 1}, in...) // dims, x, y
	}})
	o.kernels = append(o.kernels, rowK)
	for _, wgSize := range []int{64, 256} {
		name := fmt.Sprintf("group-per-row-%d", wgSize)
		k := gpu.NewKernel("softmax/"+name, kernels.SoftmaxGroup, "main").WithConstants(map[string]float64{"W": float64(wgSize)})
		o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: name, Kernels: []*gpu.Kernel{k}, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
			return c.Launch(k, [3]uint32{uint32(w.M), 1, 1}, in...) // dims, x, y
		}})
		o.kernels = append(o.kernels, k)
	}
	return o
}

// reduceOp: out[0] = the sum of every element of S, in two passes, with
// several workgroup sizes and counts.
func (w *workload) reduceOp() op {
	o := op{name: "reduce", args: []gpu.Buffer{w.sumDims, w.s, w.partial, w.out}}
	o.tune = tune.Op{Key: "reduce/" + w.class(w.M*w.N), NewInputs: w.newInputs(w.sumDimsData(), w.s, w.partial, w.out)}
	for _, v := range []struct{ wg, groups int }{{64, 64}, {256, 64}, {256, 256}} {
		name := fmt.Sprintf("2pass-wg%d-g%d", v.wg, v.groups)
		consts := map[string]float64{"W": float64(v.wg), "G": float64(v.groups)}
		partials := gpu.NewKernel("reduce/"+name+"/partials", kernels.Reduce, "partials").WithConstants(consts)
		total := gpu.NewKernel("reduce/"+name+"/total", kernels.Reduce, "total").WithConstants(consts)
		groups := uint32(v.groups)
		o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: name, Kernels: []*gpu.Kernel{partials, total}, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
			// in: dims, x, partial, out. A launch binds the buffers its
			// entry point uses, in binding order: partials reads dims and
			// x and writes partial; total reads partial and writes out.
			if err := c.Launch(partials, [3]uint32{groups, 1, 1}, in[:3]...); err != nil {
				return err
			}
			return c.Launch(total, [3]uint32{1, 1, 1}, in[2:]...)
		}})
		o.kernels = append(o.kernels, partials, total)
	}
	return o
}

// step runs the program's step once: each op through tu, which picks its
// kernel (tuning it first, on fresh buffers, if the key is undecided) and
// launches it on the step's buffers through the tuner's client. It returns
// each op's Result, whose Ran names the candidate that ran. Once ctx has
// ended (Ctrl-C) it stops before the next op, with errInterrupted and the
// results so far; an op's tune once started finishes.
func (w *workload) step(ctx context.Context, tu *tune.Tuner) ([]*tune.Result, error) {
	ran := make([]*tune.Result, len(w.ops))
	work := context.WithoutCancel(ctx) // a tune once started finishes
	for i, o := range w.ops {
		if ctx.Err() != nil {
			return ran[:i], errInterrupted
		}
		res, err := tu.Run(work, o.tune, o.args...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
		ran[i] = res
	}
	return ran, nil
}
