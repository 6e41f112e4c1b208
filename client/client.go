package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
)

// ErrClosed is returned by every call on a [Client] after [Client.Close].
var ErrClosed = errors.New("client: closed")

// StreamPolicy says which stream a new client launches on.
type StreamPolicy uint8

const (
	// PerClient gives each client, and each [Client.Fork], a fresh
	// process-unique stream: an override on one client's stream leaves every
	// other client alone.
	PerClient StreamPolicy = iota
	// Single puts every client of a service on the service's one shared
	// stream, [SingleStream]: an override opened through any of them governs
	// the launches of all of them, from any goroutine.
	Single
)

// SingleStream is the stream every client of a service shares under
// [Single]. [PerClient] streams are never 0.
const SingleStream gpu.StreamID = 0

// String returns "PerClient" or "Single". It panics on an invalid value.
func (p StreamPolicy) String() string {
	switch p {
	case PerClient:
		return "PerClient"
	case Single:
		return "Single"
	}
	panic(fmt.Sprintf("client: invalid StreamPolicy %d", uint8(p)))
}

// An Option configures a [Client].
type Option interface{ apply(*config) }

type config struct {
	reg    *registry.Registry
	policy StreamPolicy
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithRegistry makes the client read its stream's mode from r rather than
// [registry.Default].
func WithRegistry(r *registry.Registry) Option {
	if r == nil {
		panic("client: WithRegistry(nil)")
	}
	return optionFunc(func(c *config) { c.reg = r })
}

// WithStreamPolicy sets the stream policy; the default is [PerClient]. It
// panics on an invalid policy.
func WithStreamPolicy(p StreamPolicy) Option {
	_ = p.String() // validates
	return optionFunc(func(c *config) { c.policy = p })
}

// Client is what a program launches kernels through: it is bound to one
// [gpu.Service] and one stream, and each launch asks the registry, with one
// lock-free read, whether that stream executes or discards.
//
//   - Execute: the service records the dispatch.
//   - Discard under [registry.ProcessCompileAndAutotune]: the kernel compiles
//     now and the launch is dropped. On a service that implements
//     [gpu.AsyncCompiler] (package wgpu's Device) the launch waits only for
//     the kernel's checks and lowering, and returns their errors; the
//     driver's part of the compile goes on meanwhile, overlapping the next
//     launches', and the next [Client.Sync] (or CompileQueued) waits for it
//     and returns its error.
//   - Discard otherwise: the kernel is queued (once) for a batch compile —
//     [Client.CompileQueued], or the next [Client.Sync] — and the launch is
//     dropped.
//
// A dropped launch touches no buffer and submits nothing.
//
// A Client is safe for concurrent use by multiple goroutines; launches from
// several goroutines on one client go to its one stream in an unspecified
// order. The zero value is not usable; use [New]. A Client does not own its
// service: [Client.Close] leaves the service open.
type Client struct {
	svc    gpu.Service        // written once
	reg    *registry.Registry // written once
	policy StreamPolicy       // written once
	key    registry.ServiceStream

	closed atomic.Bool

	mu     sync.Mutex               // guards queued, inQ, pending, inPending and graphs
	queued []*gpu.Kernel            // kernels waiting for the batch compile, in launch order
	inQ    map[*gpu.Kernel]struct{} // the set of queued

	pending   []*gpu.Kernel            // kernels whose compile CompileAsync left running, in launch order
	inPending map[*gpu.Kernel]struct{} // the set of pending

	stats *counters // its own allocation, so the process totals outlive the client (see ServiceStats)

	capture atomic.Pointer[capture] // the capture in progress, if any (graph.go)
	graphs  map[*Graph]struct{}     // guarded by mu: the client's live graphs, released by Close

	// scratch holds an executed launch's bindings while the service reads
	// them (gpu.Service.Launch does not keep them), so that the caller's
	// variadic slice never escapes and nothing is allocated; scratchBusy
	// is set while one launch uses it (a concurrent one copies instead).
	scratchBusy atomic.Bool
	scratch     [scratchLen]gpu.Buffer
}

// scratchLen is how many bindings a launch can pass without allocating.
const scratchLen = 8

// New returns a client of svc. Under [PerClient] (the default) it launches
// on a fresh stream; under [Single], on [SingleStream].
func New(svc gpu.Service, opts ...Option) *Client {
	if svc == nil {
		panic("client: New(nil)")
	}
	cfg := config{reg: registry.Default}
	for _, o := range opts {
		o.apply(&cfg)
	}
	return newClient(svc, cfg.reg, cfg.policy)
}

func newClient(svc gpu.Service, reg *registry.Registry, policy StreamPolicy) *Client {
	stream := SingleStream
	if policy == PerClient {
		stream = gpu.NewStreamID()
	}
	c := &Client{
		svc:    svc,
		reg:    reg,
		policy: policy,
		key:    registry.ServiceStream{Service: svc.ServiceID(), Stream: stream},
		inQ:    make(map[*gpu.Kernel]struct{}),
		stats:  new(counters),
	}
	track(c)
	return c
}

// Fork returns a new client of the same service, registry and policy: on a
// fresh stream under [PerClient], on the same shared stream under [Single].
func (c *Client) Fork() *Client { return newClient(c.svc, c.reg, c.policy) }

// Stream returns the service and stream this client launches on.
func (c *Client) Stream() registry.ServiceStream { return c.key }

// Service returns the client's service.
func (c *Client) Service() gpu.Service { return c.svc }

// Registry returns the registry the client reads its mode from.
func (c *Client) Registry() *registry.Registry { return c.reg }

// Mode returns the mode a launch on this client would have now.
func (c *Client) Mode() registry.StreamMode { return c.reg.Resolve(c.key) }

// Launch launches k with the given workgroup counts, binding buffers in the
// order the service takes them (for wgpu: (group, binding) order of the
// bindings k's entry point uses), if the client's stream executes now; else
// it drops the launch and compiles k now or queues it, as [Client]
// describes.
//
// A launch that executes returns the service's error, if any (invalid
// bindings, a dispatch over the limits, a kernel that does not compile). A
// discarded launch returns an error only under
// [registry.ProcessCompileAndAutotune] when k fails to compile; under other
// process modes a compile error comes from the batch compile.
//
// A discarded launch of an already compiled kernel does not allocate, nor
// does an executed launch with up to 8 buffers (unless another goroutine is
// launching through the same client at that instant).
//
// While a [Client.Capture] runs, every launch through the client is
// recorded into the capture's graph instead, whatever the mode: checked,
// compiled, never executed.
//
// After Close, Launch returns [ErrClosed]. A launch racing Close either
// returns ErrClosed and records nothing, or was recorded before Close
// closed the stream: it returns nil (or its batch's error) and Close
// submitted it. Under [PerClient] the service refuses to record on the
// stream once Close closed it (gpu.ErrStreamClosed, which Launch returns
// as ErrClosed), so no stream outlives the client; under [Single] a launch
// recorded after Close's flush waits on the shared stream for its next
// flush, by any client.
func (c *Client) Launch(k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Buffer) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if k == nil {
		return c.nilKernel() // during a capture, a failed launch of it
	}
	if cp := c.capture.Load(); cp != nil {
		return c.captureLaunch(cp, k, workgroups, bindings) // out of line
	}
	// launch's body, written out: the call is a sizable share of the
	// discarded path's time (BenchmarkDiscardedLaunch, impl=client-wgpu/k=0,
	// run with the body written out and with a call to launch shows it).
	// Keep the two in step.
	if c.reg.Resolve(c.key) == registry.Execute {
		return c.execute(k, workgroups, bindings)
	}
	c.stats.discarded.Add(1)
	if c.svc.Compiled(k) {
		return nil
	}
	return c.discardMiss(k)
}

