//go:build cgo

package tune_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
	"github.com/streamgate/streamgate/wgpu"
)

// loopWGSL makes each of 64 invocations spin iters times: work that scales
// with iters.
func loopWGSL(iters int) string {
	return fmt.Sprintf(`
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	var acc = f32(id.x);
	for (var i = 0u; i < %du; i = i + 1u) {
		acc = acc * 0.999 + 1.0;
	}
	out[id.x] = acc;
}
`, iters)
}

// gpuCandidate launches its kernel once per run on the tuner's client, on
// the buffer it is given.
func gpuCandidate(name string, k *gpu.Kernel, runs *atomic.Int64) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
		if runs != nil {
			runs.Add(1)
		}
		return c.Launch(k, [3]uint32{1, 1, 1}, in...)
	}}
}

// loopOp is the op of key over cands, measured on a fresh 64-float buffer of d.
func loopOp(d *wgpu.Device, key string, cands ...tune.Candidate) tune.Op {
	return tune.Op{Key: key, Candidates: cands, NewInputs: func(context.Context) ([]gpu.Buffer, func(), error) {
		buf, err := d.NewBuffer(64*4, 0)
		if err != nil {
			return nil, nil, err
		}
		return []gpu.Buffer{buf}, buf.Release, nil
	}}
}

type gpuSetup struct {
	d     *wgpu.Device
	c     *client.Client
	buf   *wgpu.Buffer
	cheap *gpu.Kernel
	dear  *gpu.Kernel
}

func setupGPU(t *testing.T) gpuSetup {
	t.Helper()
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	buf, err := d.NewBuffer(64*4, 0)
	require.NoError(t, err)
	t.Cleanup(buf.Release)
	return gpuSetup{
		d:     d,
		c:     client.New(d, client.WithRegistry(r)),
		buf:   buf,
		cheap: gpu.NewKernel("cheap", loopWGSL(2000), "main"),
		dear:  gpu.NewKernel("dear", loopWGSL(1000000), "main"),
	}
}

func TestGPUCheapWins(t *testing.T) {
	for _, timing := range []tune.Timing{tune.TimingGPU, tune.TimingWall} {
		t.Run(timing.String(), func(t *testing.T) {
			g := setupGPU(t)
			if timing == tune.TimingGPU && !g.d.HasTimestamps() {
				t.Skip("adapter has no timestamp queries") // lavapipe has them
			}
			tu := tune.New(g.c, tune.WithTiming(timing))
			assert.Equal(t, timing, tu.Timing())
			broken := gpu.NewKernel("broken", "@compute @workgroup_size(1) fn main() { undefined_fn(); }", "main")
			op := loopOp(g.d, "loop",
				gpuCandidate("dear", g.dear, nil),
				gpuCandidate("broken", broken, nil),
				gpuCandidate("cheap", g.cheap, nil),
			)
			got, res, err := tu.Pick(context.Background(), op)
			require.NoError(t, err)
			t.Log("\n" + res.Table())
			assert.Equal(t, "cheap", got.Name, "10x less work wins")
			assert.Equal(t, timing, res.Timing)
			last := res.Rows[len(res.Rows)-1]
			assert.Equal(t, "broken", last.Name, "the broken candidate is skipped")
			var werr *wgpu.Error
			assert.ErrorAs(t, last.Err, &werr)
			assert.Zero(t, g.c.Stats().Discarded, "every measured launch executed under the process's discard")
		})
	}
}

func TestGPUCacheHitLaunchesNothing(t *testing.T) {
	cache, err := sqlitecache.Open(filepath.Join(t.TempDir(), "tune.db"))
	require.NoError(t, err)
	defer cache.Close()
	g := setupGPU(t)
	op := loopOp(g.d, "loop", gpuCandidate("dear", g.dear, nil), gpuCandidate("cheap", g.cheap, nil))
	_, res, err := tune.New(g.c, tune.WithCache(cache)).Pick(context.Background(), op)
	require.NoError(t, err)
	require.False(t, res.Cached)
	t.Log("\n" + res.Table())

	c2 := g.c.Fork()
	got, res, err := tune.New(c2, tune.WithCache(cache)).Pick(context.Background(), op)
	require.NoError(t, err)
	assert.True(t, res.Cached)
	assert.Equal(t, "cheap", got.Name)
	assert.Equal(t, client.Stats{}, c2.Stats(), "the cache hit path performs zero launches")
}

