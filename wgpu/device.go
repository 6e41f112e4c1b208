//go:build cgo

package wgpu

// Lock order (acquire top to bottom; never the other way):
//
//	Device.life (RW: every call reads it; Close and Buffer.Release write it)
//	  stream.mu (one stream's pending work; never two at once)
//	    Device.bgMu, Buffer.mu, Device.mu, Device.scopeMu (then pairMu or
//	    epochMu, in sharedScope), Device.stageMu,
//	    Device.poolMu, Device.retired.mu, Device.compileMu (leaves: nothing is taken under them
//	    but the stream map's own bucket locks)
//
// A call enters through Device.enter (leave, err := d.enter(op); defer
// leave()) and releases every lock it takes with defer, in the function that
// took it; the waits (Sync, Read) hold no lock while they poll.

import (
	"context"
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync"
	"sync/atomic"
	"time"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/internal/naga"
)

// Device is one WebGPU device and its queue, reached through logical
// streams; it implements gpu.Service.
//
// A Device is safe for concurrent use by multiple goroutines, on one stream
// too: a stream's launches are recorded one at a time, in the order they
// take the stream's lock, so several goroutines sharing a stream (the
// client's Single policy) interleave their dispatches; different streams
// record in parallel. [Device.Compiled]
// never blocks and never allocates. [Device.Close] waits for calls in
// progress; [Buffer.Release] briefly excludes every other call on the
// device. The zero value is not usable; use [Open]. A Device must not be
// copied.
type Device struct {
	id       gpu.ServiceID // written once
	opts     Options       // written once
	info     AdapterInfo   // written once
	limits   Limits        // written once
	hasTS    bool          // written once: the timestamp feature is on
	maxBatch int           // written once
	workers  int           // written once: Options.CompileWorkers, or GOMAXPROCS

	// compileSem holds a token per driver half of a CompileAsync running
	// (kernel.go's startDriver): at most workers at once.
	compileSem chan struct{}

	inst    nInstance // written once; released by Close
	adapter nAdapter  // written once; released by Close
	dev     nDevice   // written once; released by Close, last
	queue   nQueue    // written once; released by Close

	closed atomic.Bool // set once, first thing in Close
	torn   atomic.Bool // set once, under life's write lock, when Close released the device

	// life is read-locked by every call that touches wgpu objects and
	// write-locked by Close and Buffer.Release, so that neither frees an
	// object another call is using.
	life  sync.RWMutex
	leave func() // written once: life.RUnlock, made once so that enter does not allocate

	// scopeMu serializes the shims that push and pop error scopes
	// (native.go, transfer_native.go): wgpu-native's scopes are per device,
	// not per thread, so two concurrent scoped calls could pop each other's
	// errors.
	//
	// The driver's shader compilers (shader modules, compute pipelines) run
	// under its read lock instead, several at once: see sharedScope.
	scopeMu  sync.RWMutex
	pairMu   sync.Mutex  // a leaf: sharedScope pushes and pops its pair of scopes under it
	epochMu  sync.Mutex  // a leaf: guards epoch
	epoch    *scopeEpoch // guarded by epochMu: the sharedScope calls running, nil when none
	encScope cScope      // guarded by scopeMu: the error scope of encodePass, beginPass and endPass

	pipelines *xsync.MapOf[[32]byte, *pipeline]   // lock-free; entries immutable once done
	streams   *xsync.MapOf[gpu.StreamID, *stream] // lock-free

	// byKernel and recent index the compiled pipelines by kernel pointer,
	// so that a launch skips hashing its kernel's content key (see
	// kernelEntry); both are lock-free, and emptied by Close.
	byKernel *xsync.MapOf[*gpu.Kernel, *kernelEntry]
	recent   [kernelSlots]atomic.Pointer[kernelEntry] // by kernelSlot

	// retired is the stream ids CloseStream retired (retired.go): stream
	// makes no state for them.
	retired retiredSet

	// lastStream is the stream the last launch locked, so that a loop on
	// one stream skips the map; it may be a closed one (lockStream checks).
	lastStream atomic.Pointer[stream]

	bgMu       sync.Mutex           // guards bindGroups and Buffer.bindGroups
	bindGroups map[bgKey]*bindGroup // guarded by bgMu
	mu         sync.Mutex           // guards buffers
	buffers    map[*Buffer]struct{} // guarded by mu: live buffers
	// failedFronts are pipelines whose driver half failed after their
	// front half was handed out: their bind group layouts are released by
	// Close (a launch may have made bind groups from them).
	failedFronts []*pipeline // guarded by mu
	stageMu      sync.Mutex  // guards staging
	staging      stagingPool // guarded by stageMu: idle and draining staging buffers
	poolMu       sync.Mutex  // guards temp
	temp         tempPool    // guarded by poolMu: recycled buffers for TempBuffer

	buffersCreated atomic.Int64 // buffers NewBuffer created

	// bufEpoch grows whenever a buffer is released or recycled, so that a
	// graph whose last check saw the same epoch skips checking its buffers.
	bufEpoch atomic.Uint64

	closeHook func(*Device) // written once (tests): runs in Close before the device is released
	handle    cgo.Handle    // written once: d, for the uncaptured-error callback; deleted by Close
	compiles  atomic.Int64  // pipelines built (tests read it)

	// The compile clock (kernel.go's compileBegin, compileEnd): the time
	// some compile was in progress.
	compileMu     sync.Mutex    // a leaf
	compileActive int           // guarded by compileMu: builds in progress
	compileSince  time.Time     // guarded by compileMu: when compileActive last became nonzero
	compileBusy   time.Duration // guarded by compileMu: the time compileActive was nonzero, until compileSince
	skipChecks    bool          // written once (tests): Launch skips the front-end's size and usage checks
}

