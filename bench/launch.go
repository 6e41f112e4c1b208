//go:build cgo

package bench

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/rawwgpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// launchWGSL is the tiny kernel every launch benchmark dispatches, one
// workgroup at a time: it adds 1 to each element of its one buffer.
const launchWGSL = `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < arrayLength(&x)) {
		x[id.x] = x[id.x] + 1u;
	}
}
`

const (
	// launchesPerLoop is how many launches one LaunchLoop op records and
	// runs on one stream.
	launchesPerLoop = 10000
	// recordChunk is how many launches ExecutedLaunch records between two
	// untimed syncs: under wgpu.DefaultMaxBatch, so that no launch in the
	// timed part submits.
	recordChunk = 1000
	// bufferSize is the size of the kernel's buffer: one workgroup's worth.
	bufferSize = 256
)

// LaunchEnv is what the launch benchmarks share: one wgpu.Device, a
// hand-written go-webgpu device (internal/workload/rawwgpu) with the same
// kernel and a buffer of the same size, and the kernel compiled on the
// first. Opening devices is slow, so a suite opens them once. A LaunchEnv's
// cases run one at a time; Close it after the last.
type LaunchEnv struct {
	opts   wgpu.Options    // written once: what dev was opened with
	dev    *wgpu.Device    // written once
	raw    *rawwgpu.Device // written once
	buf    *wgpu.Buffer    // written once
	kernel *gpu.Kernel     // written once; compiled on dev

	// The kernel's variants (rawwgpu.VariantSuffix), compiled on dev, each
	// with a buffer of its own: variants[0] is kernel, bufs[0] is buf.
	variants [rawwgpu.Variants]*gpu.Kernel
	bufs     [rawwgpu.Variants]*wgpu.Buffer

	// floor is the C floor (floor.go), built and started by the first
	// Floor case; floorErr is why it could not be, for every later one.
	floor    *cFloor
	floorErr error

	model  *modelEnv  // the ModelStep cases' decoder, made by the first
	decode *decodeEnv // the Decode cases' generator, made by the first
}

// OpenLaunchEnv opens the adapter opts choose twice, through wgpu and by
// hand (the hand-written baseline opens the same adapter when
// opts.Adapter names one, else the driver's default). Without an adapter
// the error matches wgpu.ErrNoAdapter.
func OpenLaunchEnv(opts wgpu.Options) (_ *LaunchEnv, err error) {
	e := &LaunchEnv{opts: opts, kernel: gpu.NewKernel("inc", launchWGSL, "main")}
	defer func() {
		if err != nil {
			e.Close()
		}
	}()
	if e.dev, err = wgpu.Open(opts); err != nil {
		return nil, err
	}
	rawAdapter := -1
	if opts.Adapter != "" {
		if rawAdapter, err = adapterIndex(e.dev.Info()); err != nil {
			return nil, err
		}
	}
	for i := range rawwgpu.Variants {
		e.variants[i] = gpu.NewKernel(fmt.Sprintf("inc%d", i), launchWGSL+rawwgpu.VariantSuffix(i), "main")
		if e.bufs[i], err = e.dev.NewBuffer(bufferSize, 0); err != nil {
			return nil, err
		}
		if err = e.dev.Compile(context.Background(), e.variants[i]); err != nil {
			return nil, err
		}
	}
	e.kernel, e.buf = e.variants[0], e.bufs[0]
	if e.raw, err = rawwgpu.Open(launchWGSL, bufferSize, rawAdapter); err != nil {
		return nil, err
	}
	return e, nil
}

// adapterIndex returns the index in wgpu.Adapters of the adapter info
// describes: the first with its name, backend, ids and driver.
func adapterIndex(info wgpu.AdapterInfo) (int, error) {
	list, err := wgpu.Adapters()
	if err != nil {
		return -1, err
	}
	for i, a := range list {
		if a.Name == info.Name && a.Backend == info.Backend && a.VendorID == info.VendorID &&
			a.DeviceID == info.DeviceID && a.Driver == info.Driver {
			return i, nil
		}
	}
	return -1, fmt.Errorf("bench: the device's adapter %q (%v) is not in wgpu.Adapters", info.Name, info.Backend)
}