func TestGPUConcurrentSameKey(t *testing.T) {
	g := setupGPU(t)
	tu := tune.New(g.c)
	var runs atomic.Int64
	op := loopOp(g.d, "loop", gpuCandidate("dear", g.dear, &runs), gpuCandidate("cheap", g.cheap, &runs))
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, _, err := tu.Pick(context.Background(), op)
			assert.NoError(t, err)
			assert.Equal(t, "cheap", got.Name)
		}()
	}
	wg.Wait()
	assert.LessOrEqual(t, runs.Load(), int64(2*(tune.MaxSamples+2)), "measured once")
}

func TestGPUCrossProcessCache(t *testing.T) {
	if _, err := wgpu.Open(wgpu.Options{}); err != nil && !gputest.Required() {
		t.Skipf("no adapter: %v", err)
	}
	testCrossProcess(t, "gpu")
}

func init() {
	childServices["gpu"] = func() (gpu.Service, tune.Op, func(), error) {
		d, err := wgpu.Open(wgpu.Options{})
		if err != nil {
			return nil, tune.Op{}, nil, err
		}
		op := loopOp(d, "k",
			gpuCandidate("dear", gpu.NewKernel("dear", loopWGSL(1000000), "main"), nil),
			gpuCandidate("fast", gpu.NewKernel("cheap", loopWGSL(2000), "main"), nil),
		)
		return d, op, func() { d.Close() }, nil
	}
}

// saxpyWGSL updates y in place: y += 2·x, one invocation per element.
func saxpyWGSL(wg int) string {
	return fmt.Sprintf(`
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(%d)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	y[id.x] = y[id.x] + 2.0 * x[id.x];
}
`, wg)
}

// TestInPlaceKernelUpdatedOnceOnGPU: an in-place kernel (y += a·x)
// tuned then run on the real device leaves y updated exactly once: the
// measurements ran on buffers NewInputs made. Before, y was updated by
// every measurement too (about 25 times).
func TestInPlaceKernelUpdatedOnceOnGPU(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := client.New(d, client.WithRegistry(registry.New())) // ProcessExecute: the real run runs
	defer c.Close()
	const n = 1024
	xs, ys := make([]float32, n), make([]float32, n)
	for i := range xs {
		xs[i], ys[i] = float32(i), float32(1000+i)
	}
	x, err := d.NewBuffer(4*n, 0)
	require.NoError(t, err)
	defer x.Release()
	y, err := d.NewBuffer(4*n, 0)
	require.NoError(t, err)
	defer y.Release()
	require.NoError(t, wgpu.Write(x, 0, xs))
	require.NoError(t, wgpu.Write(y, 0, ys))

	var measured, real atomic.Int64
	cand := func(wg int) tune.Candidate {
		k := gpu.NewKernel(fmt.Sprintf("saxpy-%d", wg), saxpyWGSL(wg), "main")
		return tune.Candidate{Name: fmt.Sprintf("wg%d", wg), Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
			if in[1] == gpu.Buffer(y) {
				real.Add(1)
			} else {
				measured.Add(1)
			}
			return c.Launch(k, [3]uint32{uint32(n / wg), 1, 1}, in...)
		}}
	}
	op := tune.Op{
		Key:        "saxpy/1024",
		Candidates: []tune.Candidate{cand(64), cand(256)},
		NewInputs: func(context.Context) ([]gpu.Buffer, func(), error) {
			fx, err := d.NewBuffer(4*n, 0)
			if err != nil {
				return nil, nil, err
			}
			fy, err := d.NewBuffer(4*n, 0)
			if err != nil {
				fx.Release()
				return nil, nil, err
			}
			return []gpu.Buffer{fx, fy}, func() { fx.Release(); fy.Release() }, nil
		},
	}
	res, err := tune.New(c).Run(ctx, op, x, y)
	require.NoError(t, err)
	t.Log("\n" + res.Table())
	require.NoError(t, c.Sync(ctx))
	got, err := wgpu.Read[float32](ctx, y, 0, int(y.Size()/4))
	require.NoError(t, err)
	for i := range got {
		if want := ys[i] + 2*xs[i]; got[i] != want {
			t.Fatalf("y[%d] = %v, want %v (y0 + 2x, once); %d measurement runs, %d real", i, got[i], want, measured.Load(), real.Load())
		}
	}
	assert.Equal(t, int64(1), real.Load(), "one real run")
	assert.GreaterOrEqual(t, measured.Load(), int64(2*(tune.MinSamples+2)), "the measurements ran, elsewhere")
	t.Logf("y updated once by the real run (%s); %d measurement runs on fresh buffers", res.Ran, measured.Load())
}

func TestMain(m *testing.M) { gputest.Main(func() int { return testMain(m) }) }
