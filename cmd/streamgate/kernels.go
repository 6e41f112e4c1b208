//go:build cgo

package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// The kernels of the warmup workload. Each is a template: $NAME is replaced
// by a constant (tile, workgroup size) before it compiles, since the wgpu
// service does not support override constants. Every kernel takes its
// sizes from a uniform vec4<u32>, so one pipeline serves every shape.

// matmulNaiveWGSL: one invocation per element of C, a $T×$T workgroup.
const matmulNaiveWGSL = `
@group(0) @binding(0) var<uniform> dims: vec4<u32>; // M, N, K
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

@compute @workgroup_size($T, $T)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let m = dims.x;
	let n = dims.y;
	let k = dims.z;
	let row = gid.y;
	let col = gid.x;
	if (row >= m || col >= n) {
		return;
	}
	var acc: f32 = 0.0;
	for (var p: u32 = 0u; p < k; p = p + 1u) {
		acc = acc + a[row * k + p] * b[p * n + col];
	}
	c[row * n + col] = acc;
}
`

// matmulTiledWGSL: a $T×$T workgroup computes a $T×$T block of C, staging
// $T×$T tiles of A and B in workgroup memory.
const matmulTiledWGSL = `
@group(0) @binding(0) var<uniform> dims: vec4<u32>; // M, N, K
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

var<workgroup> ta: array<f32, $TT>;
var<workgroup> tb: array<f32, $TT>;

@compute @workgroup_size($T, $T)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	let m = dims.x;
	let n = dims.y;
	let k = dims.z;
	let row = wid.y * $Tu + lid.y;
	let col = wid.x * $Tu + lid.x;
	let at = lid.y * $Tu + lid.x;
	var acc: f32 = 0.0;
	let tiles = (k + $Tu - 1u) / $Tu;
	for (var t: u32 = 0u; t < tiles; t = t + 1u) {
		let ak = t * $Tu + lid.x;
		if (row < m && ak < k) {
			ta[at] = a[row * k + ak];
		} else {
			ta[at] = 0.0;
		}
		let bk = t * $Tu + lid.y;
		if (bk < k && col < n) {
			tb[at] = b[bk * n + col];
		} else {
			tb[at] = 0.0;
		}
		workgroupBarrier();
		for (var p: u32 = 0u; p < $Tu; p = p + 1u) {
			acc = acc + ta[lid.y * $Tu + p] * tb[p * $Tu + lid.x];
		}
		workgroupBarrier();
	}
	if (row < m && col < n) {
		c[row * n + col] = acc;
	}
}
`

// softmaxRowWGSL: one invocation per row, $W rows per workgroup.
const softmaxRowWGSL = `
@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, cols
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size($W)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let rows = dims.x;
	let cols = dims.y;
	let r = gid.x;
	if (r >= rows) {
		return;
	}
	let base = r * cols;
	var mx: f32 = x[base];
	for (var j: u32 = 1u; j < cols; j = j + 1u) {
		mx = max(mx, x[base + j]);
	}
	var sum: f32 = 0.0;
	for (var j: u32 = 0u; j < cols; j = j + 1u) {
		let e = exp(x[base + j] - mx);
		y[base + j] = e;
		sum = sum + e;
	}
	let inv = 1.0 / sum;
	for (var j: u32 = 0u; j < cols; j = j + 1u) {
		y[base + j] = y[base + j] * inv;
	}
}
`

// softmaxGroupWGSL: one workgroup of $W invocations per row; the row's max
// and sum are tree reductions in workgroup memory.
const softmaxGroupWGSL = `
@group(0) @binding(0) var<uniform> dims: vec4<u32>; // rows, cols
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

var<workgroup> red: array<f32, $W>;

@compute @workgroup_size($W)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	let cols = dims.y;
	let base = wid.x * cols;
	let t = lid.x;
	var mx: f32 = -3.4e38;
	for (var j: u32 = t; j < cols; j = j + $Wu) {
		mx = max(mx, x[base + j]);
	}
	red[t] = mx;
	workgroupBarrier();
	for (var s: u32 = $Wu / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			red[t] = max(red[t], red[t + s]);
		}
		workgroupBarrier();
	}
	let rowMax = red[0];
	workgroupBarrier();
	var sum: f32 = 0.0;
	for (var j: u32 = t; j < cols; j = j + $Wu) {
		let e = exp(x[base + j] - rowMax);
		y[base + j] = e;
		sum = sum + e;
	}
	red[t] = sum;
	workgroupBarrier();
	for (var s: u32 = $Wu / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			red[t] = red[t] + red[t + s];
		}
		workgroupBarrier();
	}
	let inv = 1.0 / red[0];
	for (var j: u32 = t; j < cols; j = j + $Wu) {
		y[base + j] = y[base + j] * inv;
	}
}
`