// Device returns the wgpu device the client and device cases launch on.
func (e *LaunchEnv) Device() *wgpu.Device { return e.dev }

// Close releases both devices.
func (e *LaunchEnv) Close() {
	if e.floor != nil {
		e.floor.Close()
		e.floor = nil
	}
	if e.model != nil {
		e.model.release()
		e.model = nil
	}
	if e.decode != nil {
		e.decode.release()
		e.decode = nil
	}
	if e.raw != nil {
		e.raw.Release()
		e.raw = nil
	}
	if e.dev != nil {
		e.dev.Close()
		e.dev = nil
	}
}

var (
	one  = [3]uint32{1, 1, 1}
	none = [3]uint32{0, 0, 0} // ExecutedLaunch's: recorded like any other, near free to run
)

// LaunchSuite returns the launch benchmarks on e:
//
//   - LaunchLoop: launchesPerLoop launches of the tiny kernel on one stream
//     and a sync per op, of one workgroup each (workgroups=1) and of none
//     (workgroups=0: recorded, validated and submitted like any other, but
//     near free to run, so the loop measures the launch path rather than
//     lavapipe running a dispatch, which workgroups=1 shows), through a
//     client.Client under ProcessExecute
//     (impl=client), through wgpu.Device.Launch (impl=device), and with raw
//     go-webgpu: one encoder and one submit per dispatch
//     (impl=raw-submit-each, what users write by hand) and every dispatch in
//     one pass and one submit (impl=raw-one-pass, the binding's floor, the
//     baseline). dispatches/s is the throughput.
//   - ExecutedLaunch: the CPU cost of one executed launch, through a
//     client, through the device and by hand into one pass (the baseline):
//     recordChunk launches and then the flush that encodes them (the client
//     and the device record launches Go-side and encode a batch into
//     wgpu-native in one cgo crossing at flush; by hand, the pass is ended
//     and finished), all timed; only the submit's wait and the GPU's run
//     are left out, with the timer stopped. kernels=1 launches one kernel;
//     kernels=3 alternates three kernels with a buffer each, so the
//     pipeline and the bind group change on every launch (by hand: set on
//     every call). The dispatches are of 0 workgroups: recorded and
//     validated like any other, by every layer down to wgpu-native, but
//     near free to run, so that the untimed syncs do not dwarf the timed
//     part (LaunchLoop's workgroups=1 cases show what lavapipe spends
//     running a one-workgroup dispatch).
//   - LaunchRecord: ExecutedLaunch's client and device cases with the
//     flush untimed (it runs in the sync): the Go side of an executed
//     launch alone, which is what the launch path adds to the driver's
//     work (the flush is the C floor's loop, encoded in one crossing).
//   - Replay: a graph of replayGraphLen launches captured through a client
//     and replayed (impl=client-replay), timed per launch as
//     ExecutedLaunch is (the replays and the flush, not the submit's wait),
//     against hand-written one-pass dispatches (impl=raw-one-pass, the
//     baseline, ExecutedLaunch's own); kernels=1 and 3 as ExecutedLaunch's
//   - Floor/impl=c: ExecutedLaunch's and Replay's loop written in C
//     against the same static wgpu-native (bench/cfloor/floor.c, built
//     with the system C compiler on first use and run as a child process),
//     with no Go and no cgo on the path: the driver's floor, which the
//     headline divides the client's cases by. kernels=1 sets the pipeline
//     and the bind group once per pass; kernels=3 sets them before every
//     dispatch, in turn. Its ns/op is the child's timed part, per dispatch.
//   - Floor/impl=c-in-process: the same C loop compiled into this
//     process (floor_inproc.go, linux with cgo), on a device of its own,
//     called once a pass: no Go on its path, but this process's heap,
//     allocator and threads, as the Go paths have. Beside impl=c it tells
//     what of a Go path's distance from the floor is the process.
//   - DiscardedReplay/impl=client/launches=50: a replay of a
//     50-launch graph under ProcessCompile, per replay.
//   - TextureLaunch/bindings=2: an executed launch of a kernel binding a
//     texture and a buffer (impl=texture-buffer) against one binding two
//     buffers (impl=two-buffers, the baseline), through the device, timed
//     as ExecutedLaunch is (see textureCases).
//   - DiscardedLaunch/impl=client-wgpu: a discarded launch of a compiled
//     kernel under ProcessCompile, the mode read and the compile-cache hit
//     (allocating nothing); k=0 takes the registry's fast
//     path, k=1 has a measurement open on another client's stream.
//   - LaunchThroughput/impl=client/goroutines=1,2,4: that many goroutines,
//     each launching on its own client (its own stream) under
//     ProcessCompileAndAutotune — the process mode during which
//     measurements are open — while goroutine 0's client has a Measure
//     open: its launches execute (synced every 100, as a measurement
//     would), the others' are discarded. Launches are handed out 100 at a
//     time from one counter, so a fast goroutine does more of them;
//     launches/s is the total, executed/s and discarded/s its two parts.
//   - Compile: compiling a new kernel (impl=cold, the baseline) against
//     asking for one already compiled (impl=cache-hit).
//   - WarmupCompile/pipelines=16|64: a warm-up's batch of distinct
//     pipelines (warmupWGSL, the lowering included) compiled by
//     Device.Precompile on 1, 2 and GOMAXPROCS compile workers
//     (impl=workers-1, the baseline, ...), on a device with the driver's
//     shader cache off (see warmupCases); ms/warmup is one batch.
//   - Step/bytes=1048576: upload 1 MiB, three launches over it, read it
//     back, through the device (impl=device: wgpu.Write, Launch,
//     wgpu.ReadInto with pooled staging) against hand-written go-webgpu
//     (impl=raw, the baseline); buffers/op counts the GPU buffers created
//     per step (see stepCases).
//   - ModelStep: one forward step of a transformer decoder (modelConfig)
//     through a client, through the device,
//     and hand-written in one pass or a submit per dispatch (see
//     modelCases).
//   - Decode: one decode step of a generation with a KV cache
//     (decodeConfig), the state written before
//     it and its token read back, through a client, replayed, through the
//     device, and hand-written with one submit per token or per dispatch
//     (see decodeCases).
//
// LaunchSuite(nil) lists the cases, e.g. to filter them before opening the
// devices; its cases must not be run.
func LaunchSuite(e *LaunchEnv) []Case {
	var cs []Case
	for _, wg := range []uint32{1, 0} {
		w := [3]uint32{wg, wg, wg}
		loop := func(impl string, f func(*testing.B)) Case {
			return Case{Thing: "LaunchLoop", Impl: impl, Key: "workgroups", Value: strconv.Itoa(int(wg)), Baseline: "raw-one-pass", F: f}
		}
		cs = append(cs,
			loop("client", func(b *testing.B) { e.loopClient(b, w) }),
			loop("device", func(b *testing.B) { e.loopDevice(b, w) }),
			loop("raw-submit-each", e.loopRaw((*rawwgpu.Device).SubmitEach, w)),
			loop("raw-one-pass", e.loopRaw((*rawwgpu.Device).OnePass, w)),
		)
	}
	for _, alt := range []int{1, rawwgpu.Variants} {
		exec := func(impl string, f func(*testing.B, int)) Case {
			return Case{Thing: "ExecutedLaunch", Impl: impl, Key: "kernels", Value: strconv.Itoa(alt), Baseline: "raw-one-pass",
				F: func(b *testing.B) { f(b, alt) }}
		}
		cs = append(cs,
			exec("client", e.executedClient),
			exec("device", e.executedDevice),
			exec("raw-one-pass", e.executedRaw),
		)
	}
	for _, alt := range []int{1, rawwgpu.Variants} {
		rec := func(impl string, f func(*testing.B, int)) Case {
			return Case{Thing: "LaunchRecord", Impl: impl, Key: "kernels", Value: strconv.Itoa(alt),
				F: func(b *testing.B) { f(b, alt) }}
		}
		cs = append(cs, rec("client", e.recordClient), rec("device", e.recordDevice))
	}
	for _, alt := range []int{1, rawwgpu.Variants} {
		replay := func(impl string, f func(*testing.B, int)) Case {
			return Case{Thing: "Replay", Impl: impl, Key: "kernels", Value: strconv.Itoa(alt), Baseline: "raw-one-pass",
				F: func(b *testing.B) { f(b, alt) }}
		}
		cs = append(cs,
			replay("client-replay", e.replayClient),
			replay("raw-one-pass", e.executedRaw),
		)
	}
	for _, k := range []int{1, rawwgpu.Variants} {
		cs = append(cs, Case{Thing: "Floor", Impl: "c", Key: "kernels", Value: strconv.Itoa(k),
			F: func(b *testing.B) { e.floorC(b, k) }})
		cs = append(cs, Case{Thing: "Floor", Impl: "c-in-process", Key: "kernels", Value: strconv.Itoa(k),
			F: func(b *testing.B) { e.floorInProcess(b, k) }})
	}
	cs = append(cs, textureCases(e)...)
	cs = append(cs, Case{Thing: "DiscardedReplay", Impl: "client", Key: "launches", Value: strconv.Itoa(discardGraphLen), F: e.discardedReplay})
	for _, k := range []int{0, 1} {
		cs = append(cs, Case{Thing: "DiscardedLaunch", Impl: "client-wgpu", Key: "k", Value: strconv.Itoa(k),
			F: func(b *testing.B) { e.discarded(b, k) }})
	}
	for _, g := range []int{1, 2, 4} {
		cs = append(cs, Case{Thing: "LaunchThroughput", Impl: "client", Key: "goroutines", Value: strconv.Itoa(g),
			F: func(b *testing.B) { e.throughput(b, g) }})
	}
	cs = append(cs,
		Case{Thing: "Compile", Impl: "cold", Baseline: "cold", F: e.compileCold},
		Case{Thing: "Compile", Impl: "cache-hit", Baseline: "cold", F: e.compileHit},
	)
	cs = append(cs, warmupCases(e)...)
	cs = append(cs, stepCases(e)...)
	cs = append(cs, modelCases(e)...)
	return append(cs, decodeCases(e)...)
}