// launch is Launch past its checks and the capture, for the callers that
// are not Launch (which writes it out).
func (c *Client) launch(k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer) error {
	if c.reg.Resolve(c.key) == registry.Execute {
		return c.execute(k, workgroups, bindings)
	}
	c.stats.discarded.Add(1)
	if c.svc.Compiled(k) {
		return nil
	}
	return c.discardMiss(k)
}

// execute hands the launch to the service. It copies bindings (into the
// client's scratch array, or a new slice when a concurrent launch holds
// it), so the caller's variadic slice never escapes through the interface
// call: neither a discarded nor an executed launch allocates.
func (c *Client) execute(k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer) error {
	var err error
	if len(bindings) <= scratchLen && c.scratchBusy.CompareAndSwap(false, true) {
		// Element by element: a launch binds a few buffers, and copy and
		// clear of an interface slice call the runtime's bulk copy and
		// clear (with their write barriers), a third of this function's
		// time (BenchmarkExecutedLaunch shows it).
		bs := c.scratch[:len(bindings)]
		//lint:ignore S1001 copy is the runtime's bulk copy this loop avoids
		for i, b := range bindings {
			bs[i] = b
		}
		err = c.svc.Launch(c.key.Stream, k, workgroups, bs...)
		for i := 0; i < len(bs); i++ { // not range: that is compiled to the bulk clear
			bs[i] = nil // keep no buffer alive
		}
		c.scratchBusy.Store(false)
	} else {
		bs := make([]gpu.Buffer, len(bindings))
		copy(bs, bindings)
		err = c.svc.Launch(c.key.Stream, k, workgroups, bs...)
	}
	if err != nil && !isLaunchError(err) {
		return c.refused(err) // nothing recorded
	}
	// Recorded; a LaunchError is from the batch this launch completed.
	c.stats.executed.Add(1)
	if err == nil {
		return nil
	}
	return c.observe(err)
}