var (
	_ gpu.Service    = (*Device)(nil)
	_ gpu.GPUTimer   = (*Device)(nil)
	_ gpu.Identifier = (*Device)(nil)
)

// Open creates a device on the adapter that best fits opts (see
// [Options].Adapter to choose one by index or name). It requests the
// adapter's limits and, unless disabled, the timestamp-query feature when
// the adapter has it. When no adapter fits it returns an error matching
// [ErrNoAdapter]. It first makes sure XDG_RUNTIME_DIR is usable (see the
// package documentation).
func Open(opts Options) (*Device, error) {
	prepareRuntimeDir()
	inst, adapter, err := requestAdapter(opts)
	if err != nil {
		return nil, err
	}
	info := adapterInfo(adapter)
	hasTS := info.Timestamps && !opts.DisableTimestamps
	dev, ok := adapter.requestDevice("streamgate", hasTS)
	if !ok {
		adapter.release()
		inst.release()
		return nil, &Error{Op: "Open", Type: ErrorTypeInternal, Message: "request device: the driver refused"}
	}
	d := &Device{
		id:         gpu.NewServiceID(),
		opts:       opts,
		info:       info,
		limits:     dev.limits(),
		hasTS:      hasTS && dev.hasFeature(featureTimestampQuery),
		maxBatch:   opts.MaxBatch,
		inst:       inst,
		adapter:    adapter,
		dev:        dev,
		queue:      dev.queue(),
		pipelines:  xsync.NewMapOf[[32]byte, *pipeline](),
		streams:    xsync.NewMapOf[gpu.StreamID, *stream](),
		byKernel:   xsync.NewMapOf[*gpu.Kernel, *kernelEntry](),
		bindGroups: map[bgKey]*bindGroup{},
		buffers:    map[*Buffer]struct{}{},
	}
	d.info.Timestamps = d.hasTS
	d.handle = cgo.NewHandle(d)
	setUncapturedErrorCallback(dev, d.handle)
	d.leave = d.life.RUnlock
	d.staging.all = map[*staging]struct{}{}
	d.staging.limit = poolLimit(opts.StagingPoolBytes, DefaultStagingPoolBytes)
	d.temp.free = map[tempKey][]tempEntry{}
	d.temp.limit = poolLimit(opts.TempPoolBytes, DefaultTempPoolBytes)
	if d.maxBatch <= 0 {
		d.maxBatch = DefaultMaxBatch
	}
	d.workers = opts.CompileWorkers
	if d.workers <= 0 {
		d.workers = runtime.GOMAXPROCS(0)
	}
	d.compileSem = make(chan struct{}, d.workers)
	naga.Reserve(d.workers)
	track(d) // observe.go: Devices
	return d, nil
}

