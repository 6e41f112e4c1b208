package wgpu

// Lock order (acquire top to bottom; never the other way):
//
//	Device.life (RW: every call reads it; Close and the Release of a
//	buffer, texture or sampler write it)
//	  stream.mu (one stream's pending work; never two at once)
//	    Device.bgMu, Buffer.mu, Texture.mu, Device.mu, Device.stageMu, Device.poolMu,
//	    Device.retired.mu, Device.compileMu, and the backend's own leaves
//	    (device_native.go, device_js.go): nothing is taken under them but
//	    the stream map's own bucket locks
//
// A call enters through Device.enter (leave, err := d.enter(op); defer
// leave()) and releases every lock it takes with defer, in the function that
// took it; the waits (Sync, Read) hold no lock while they poll or await.
// The one exception is each build's flat path for a repeated launch
// (launch: launch_native.go takes the life lock and the stream's, in
// this order; stream_js.go, on the page's one thread, the stream's alone),
// which releases them by hand: nothing between its lock and its unlock can
// panic (no call that can fail, no type assertion but the checked form),
// and the defers cost a fifth of that path.

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/gpu"
)

// Device is one WebGPU device and its queue, reached through logical
// streams; it implements gpu.Service. On the desktop it is a wgpu-native
// device; in a browser (GOOS=js GOARCH=wasm) a GPUDevice of the page's
// navigator.gpu, with the same API and the same checks.
//
// A Device is safe for concurrent use by multiple goroutines, on one stream
// too: a stream's launches are recorded one at a time, in the order they
// take the stream's lock, so several goroutines sharing a stream (the
// client's Single policy) interleave their dispatches; different streams
// record in parallel. [Device.Compiled] never blocks and never allocates.
// [Device.Close] waits for calls in progress; [Buffer.Release] briefly
// excludes every other call on the device. The zero value is not usable;
// use [Open]. A Device must not be copied.
//
// In a browser the calls that wait for the page (Open, compiles, Sync,
// reads, Close) await its promises: call them from a goroutine, never
// inside a js.FuncOf callback, where the page's event loop waits for the
// callback and the promise could never resolve; they return an [*Error]
// there instead of hanging.
type Device struct {
	id       gpu.ServiceID // written once
	opts     Options       // written once
	info     AdapterInfo   // written once
	limits   Limits        // written once
	hasTS    bool          // written once: the timestamp feature is on
	maxBatch int           // written once
	workers  int           // written once: Options.CompileWorkers, or the backend's default

	// compileSem holds a token per driver half of a CompileAsync running
	// (compile.go's startDriver): at most workers at once.
	compileSem chan struct{}
	// drivers counts the driver halves in flight (Close waits for them
	// where the backend needs it).
	drivers sync.WaitGroup

	closed atomic.Bool // set once, first thing in Close

	// life is read-locked by every call that touches the driver's objects
	// and write-locked by Close and Buffer.Release, so that neither frees
	// an object another call is using.
	life  sync.RWMutex
	leave func() // written once: life.RUnlock, made once so that enter does not allocate

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
	mu         sync.Mutex           // guards buffers, textures, samplers and failedFronts
	buffers    map[*Buffer]struct{} // guarded by mu: live buffers
	// failedFronts are pipelines whose driver half failed after their
	// front half was handed out: their bind group layouts are released by
	// Close (a launch may have made bind groups from them).
	failedFronts []*pipeline // guarded by mu
	stageMu      sync.Mutex  // guards staging
	staging      stagingPool // guarded by stageMu: idle and draining staging buffers (staging.go)
	poolMu       sync.Mutex  // guards temp
	temp         tempPool    // guarded by poolMu: recycled buffers and textures for TempBuffer and TempTexture (pool.go)

	// The live textures and samplers (texture.go, sampler.go), guarded by
	// mu, and how many textures NewTexture created.
	textures        map[*Texture]struct{}
	samplers        map[*Sampler]struct{}
	texturesCreated atomic.Int64

	buffersCreated atomic.Int64 // buffers NewBuffer created
	compiles       atomic.Int64 // pipelines built (tests read it)

	// bufEpoch grows whenever a buffer is released or recycled, so that a
	// graph whose last check saw the same epoch skips checking its buffers.
	bufEpoch atomic.Uint64

	// The compile clock (compile.go's compileBegin, compileEnd): the time
	// some compile was in progress.
	compileMu     sync.Mutex    // a leaf
	compileActive int           // guarded by compileMu: builds in progress
	compileSince  time.Time     // guarded by compileMu: when compileActive last became nonzero
	compileBusy   time.Duration // guarded by compileMu: the time compileActive was nonzero, until compileSince

	skipChecks bool // written once (tests): Launch skips the front-end's size and usage checks

	deviceDriver // the backend's own: its driver objects (device_native.go, device_js.go)
}

var (
	_ gpu.Service    = (*Device)(nil)
	_ gpu.GPUTimer   = (*Device)(nil)
	_ gpu.Identifier = (*Device)(nil)
)