// isLaunchError reports whether err holds a [*gpu.LaunchError] (out of
// line: its errors.As target would otherwise be allocated on every launch).
func isLaunchError(err error) bool {
	var le *gpu.LaunchError
	return errors.As(err, &le)
}

// observe takes the launches of this client's stream that err reports as
// not run off Executed and counts them in Failed. It returns err.
func (c *Client) observe(err error) error {
	if err == nil {
		return nil
	}
	if n := uint64(gpu.FailedLaunches(err, c.key.Stream)); n > 0 {
		c.stats.executed.Add(^(n - 1))
		c.stats.failed.Add(n)
	}
	return err
}

// discardMiss handles a discarded launch of a kernel not yet compiled: out of
// line, so the cache-hit path stays short.
func (c *Client) discardMiss(k *gpu.Kernel) error {
	if c.reg.ProcessMode() == registry.ProcessCompileAndAutotune {
		if ac, ok := c.svc.(gpu.AsyncCompiler); ok {
			return c.compileAsync(ac, k)
		}
		if err := c.svc.Compile(context.Background(), k); err != nil {
			return err
		}
		c.stats.compiledNow.Add(1)
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.inQ[k]; !ok {
		c.inQ[k] = struct{}{}
		c.queued = append(c.queued, k)
		c.stats.queued.Add(1)
	}
	return nil
}

// compileAsync starts k's compile on ac, once while it is pending, and
// returns the errors of its quick part.
func (c *Client) compileAsync(ac gpu.AsyncCompiler, k *gpu.Kernel) error {
	c.mu.Lock()
	_, ok := c.inPending[k]
	c.mu.Unlock()
	if ok {
		return nil // its compile runs; Sync waits for it
	}
	if err := ac.CompileAsync(context.Background(), k); err != nil {
		return err
	}
	c.mu.Lock()
	if _, ok := c.inPending[k]; !ok {
		if c.inPending == nil {
			c.inPending = map[*gpu.Kernel]struct{}{}
		}
		c.inPending[k] = struct{}{}
		c.pending = append(c.pending, k)
		c.stats.compiledNow.Add(1)
	}
	c.mu.Unlock()
	return nil
}

// Queued returns how many kernels wait for the batch compile.
func (c *Client) Queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queued)
}