// ServiceID returns the device's process-unique id (the first device opened
// gets 1).
func (d *Device) ServiceID() gpu.ServiceID { return d.id }

// Info describes the device's adapter. Timestamps reports whether the
// device (not only the adapter) has timestamp queries on.
func (d *Device) Info() AdapterInfo { return d.info }

// AdapterIdentity names the adapter for caches keyed by hardware: name,
// vendor, driver and backend. It implements [gpu.Identifier].
func (d *Device) AdapterIdentity() string {
	return fmt.Sprintf("%s|%s|%#x:%#x|%s|%s", d.info.Name, d.info.Vendor, d.info.VendorID, d.info.DeviceID, d.info.Driver, d.info.Backend)
}

// Limits returns the device's limits.
func (d *Device) Limits() Limits { return d.limits }

// HasTimestamps reports whether [Device.TimeStream] can measure on this
// device. With TimeStream it implements [gpu.GPUTimer].
func (d *Device) HasTimestamps() bool { return d.hasTS }

// Close discards every stream's unsubmitted launches, waits for submitted
// work, and releases every wgpu object of the device: pipelines, layouts,
// bind groups, buffers, the queue, the device, the adapter and the
// instance. It waits for calls in progress; every later call on the device
// or its buffers returns an error matching [ErrClosed]. Closing twice is
// harmless (the second call returns nil).
func (d *Device) Close() error {
	if d.closed.Swap(true) {
		return nil
	}
	d.life.Lock()
	defer d.life.Unlock()
	d.streams.Range(func(_ gpu.StreamID, s *stream) bool {
		s.mu.Lock()
		s.discardLocked()
		s.mu.Unlock()
		return true
	})
	d.streams.Clear() // no call reaches a stream once enter refuses it: Stats says none is left
	d.lastStream.Store(nil)
	d.dev.poll(true)
	d.bgMu.Lock()
	for k, bg := range d.bindGroups {
		bg.bg.release()
		delete(d.bindGroups, k)
	}
	d.bgMu.Unlock()
	d.pipelines.Range(func(k [32]byte, p *pipeline) bool {
		// A compile holds life while it builds either half, so each entry
		// is done, or has its front half only (and its driver half will
		// fail with ErrClosed), or has not started (and will fail so).
		select {
		case <-p.done:
			p.release()
		default:
			select {
			case <-p.front:
				p.releaseFront()
			default:
			}
		}
		return true
	})
	d.mu.Lock()
	for _, p := range d.failedFronts {
		p.releaseFront()
	}
	d.failedFronts = nil
	d.mu.Unlock()
	for i := range d.recent {
		d.recent[i].Store(nil)
	}
	d.byKernel.Clear()
	d.pipelines.Clear()
	freeStagingWords := d.closeStaging()
	d.mu.Lock()
	for b := range d.buffers {
		b.released.Store(true)
		b.buf.release()
		delete(d.buffers, b)
	}
	d.mu.Unlock()
	d.dev.poll(true)
	freeStagingWords()
	d.closeTemp()
	if d.closeHook != nil {
		d.closeHook(d)
	}
	d.queue.release()
	d.dev.release()
	d.handle.Delete()
	d.adapter.release()
	d.inst.release()
	d.torn.Store(true)
	return nil
}

// waitStatus polls the device until st is set or ctx is done. It must be
// called without d.life held; it read-locks it around each poll.
func (d *Device) waitStatus(ctx context.Context, op string, st statusWord) error {
	for backoff := 0; ; backoff++ {
		if st.load() != 0 {
			return nil
		}
		// Poll before looking at ctx: every wait, cancelled or not, lets
		// the driver retire finished work and run its callbacks, so a
		// program whose waits are all cancelled does not pile them up.
		if err := d.poll(op, ctx.Done() == nil && backoff > 2); err != nil {
			return err
		}
		if st.load() != 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		pause(backoff)
	}
}

// poll polls the device once; wait lets the driver block until the queue
// drains (when nothing can cancel the caller, instead of spinning).
func (d *Device) poll(op string, wait bool) error {
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	d.dev.poll(wait)
	return nil
}