// reduceWGSL: a two-pass sum. Pass "partials": $G workgroups of $W
// invocations each sum a grid-strided share of x into partial[group].
// Pass "total": one workgroup sums the $G partials into out[0].
const reduceWGSL = `
@group(0) @binding(0) var<uniform> dims: vec4<u32>; // len
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> partial: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

var<workgroup> red: array<f32, $W>;

fn reduceGroup(t: u32) {
	workgroupBarrier();
	for (var s: u32 = $Wu / 2u; s > 0u; s = s / 2u) {
		if (t < s) {
			red[t] = red[t] + red[t + s];
		}
		workgroupBarrier();
	}
}

@compute @workgroup_size($W)
fn partials(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
	let n = dims.x;
	let t = lid.x;
	var sum: f32 = 0.0;
	for (var i: u32 = wid.x * $Wu + t; i < n; i = i + $GWu) {
		sum = sum + x[i];
	}
	red[t] = sum;
	reduceGroup(t);
	if (t == 0u) {
		partial[wid.x] = red[0];
	}
}

@compute @workgroup_size($W)
fn total(@builtin(local_invocation_id) lid: vec3<u32>) {
	let t = lid.x;
	var sum: f32 = 0.0;
	for (var i: u32 = t; i < $Gu; i = i + $Wu) {
		sum = sum + partial[i];
	}
	red[t] = sum;
	reduceGroup(t);
	if (t == 0u) {
		out[0] = red[0];
	}
}
`

// expand replaces each $NAME in src by its value (longest names first, so
// $TT is not read as $T followed by T).
func expand(src string, vars map[string]int) string {
	var pairs []string
	for _, name := range []string{"GW", "TT", "G", "T", "W"} {
		if v, ok := vars[name]; ok {
			pairs = append(pairs, "$"+name+"u", strconv.Itoa(v)+"u", "$"+name, strconv.Itoa(v))
		}
	}
	return strings.NewReplacer(pairs...).Replace(src)
}

// maxPartials is the most partial sums a reduce candidate writes: the size
// of the partial buffer.
const maxPartials = 256

// op is one tunable operation of the step: the tune op (key, candidates,
// and the fresh buffers it is measured on) and the step's own buffers, which
// only the real run touches.
type op struct {
	name    string
	tune    tune.Op
	args    []gpu.Buffer // the step's buffers, in binding order
	kernels int          // distinct kernels over the candidates
}

// newInputs returns an Op.NewInputs that makes buffers for the
// measurements: a uniform holding dims (the sizes the kernels read), then a
// zeroed buffer the size and usage of each of storage. A measurement then
// does the real step's work without touching the step's data.
func (w *workload) newInputs(dims []uint32, storage ...*wgpu.Buffer) func(context.Context) ([]gpu.Buffer, func(), error) {
	return func(context.Context) (_ []gpu.Buffer, _ func(), err error) {
		var made []*wgpu.Buffer
		release := func() {
			for _, b := range made {
				b.Release()
			}
		}
		defer func() {
			if err != nil {
				release()
			}
		}()
		u, err := w.d.NewBuffer(uint64(4*len(dims)), wgpu.BufferUsageUniform|wgpu.BufferUsageCopyDst)
		if err != nil {
			return nil, nil, err
		}
		made = append(made, u)
		if err := u.WriteUint32(dims); err != nil {
			return nil, nil, err
		}
		in := []gpu.Buffer{u}
		for _, a := range storage {
			b, err := w.d.NewBuffer(a.Size(), a.Usage())
			if err != nil {
				return nil, nil, err
			}
			made = append(made, b)
			in = append(in, b)
		}
		return in, release, nil
	}
}

// workload is the warmup demo's GPU state: the buffers of one step and the
// ops that run on them. Its candidates launch through whatever client the
// tuner hands them.
type workload struct {
	shape
	d                        *wgpu.Device
	a, b, c, s, partial, out *wgpu.Buffer
	mmDims, smDims, sumDims  *wgpu.Buffer
	ops                      []op // in step order: matmul, softmax, reduce
	kernels                  int  // distinct kernels over all candidates
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
			err = up.buf.WriteFloat32(up.f)
		} else {
			err = up.buf.WriteUint32(up.u)
		}
		if err != nil {
			w.release()
			return nil, nil, nil, err
		}
	}
	w.ops = []op{w.matmulOp(), w.softmaxOp(), w.reduceOp()}
	for _, o := range w.ops {
		w.kernels += o.kernels
	}
	return w, a, b, nil
}