func reportDispatches(b *testing.B, perOp int) {
	reportRate(b, float64(b.N)*float64(perOp), "dispatches/s")
}

// newClient returns a client of e's device with a registry of its own
// under p.
func (e *LaunchEnv) newClient(p registry.ProcessMode) *client.Client {
	r := registry.New()
	r.SetProcessMode(p)
	return client.New(e.dev, client.WithRegistry(r))
}

func (e *LaunchEnv) loopClient(b *testing.B, wg [3]uint32) {
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < launchesPerLoop; j++ {
			if err := c.Launch(e.kernel, wg, e.buf); err != nil {
				fatalf(b, "Launch: %v", err)
			}
		}
		if err := c.Sync(ctx); err != nil {
			fatalf(b, "Sync: %v", err)
		}
	}
	b.StopTimer()
	reportDispatches(b, launchesPerLoop)
	if got, want := c.Stats().Executed, uint64(b.N)*launchesPerLoop; got != want {
		fatalf(b, "executed %d launches, want %d", got, want)
	}
}

func (e *LaunchEnv) loopDevice(b *testing.B, wg [3]uint32) {
	id := gpu.NewStreamID()
	defer e.dev.CloseStream(id)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < launchesPerLoop; j++ {
			if err := e.dev.Launch(id, e.kernel, wg, e.buf); err != nil {
				fatalf(b, "Launch: %v", err)
			}
		}
		if err := e.dev.Sync(ctx, id); err != nil {
			fatalf(b, "Sync: %v", err)
		}
	}
	b.StopTimer()
	reportDispatches(b, launchesPerLoop)
}

