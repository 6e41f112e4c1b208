//go:build cgo

package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// warmupWGSL is the kernel template of the WarmupCompile cases: a tiled
// matrix product with workgroup memory, the size of a real model's
// kernels. %d is a constant of each pipeline's own, so that every kernel is
// distinct to the lowering's cache, the device's and the driver's.
const warmupWGSL = `
override T: u32 = 8;
const SALT: u32 = %du;

@group(0) @binding(0) var<uniform> dims: vec4<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

var<workgroup> ta: array<f32, 256>;
var<workgroup> tb: array<f32, 256>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
	let m = dims.x;
	let n = dims.y;
	let k = dims.z;
	var acc: f32 = f32(SALT & 1u) * 0.0;
	for (var t: u32 = 0u; t < (k + 15u) / 16u; t = t + 1u) {
		let ac = t * 16u + lid.x;
		let br = t * 16u + lid.y;
		ta[lid.y * 16u + lid.x] = select(0.0, a[gid.y * k + ac], gid.y < m && ac < k);
		tb[lid.y * 16u + lid.x] = select(0.0, b[br * n + gid.x], br < k && gid.x < n);
		workgroupBarrier();
		for (var i: u32 = 0u; i < 16u; i = i + 1u) {
			acc = acc + ta[lid.y * 16u + i] * tb[i * 16u + lid.x];
		}
		workgroupBarrier();
	}
	if (gid.y < m && gid.x < n) {
		c[gid.y * n + gid.x] = acc + f32(SALT %% 7u) * 0.0;
	}
}
`

// warmupSalt numbers the WarmupCompile kernels; its start is random, so
// that another process's (a cache on disk) never matches either.
var warmupSalt atomic.Uint64

func init() { warmupSalt.Store(rand.Uint64N(1 << 30)) }

// warmupKernels returns n kernels never compiled before.
func warmupKernels(n int) []*gpu.Kernel {
	ks := make([]*gpu.Kernel, n)
	for i := range ks {
		s := warmupSalt.Add(1)
		ks[i] = gpu.NewKernel("warmup-"+strconv.FormatUint(s, 10), fmt.Sprintf(warmupWGSL, s), "main")
	}
	return ks
}

// warmupCases are CompileProfile and the WarmupCompile cases: a warm-up's
// batch of distinct pipelines compiled by Device.Precompile, the lowering
// included, on 1, 2 and GOMAXPROCS compile workers, on a device of its own
// opened with the driver's shader cache off (Mesa's
// MESA_SHADER_CACHE_DISABLE, read when the device is made). The name's impl=
// is the workers, workers-1 the baseline.
func warmupCases(e *LaunchEnv) []Case {
	workers := []string{"1", "2"}
	if n := runtime.GOMAXPROCS(0); n > 2 {
		workers = append(workers, strconv.Itoa(n))
	}
	cs := []Case{{Thing: "CompileProfile", Impl: "warmup-kernel", F: e.compileProfile}}
	for _, p := range []int{16, 64} {
		for _, w := range workers {
			n, _ := strconv.Atoi(w)
			cs = append(cs, Case{Thing: "WarmupCompile", Impl: "workers-" + w, Key: "pipelines", Value: strconv.Itoa(p), Baseline: "workers-1",
				F: func(b *testing.B) { e.warmupCompile(b, p, n) }})
		}
	}
	return cs
}

// openNoShaderCache opens a device like e's with the driver's shader
// cache off.
func (e *LaunchEnv) openNoShaderCache(workers int) (*wgpu.Device, error) {
	const env = "MESA_SHADER_CACHE_DISABLE"
	old, had := os.LookupEnv(env)
	os.Setenv(env, "true")
	defer func() {
		if had {
			os.Setenv(env, old)
		} else {
			os.Unsetenv(env)
		}
	}()
	opts := e.opts
	opts.CompileWorkers = workers
	return wgpu.Open(opts)
}

func (e *LaunchEnv) warmupCompile(b *testing.B, pipelines, workers int) {
	d, err := e.openNoShaderCache(workers)
	if err != nil {
		fatalf(b, "Open: %v", err)
	}
	defer d.Close()
	ctx := context.Background()
	// One untimed batch: the sandbox's instances for the workers exist.
	if err := d.Precompile(ctx, warmupKernels(2*workers)); err != nil {
		fatalf(b, "Precompile: %v", err)
	}
	batches := make([][]*gpu.Kernel, b.N)
	for i := range batches {
		batches[i] = warmupKernels(pipelines)
	}
	b.ResetTimer()
	for _, ks := range batches {
		if err := d.Precompile(ctx, ks); err != nil {
			fatalf(b, "Precompile: %v", err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/warmup")
}

// compileProfile times where one compile of a warmupWGSL kernel goes, on
// one worker, the shader cache off: the WGSL front-end (wgsl.Parse), the
// lowering (CheckKernel, which is the front-end, the lowering in the naga
// sandbox and the binding checks, less the front-end) and the driver
// (Compile, less a CheckKernel of another new kernel): metrics in ms per
// kernel. ns/op is one Compile. It also times what a restart pays instead
// of the front-end and the lowering: a CheckKernel of a source a process
// before stored in the kernel cache (a directory of its own, set anew so
// that nothing is in memory), read and verified.
func (e *LaunchEnv) compileProfile(b *testing.B) {
	d, err := e.openNoShaderCache(1)
	if err != nil {
		fatalf(b, "Open: %v", err)
	}
	defer d.Close()
	ctx := context.Background()
	if err := d.Precompile(ctx, warmupKernels(2)); err != nil {
		fatalf(b, "Precompile: %v", err)
	}
	parseKs, checkKs, compileKs, hitKs := warmupKernels(b.N), warmupKernels(b.N), warmupKernels(b.N), warmupKernels(b.N)
	kd, err := wgpu.OpenKernelDir(b.TempDir())
	if err != nil {
		fatalf(b, "OpenKernelDir: %v", err)
	}
	old := wgpu.SetKernelStore(kd)
	defer wgpu.SetKernelStore(old)
	for _, k := range hitKs {
		if _, err := d.CheckKernel(ctx, k); err != nil { // stored
			fatalf(b, "CheckKernel: %v", err)
		}
	}
	wgpu.SetKernelStore(kd) // a new process's memory: nothing lowered
	var parse, check, compile, hit time.Duration
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		if _, err := wgsl.Parse(parseKs[i].Source(), wgsl.DefaultLimits()); err != nil {
			fatalf(b, "Parse: %v", err)
		}
		t1 := time.Now()
		if _, err := d.CheckKernel(ctx, checkKs[i]); err != nil {
			fatalf(b, "CheckKernel: %v", err)
		}
		t2 := time.Now()
		if err := d.Compile(ctx, compileKs[i]); err != nil {
			fatalf(b, "Compile: %v", err)
		}
		t3 := time.Now()
		if _, err := d.CheckKernel(ctx, hitKs[i]); err != nil {
			fatalf(b, "CheckKernel: %v", err)
		}
		parse, check, compile, hit = parse+t1.Sub(t0), check+t2.Sub(t1), compile+t3.Sub(t2), hit+time.Since(t3)
	}
	b.StopTimer()
	per := func(t time.Duration) float64 { return float64(t.Microseconds()) / 1e3 / float64(b.N) }
	b.ReportMetric(per(parse), "frontend-ms")
	b.ReportMetric(per(check-parse), "lowering-ms")
	b.ReportMetric(per(compile-check), "driver-ms")
	b.ReportMetric(per(compile), "compile-ms")
	b.ReportMetric(per(hit), "cachehit-ms")
}