// The contents of the uniforms: each kernel's sizes.
func (w *workload) mmDimsData() []uint32  { return []uint32{uint32(w.M), uint32(w.N), uint32(w.K), 0} }
func (w *workload) smDimsData() []uint32  { return []uint32{uint32(w.M), uint32(w.N), 0, 0} }
func (w *workload) sumDimsData() []uint32 { return []uint32{uint32(w.M * w.N), 0, 0, 0} }

// release releases the workload's buffers.
func (w *workload) release() {
	for _, buf := range []*wgpu.Buffer{w.a, w.b, w.c, w.s, w.partial, w.out, w.mmDims, w.smDims, w.sumDims} {
		if buf != nil {
			buf.Release()
		}
	}
}

// matmulOp: C = A·B; naive and shared-memory tiled, 8×8 and 16×16.
func (w *workload) matmulOp() op {
	o := op{name: "matmul", args: []gpu.Buffer{w.mmDims, w.a, w.b, w.c}}
	o.tune = tune.Op{Key: "matmul/" + w.class(w.M, w.N, w.K), NewInputs: w.newInputs(w.mmDimsData(), w.a, w.b, w.c)}
	for _, v := range []struct {
		name  string
		src   string
		tile  int
		tiled bool
	}{
		{"naive-8x8", matmulNaiveWGSL, 8, false},
		{"naive-16x16", matmulNaiveWGSL, 16, false},
		{"tiled-8", matmulTiledWGSL, 8, true},
		{"tiled-16", matmulTiledWGSL, 16, true},
	} {
		k := gpu.NewKernel("matmul/"+v.name, expand(v.src, map[string]int{"T": v.tile, "TT": v.tile * v.tile}), "main")
		wg := [3]uint32{ceilDiv(w.N, v.tile), ceilDiv(w.M, v.tile), 1}
		o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: v.name, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
			return c.Launch(k, wg, in...) // dims, a, b, c
		}})
		o.kernels++
	}
	return o
}

// softmaxOp: S = softmax of each row of C; a thread per row, or a workgroup
// per row of 64 or 256 invocations.
func (w *workload) softmaxOp() op {
	o := op{name: "softmax", args: []gpu.Buffer{w.smDims, w.c, w.s}}
	o.tune = tune.Op{Key: "softmax/" + w.class(w.M, w.N), NewInputs: w.newInputs(w.smDimsData(), w.c, w.s)}
	rowK := gpu.NewKernel("softmax/thread-per-row", expand(softmaxRowWGSL, map[string]int{"W": 64}), "main")
	o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: "thread-per-row", Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
		return c.Launch(rowK, [3]uint32{ceilDiv(w.M, 64), 1, 1}, in...) // dims, x, y
	}})
	o.kernels++
	for _, wgSize := range []int{64, 256} {
		name := fmt.Sprintf("group-per-row-%d", wgSize)
		k := gpu.NewKernel("softmax/"+name, expand(softmaxGroupWGSL, map[string]int{"W": wgSize}), "main")
		o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: name, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
			return c.Launch(k, [3]uint32{uint32(w.M), 1, 1}, in...) // dims, x, y
		}})
		o.kernels++
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
		src := expand(reduceWGSL, map[string]int{"W": v.wg, "G": v.groups, "GW": v.wg * v.groups})
		partials := gpu.NewKernel("reduce/"+name+"/partials", src, "partials")
		total := gpu.NewKernel("reduce/"+name+"/total", src, "total")
		groups := uint32(v.groups)
		o.tune.Candidates = append(o.tune.Candidates, tune.Candidate{Name: name, Run: func(_ context.Context, c *client.Client, in []gpu.Buffer) error {
			// in: dims, x, partial, out
			if err := c.Launch(partials, [3]uint32{groups, 1, 1}, in...); err != nil {
				return err
			}
			return c.Launch(total, [3]uint32{1, 1, 1}, in...)
		}})
		o.kernels += 2
	}
	return o
}

// step runs the program's step once: each op through tu, which picks its
// kernel (tuning it first, on fresh buffers, if the key is undecided) and
// launches it on the step's buffers through the tuner's client. It returns
// each op's Result, whose Ran names the candidate that ran.
func (w *workload) step(ctx context.Context, tu *tune.Tuner) ([]*tune.Result, error) {
	ran := make([]*tune.Result, len(w.ops))
	for i, o := range w.ops {
		res, err := tu.Run(ctx, o.tune, o.args...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
		ran[i] = res
	}
	return ran, nil
}