func (e *LaunchEnv) loopRaw(run func(r *rawwgpu.Device, n int, wg [3]uint32) error, wg [3]uint32) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := run(e.raw, launchesPerLoop, wg); err != nil {
				fatalf(b, "%v", err)
			}
		}
		b.StopTimer()
		reportDispatches(b, launchesPerLoop)
	}
}

// recordChunks calls launch b.N times, calling sync with the timer stopped
// after every recordChunk launches and at the end.
func recordChunks(b *testing.B, begin, launch func(i int) error, flush, sync func() error) {
	b.ReportAllocs()
	b.ResetTimer()
	for n := b.N; n > 0; {
		m := min(n, recordChunk)
		if err := begin(0); err != nil {
			fatalf(b, "%v", err)
		}
		for i := range m {
			if err := launch(i); err != nil {
				fatalf(b, "launch: %v", err)
			}
		}
		if err := flush(); err != nil {
			fatalf(b, "flush: %v", err)
		}
		n -= m
		b.StopTimer()
		if err := sync(); err != nil {
			fatalf(b, "sync: %v", err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	reportRate(b, float64(b.N), "launches/s")
}

func noop(int) error { return nil }

// executedClient records launches through a client; with alternate > 1 it
// cycles through that many kernels, each with its own buffer.
func (e *LaunchEnv) executedClient(b *testing.B, alternate int) { e.clientChunks(b, alternate, true) }

// recordClient is executedClient with the flush untimed: the Go side of
// an executed launch alone, what it adds to the driver's work.
func (e *LaunchEnv) recordClient(b *testing.B, alternate int) { e.clientChunks(b, alternate, false) }

func (e *LaunchEnv) executedDevice(b *testing.B, alternate int) { e.deviceChunks(b, alternate, true) }

// recordDevice is executedDevice with the flush untimed.
func (e *LaunchEnv) recordDevice(b *testing.B, alternate int) { e.deviceChunks(b, alternate, false) }

// clientChunks is executedClient's and recordClient's body: the flush is
// timed, or left to the untimed sync (which flushes) when timedFlush is
// false.
func (e *LaunchEnv) clientChunks(b *testing.B, alternate int, timedFlush bool) {
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	flush := c.Flush
	if !timedFlush {
		flush = func() error { return nil }
	}
	recordChunks(b, noop,
		func(i int) error { v := i % alternate; return c.Launch(e.variants[v], none, e.bufs[v]) },
		flush,
		func() error { return c.Sync(ctx) })
	if got := c.Stats().Executed; got != uint64(b.N) {
		fatalf(b, "executed %d launches, want %d", got, b.N)
	}
}

// deviceChunks is clientChunks through the device.
func (e *LaunchEnv) deviceChunks(b *testing.B, alternate int, timedFlush bool) {
	id := gpu.NewStreamID()
	defer e.dev.CloseStream(id)
	ctx := context.Background()
	flush := func() error { return e.dev.Flush(id) }
	if !timedFlush {
		flush = func() error { return nil }
	}
	recordChunks(b, noop,
		func(i int) error { v := i % alternate; return e.dev.Launch(id, e.variants[v], none, e.bufs[v]) },
		flush,
		func() error { return e.dev.Sync(ctx, id) })
}

func (e *LaunchEnv) executedRaw(b *testing.B, alternate int) {
	var p *rawwgpu.Pass
	launch := func(int) error { p.Dispatch(0, 0, 0); return nil }
	if alternate > 1 {
		launch = func(i int) error { p.DispatchVariant(i%alternate, 0, 0, 0); return nil }
	}
	recordChunks(b,
		func(int) (err error) { p, err = e.raw.BeginPass(); return err },
		launch,
		func() error { return p.SubmitNoWait() },
		func() error { e.raw.Wait(); return nil })
}

// floorC runs b.N dispatches of the C floor over kernels pipelines, in
// passes of recordChunk as ExecutedLaunch records them, and reports the
// child's timed nanoseconds per dispatch as ns/op (the wall time, which
// also holds the GPU's waits and the pipe, only sizes b.N).
func (e *LaunchEnv) floorC(b *testing.B, kernels int) {
	if e.floor == nil && e.floorErr == nil {
		src := make([]string, rawwgpu.Variants)
		for i := range src {
			src[i] = launchWGSL + rawwgpu.VariantSuffix(i)
		}
		e.floor, e.floorErr = startFloor(src, recordChunk)
		for _, k := range []int{1, rawwgpu.Variants} { // warm up both loops
			if e.floorErr == nil {
				_, e.floorErr = e.floor.Run(k, 3*recordChunk)
			}
		}
	}
	if e.floorErr != nil {
		fatalf(b, "%v", e.floorErr)
	}
	b.ResetTimer()
	ns, err := e.floor.Run(kernels, b.N)
	b.StopTimer()
	if err != nil {
		fatalf(b, "%v", err)
	}
	b.ReportMetric(float64(ns)/float64(b.N), "ns/op")
	b.ReportMetric(float64(b.N)/(float64(ns)/1e9), "launches/s")
}

// floorInProcess is floorC with the C loop compiled into this process
// (floor_inproc.go): its own device and pipelines, on this process's heap
// and threads, one cgo crossing per pass of recordChunk.
func (e *LaunchEnv) floorInProcess(b *testing.B, kernels int) {
	src := make([]string, rawwgpu.Variants)
	for i := range src {
		src[i] = launchWGSL + rawwgpu.VariantSuffix(i)
	}
	if err := openInProcessFloor(src); err != nil {
		fatalf(b, "%v", err)
	}
	b.ResetTimer()
	ns, err := runInProcessFloor(kernels, b.N, recordChunk)
	b.StopTimer()
	if err != nil {
		fatalf(b, "%v", err)
	}
	b.ReportMetric(float64(ns)/float64(b.N), "ns/op")
	b.ReportMetric(float64(b.N)/(float64(ns)/1e9), "launches/s")
}

// replayGraphLen is how many launches the Replay cases' graph holds: a
// divisor of recordChunk, so that a chunk is whole replays.
const replayGraphLen = 100

// replayClient captures replayGraphLen launches through a client (with
// alternate > 1, cycling through that many kernels, each with its own
// buffer, as executedClient does) and replays the graph, timed as
// ExecutedLaunch is: recordChunk launches' worth of replays and the flush
// that encodes them, per launch. b.N is rounded up to whole replays.
func (e *LaunchEnv) replayClient(b *testing.B, alternate int) {
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	g, err := c.Capture(func() error {
		for i := range replayGraphLen {
			v := i % alternate
			if err := c.Launch(e.variants[v], none, e.bufs[v]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		fatalf(b, "Capture: %v", err)
	}
	defer g.Release()
	replays := 0
	recordChunks(b, noop,
		func(i int) error {
			if i%replayGraphLen != 0 {
				return nil
			}
			replays++
			return c.Replay(g)
		},
		c.Flush,
		func() error { return c.Sync(ctx) })
	if got := c.Stats().Executed; got != uint64(replays*replayGraphLen) {
		fatalf(b, "executed %d launches, want %d", got, replays*replayGraphLen)
	}
}

// discardGraphLen is the DiscardedReplay case's graph length.
const discardGraphLen = 50

// discardedReplay replays a graph of discardGraphLen launches under
// ProcessCompile: one mode read and the graph's check per replay.
func (e *LaunchEnv) discardedReplay(b *testing.B) {
	c := e.newClient(registry.ProcessCompile)
	defer c.Close()
	g, err := c.Capture(func() error {
		for range discardGraphLen {
			if err := c.Launch(e.kernel, one, e.buf); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		fatalf(b, "Capture: %v", err)
	}
	defer g.Release()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Replay(g); err != nil {
			fatalf(b, "Replay: %v", err)
		}
	}
	b.StopTimer()
	reportRate(b, float64(b.N), "replays/s")
	if s := c.Stats(); s.Executed != 0 || s.Discarded != uint64(b.N)*discardGraphLen || s.DiscardedReplays != uint64(b.N) {
		fatalf(b, "stats %+v, want %d replays discarded, nothing executed", s, b.N)
	}
}

func (e *LaunchEnv) discarded(b *testing.B, k int) {
	c := e.newClient(registry.ProcessCompile)
	defer c.Close()
	if k > 0 {
		other := c.Fork()
		defer other.Close()
		defer other.Measure().Release()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Launch(e.kernel, one, e.buf); err != nil {
			fatalf(b, "Launch: %v", err)
		}
	}
	b.StopTimer()
	reportRate(b, float64(b.N), "launches/s")
	if s := c.Stats(); s.Executed != 0 || s.Discarded != uint64(b.N) || s.Queued != 0 {
		fatalf(b, "stats %+v, want %d discarded, none executed or queued", s, b.N)
	}
}

// throughputGrain is how many launches a LaunchThroughput goroutine takes
// at a time, and how many the measured one launches between syncs.
const throughputGrain = 100

func (e *LaunchEnv) throughput(b *testing.B, goroutines int) {
	cs := []*client.Client{e.newClient(registry.ProcessCompileAndAutotune)}
	for len(cs) < goroutines {
		cs = append(cs, cs[0].Fork())
	}
	defer func() {
		for _, c := range cs {
			c.Close()
		}
	}()
	m := cs[0].Measure()
	defer m.Release()
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, len(cs))
	b.ReportAllocs()
	b.ResetTimer()
	for i, c := range cs {
		wg.Go(func() {
			for {
				end := next.Add(throughputGrain)
				start := end - throughputGrain
				if start >= int64(b.N) {
					return
				}
				for range min(end, int64(b.N)) - start {
					if err := c.Launch(e.kernel, one, e.buf); err != nil {
						errs[i] = err
						return
					}
				}
				if i == 0 {
					if err := c.Sync(ctx); err != nil {
						errs[i] = err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	for i, err := range errs {
		if err != nil {
			fatalf(b, "goroutine %d: %v", i, err)
		}
	}
	var executed, discarded uint64
	for _, c := range cs {
		s := c.Stats()
		executed += s.Executed
		discarded += s.Discarded
	}
	if executed+discarded != uint64(b.N) || executed != cs[0].Stats().Executed {
		fatalf(b, "executed %d + discarded %d launches, want %d, only goroutine 0's executed", executed, discarded, b.N)
	}
	reportRate(b, float64(b.N), "launches/s")
	reportRate(b, float64(executed), "executed/s")
	reportRate(b, float64(discarded), "discarded/s")
}

// coldKernels numbers the kernels Compile/impl=cold makes, so that each is
// new to the device.
var coldKernels atomic.Uint64

func (e *LaunchEnv) compileCold(b *testing.B) {
	ks := make([]*gpu.Kernel, b.N)
	for i := range ks {
		n := coldKernels.Add(1)
		src := fmt.Sprintf("// cold kernel %d\n%s", n, launchWGSL)
		ks[i] = gpu.NewKernel(fmt.Sprintf("cold-%d", n), src, "main")
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for _, k := range ks {
		if err := e.dev.Compile(ctx, k); err != nil {
			fatalf(b, "Compile: %v", err)
		}
	}
}

func (e *LaunchEnv) compileHit(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := e.dev.Compile(ctx, e.kernel); err != nil {
			fatalf(b, "Compile: %v", err)
		}
	}
}

// Adapter describes the wgpu device's adapter: name, backend and driver.
func (e *LaunchEnv) Adapter() string {
	i := e.dev.Info()
	return fmt.Sprintf("%s (%v, %s)", i.Name, i.Backend, i.Driver)
}