// newDevice makes a device's shared state for a backend's Open, which then
// fills in its deviceDriver.
func newDevice(opts Options, info AdapterInfo, limits Limits) *Device {
	d := &Device{
		id:         gpu.NewServiceID(),
		opts:       opts,
		info:       info,
		limits:     limits,
		maxBatch:   opts.MaxBatch,
		workers:    opts.CompileWorkers,
		pipelines:  xsync.NewMapOf[[32]byte, *pipeline](),
		streams:    xsync.NewMapOf[gpu.StreamID, *stream](),
		byKernel:   xsync.NewMapOf[*gpu.Kernel, *kernelEntry](),
		bindGroups: map[bgKey]*bindGroup{},
		buffers:    map[*Buffer]struct{}{},
		textures:   map[*Texture]struct{}{},
		samplers:   map[*Sampler]struct{}{},
	}
	d.leave = d.life.RUnlock
	d.staging.all = map[*staging]struct{}{}
	d.staging.limit = poolLimit(opts.StagingPoolBytes, DefaultStagingPoolBytes)
	d.temp.free = map[tempKey][]pooled[*Buffer]{}
	d.temp.textures = map[TextureDesc][]pooled[*Texture]{}
	d.temp.limit = poolLimit(opts.TempPoolBytes, DefaultTempPoolBytes)
	if d.maxBatch <= 0 {
		d.maxBatch = DefaultMaxBatch
	}
	if d.workers <= 0 {
		d.workers = defaultCompileWorkers()
	}
	d.compileSem = make(chan struct{}, d.workers)
	return d
}

// enter read-locks the device for op, the one way into a call that
// touches the driver's objects:
//
//	leave, err := d.enter(op)
//	if err != nil {
//		return err
//	}
//	defer leave()
//
// It returns an error matching [ErrClosed] once Close has begun, and one
// naming the nil device for a nil d.
func (d *Device) enter(op string) (leave func(), err error) {
	if d == nil {
		return nil, nilDeviceError(op)
	}
	if d.closed.Load() {
		return nil, closedError(op)
	}
	d.life.RLock()
	if d.closed.Load() {
		d.life.RUnlock()
		return nil, closedError(op)
	}
	return d.leave, nil
}

// ServiceID returns the device's process-unique id (the first device opened
// gets 1).
func (d *Device) ServiceID() gpu.ServiceID {
	if d == nil {
		return 0
	}
	return d.id
}

// Info describes the device's adapter. Timestamps reports whether the
// device (not only the adapter) has timestamp queries on. In a browser it
// is the page's adapter: its vendor, architecture and description, and
// whether it is a fallback (software) adapter.
func (d *Device) Info() AdapterInfo {
	if d == nil {
		return AdapterInfo{}
	}
	return d.info
}

// AdapterIdentity names the adapter for caches keyed by hardware: name,
// vendor, driver and backend, and the PCI ids (on the desktop) or the
// architecture (in a browser, which has no PCI ids). It implements
// [gpu.Identifier].
func (d *Device) AdapterIdentity() string {
	if d == nil {
		return ""
	}
	i := d.info
	if i.Backend == BackendBrowser {
		return fmt.Sprintf("%s|%s|%s|%s|%s", i.Name, i.Vendor, i.Architecture, i.Driver, i.Backend)
	}
	return fmt.Sprintf("%s|%s|%#x:%#x|%s|%s", i.Name, i.Vendor, i.VendorID, i.DeviceID, i.Driver, i.Backend)
}

// Limits returns the device's limits.
func (d *Device) Limits() Limits {
	if d == nil {
		return Limits{}
	}
	return d.limits
}

// HasTimestamps reports whether [Device.TimeStream] can measure on this
// device (never in a browser, nor on a device without timestamp queries).
// With TimeStream it implements [gpu.GPUTimer].
func (d *Device) HasTimestamps() bool { return d != nil && d.hasTS }

// CompileWorkers returns how many kernels [Device.Precompile] compiles at
// once: [Options].CompileWorkers, or, when that is 0, GOMAXPROCS at Open on
// the desktop and 1 in a browser (the page has one thread; the browser
// compiles in the background).
func (d *Device) CompileWorkers() int {
	if d == nil {
		return 0
	}
	return d.workers
}

// Close discards every stream's unsubmitted launches, waits for submitted
// work, and releases every driver object of the device: pipelines, layouts,
// bind groups, buffers (staging and pooled ones too), textures (their views
// too) and samplers, and the device itself. It waits for calls in progress
// (in a browser, from a goroutine, for compiles in flight too; inside a
// js.FuncOf callback those fail with [ErrClosed] instead); every later call
// on the device or its buffers returns an error matching [ErrClosed], and a
// read-back it interrupts does too. Closing twice, or a nil device, is
// harmless (nil).
func (d *Device) Close() error {
	if d == nil || d.closed.Swap(true) {
		return nil
	}
	d.beforeClose()
	d.life.Lock()
	defer d.life.Unlock()
	d.streams.Range(func(_ gpu.StreamID, s *stream) bool {
		s.mu.Lock()
		s.discardLocked()
		s.closed = true
		s.mu.Unlock()
		return true
	})
	d.streams.Clear() // no call reaches a stream once enter refuses it: Stats says none is left
	d.lastStream.Store(nil)
	d.drainQueue()
	d.bgMu.Lock()
	for k, bg := range d.bindGroups {
		d.dropBindGroup(bg)
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
		d.dropBuffer(b.buf)
		delete(d.buffers, b)
	}
	d.mu.Unlock()
	d.closeTextures()
	d.drainQueue()
	freeStagingWords()
	d.closeTemp()
	d.closeDriver()
	return nil
}