// CompileQueued compiles, in one batch, every kernel queued by discarded
// launches, and empties the queue; it also waits for the compiles that
// discarded launches under [registry.ProcessCompileAndAutotune] left
// running (see [Client]). A kernel that fails to compile leaves the
// queue too (it would fail again); the error joins each failure. If ctx is
// done before the batch starts, it returns ctx.Err() and leaves the queue
// unchanged.
func (c *Client) CompileQueued(ctx context.Context) error {
	if c.closed.Load() {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	batch := c.queued
	c.queued = nil
	clear(c.inQ)
	pending := c.pending
	c.pending = nil
	clear(c.inPending)
	c.mu.Unlock()
	if len(batch) == 0 && len(pending) == 0 {
		return nil
	}
	// One Precompile: the batch's compiles run on the service's workers
	// beside the pending ones, which it waits for.
	err := c.svc.Precompile(ctx, append(batch[:len(batch):len(batch)], pending...))
	var compiled uint64
	var back, still []*gpu.Kernel
	for _, k := range batch {
		switch {
		case c.svc.Compiled(k):
			compiled++
		case ctx.Err() != nil:
			back = append(back, k) // not tried: try again next time
		}
	}
	if ctx.Err() != nil {
		for _, k := range pending {
			if !c.svc.Compiled(k) {
				still = append(still, k) // not waited for: the next Sync waits
			}
		}
	}
	c.stats.batchCompiled.Add(compiled)
	if len(back) > 0 || len(still) > 0 {
		c.mu.Lock()
		for _, k := range back {
			if _, ok := c.inQ[k]; !ok {
				c.inQ[k] = struct{}{}
				c.queued = append(c.queued, k)
			}
		}
		for _, k := range still {
			if _, ok := c.inPending[k]; !ok {
				c.inPending[k] = struct{}{}
				c.pending = append(c.pending, k)
			}
		}
		c.mu.Unlock()
	}
	return err
}

// Measure sets this client's stream to Execute until the returned override is
// released: what an autotune measurement opens, so its launches run however
// the process mode discards.
//
// Only this client's stream follows it. A launch another client issues on
// another stream — a candidate holding a client bound elsewhere — keeps its
// own stream's mode, and under a process mode that discards is discarded: a
// measurement launches through the client it switched. Every launch on this
// client's stream follows it, whichever goroutine issues it; under [Single]
// that is every client of the service, so a launch another goroutine issues
// during a measurement executes too.
//
// Overrides nest and may be released in any order, from any goroutine.
func (c *Client) Measure() *registry.Override {
	return c.reg.Set(registry.Execute, c.key)
}

// Flush submits the launches recorded on this client's stream without
// waiting for them. A [*gpu.LaunchError] names launches the service could
// not run (every other one ran); [Stats] counts them as Failed.
func (c *Client) Flush() error {
	if c.closed.Load() {
		return ErrClosed
	}
	return c.observe(c.svc.Flush(c.key.Stream))
}

// Sync compiles the queued kernels, then flushes the stream and waits until
// its submitted work is done or ctx is done (then it returns ctx.Err()).
func (c *Client) Sync(ctx context.Context) error {
	if err := c.CompileQueued(ctx); err != nil {
		return err
	}
	return c.observe(c.svc.Sync(ctx, c.key.Stream))
}

// Close flushes the stream's recorded launches, drops the queued compiles,
// releases the client's graphs and makes every later call return
// [ErrClosed]. Under [PerClient] it also closes the client's stream on the
// service ([gpu.Service.CloseStream]), releasing the service's state for
// it for good; under [Single] the shared stream stays. It does not wait
// for the submitted work, and it leaves the service open. Closing twice
// returns ErrClosed.
//
// A call racing Close returns nil (or its own error) having done its work
// before Close took the stream — Close then submits what it recorded — or
// returns ErrClosed having done nothing: see the package documentation.
func (c *Client) Close() error {
	if !c.closed.CompareAndSwap(false, true) {
		return ErrClosed
	}
	c.mu.Lock()
	c.queued = nil
	clear(c.inQ)
	c.pending = nil
	clear(c.inPending)
	graphs := c.graphs
	c.graphs = nil
	c.mu.Unlock()
	for g := range graphs {
		g.release()
	}
	if c.policy == PerClient {
		return c.observe(c.svc.CloseStream(c.key.Stream))
	}
	return c.observe(c.svc.Flush(c.key.Stream))
}

// Stats counts what a client's launches did.
type Stats struct {
	Executed      uint64 // launches that ran (recorded, and not reported failed)
	Discarded     uint64 // launches dropped
	CompiledNow   uint64 // dropped launches whose kernel compiled at once
	Queued        uint64 // kernels queued for the batch compile
	BatchCompiled uint64 // queued kernels the batch compile compiled
	Failed        uint64 // launches recorded that the service reported as not run (see gpu.LaunchError)

	// Graphs (Client.Capture, Client.Replay). A replay's launches are
	// counted one by one in Executed (or Failed) when it executes, in
	// Discarded when it is dropped.
	Captured         uint64 // launches recorded into graphs by captures that succeeded
	Replays          uint64 // replays that executed
	ReplayedLaunches uint64 // the launches of those replays (each also in Executed or Failed)
	DiscardedReplays uint64 // replays dropped (their launches in Discarded)
}

// Stats returns the client's counts. Each count is exact, but under
// concurrent launches the counts need not be read at one instant. A launch
// the service reports as not run through a call of this client (Launch,
// Flush, Sync, Close) moves from Executed to Failed; one reported through a
// call made elsewhere (a wgpu.Read that flushed the stream) is that
// call's error alone.
func (c *Client) Stats() Stats { return c.stats.load() }
