//go:build js && wasm

package wgpu

// Lock order (acquire top to bottom; never the other way):
//
//	Device.life (RW: every call reads it; Close and Buffer.Release write it)
//	  stream.mu (one stream's pending work; never two at once)
//	    Device.bgMu, Buffer.mu, Device.mu, Device.retired.mu, Device.poolMu,
//	    Device.jsMu (leaves)
//
// No lock is held while a promise is awaited (compiles, Sync, reads).

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/gpu"
)

// Device is one WebGPU device of the page (navigator.gpu) and its queue,
// reached through logical streams; it implements gpu.Service. This is the
// build for GOOS=js GOARCH=wasm: the same API as the desktop build's, on
// the browser's WebGPU.
//
// Launches are checked and recorded in Go into an integer command list per
// stream; a flush hands the list to the page in one call, which encodes
// the compute pass and submits it. The calls that wait for the browser
// (Open, compiles, Sync, reads, Close) await its promises: call them from
// a goroutine, never inside a js.FuncOf callback, where the page's event
// loop waits for the callback and the promise could never resolve; they
// return an [*Error] there instead of hanging.
//
// A Device is safe for concurrent use by multiple goroutines. The zero
// value is not usable; use [Open]. A Device must not be copied.
type Device struct {
	id       gpu.ServiceID // written once
	opts     Options       // written once
	info     AdapterInfo   // written once
	limits   Limits        // written once
	maxBatch int           // written once
	workers  int           // written once

	dev js.Value   // written once: the GPUDevice
	rt  *jsRuntime // written once: the page's side (jsrt_js.go)

	closed atomic.Bool
	life   sync.RWMutex
	leave  func() // life.RUnlock

	jsMu sync.Mutex // a leaf: a pair of calls sharing rt's command bytes (load, then use)

	pipelines *xsync.MapOf[[32]byte, *pipeline]
	byKernel  *xsync.MapOf[*gpu.Kernel, *kernelEntry]
	recent    [kernelSlots]atomic.Pointer[kernelEntry] // by kernelSlot: the launch path's one load
	// lastStream is the stream the last launch locked, so that a loop on
	// one stream skips the map (lockStream checks it is not closed).
	lastStream atomic.Pointer[stream]
	streams    *xsync.MapOf[gpu.StreamID, *stream]
	retired    retiredSet

	bgMu       sync.Mutex
	bindGroups map[bgKey]*bindGroup // guarded by bgMu
	mu         sync.Mutex
	buffers    map[*Buffer]struct{} // guarded by mu
	poolMu     sync.Mutex
	temp       map[tempKey][]*Buffer // guarded by poolMu: recycled buffers
	tempHeld   int                   // guarded by poolMu
	tempBytes  uint64                // guarded by poolMu
	tempHits   int64                 // guarded by poolMu
	tempMisses int64                 // guarded by poolMu

	bufEpoch       atomic.Uint64
	buffersCreated atomic.Int64
	compiles       atomic.Int64
	uncaptured     atomic.Uint64
	compileNanos   atomic.Int64
	drivers        sync.WaitGroup // compiles' driver halves in flight
	onError        js.Func        // the device's uncapturederror handler; released by Close
	skipChecks     bool           // tests
}

// tempKey is what a recycled buffer is reused for.
type tempKey struct {
	size  uint64
	usage BufferUsage
}

var (
	_ gpu.Service    = (*Device)(nil)
	_ gpu.GPUTimer   = (*Device)(nil)
	_ gpu.Identifier = (*Device)(nil)
)

var (
	devicesMu sync.Mutex
	devices   []*Device // open devices, for Devices
)

// noWebGPU says what a page without navigator.gpu lacks.
const noWebGPU = "this page has no navigator.gpu, so no WebGPU: it needs a secure context " +
	"(https://, or http://127.0.0.1 or localhost) and a browser with WebGPU on " +
	"(Chromium on Linux: --enable-unsafe-webgpu, or chrome://flags/#enable-unsafe-webgpu)"

// noAdapter says why requestAdapter may return null.
const noAdapter = "navigator.gpu.requestAdapter returned null: the browser offers no adapter. " +
	"Chromium on Linux needs --enable-unsafe-webgpu (chrome://flags/#enable-unsafe-webgpu); headless, it may also need " +
	"--use-angle=swiftshader --enable-features=Vulkan; a GPU or driver on the browser's blocklist gives none either " +
	"(chrome://gpu says which)"

// Open requests an adapter from the page's navigator.gpu (Options'
// PowerPreference, ForceFallbackAdapter and Compatibility, WebGPU's
// featureLevel "compatibility") and a device with the adapter's limits.
// Without navigator.gpu, or when the browser returns no adapter, it
// returns an error matching [ErrNoAdapter] that names the flag or setting
// missing. It waits for the browser: call it from a goroutine, not inside
// a js.FuncOf callback. Options.Adapter may be "" or "0" (the page has one
// adapter) or a substring of its description or vendor; Backend must be
// BackendAny or BackendBrowser.
func Open(opts Options) (*Device, error) {
	const op = "Open"
	ctx := context.Background()
	adapter, info, err := requestAdapter(ctx, op, opts)
	if err != nil {
		return nil, err
	}
	alim := adapter.Get("limits")
	req := js.Global().Get("Object").New()
	for _, name := range requestedLimits {
		if v := alim.Get(name); v.Type() == js.TypeNumber {
			req.Set(name, v)
		}
	}
	desc := js.Global().Get("Object").New()
	desc.Set("label", "streamgate")
	desc.Set("requiredLimits", req)
	dv, err := await(ctx, op, adapter.Call("requestDevice", desc))
	if err != nil {
		return nil, &Error{Op: op, Type: ErrorTypeInternal, Message: "request device: the browser refused: " + err.(*Error).Message}
	}
	d := &Device{
		id:         gpu.NewServiceID(),
		opts:       opts,
		info:       info,
		limits:     limitsOf(dv.Get("limits")),
		maxBatch:   opts.MaxBatch,
		workers:    opts.CompileWorkers,
		dev:        dv,
		rt:         newRuntime(dv, poolLimit(opts.StagingPoolBytes, DefaultStagingPoolBytes)),
		pipelines:  xsync.NewMapOf[[32]byte, *pipeline](),
		byKernel:   xsync.NewMapOf[*gpu.Kernel, *kernelEntry](),
		streams:    xsync.NewMapOf[gpu.StreamID, *stream](),
		bindGroups: map[bgKey]*bindGroup{},
		buffers:    map[*Buffer]struct{}{},
		temp:       map[tempKey][]*Buffer{},
	}
	d.leave = d.life.RUnlock
	if d.maxBatch <= 0 {
		d.maxBatch = DefaultMaxBatch
	}
	if d.workers <= 0 {
		d.workers = 1
	}
	d.onError = js.FuncOf(func(_ js.Value, args []js.Value) any {
		d.uncaptured.Add(1)
		uncapturedTotal.Add(1)
		msg := "uncaptured error"
		if len(args) > 0 {
			if e := args[0].Get("error"); e.Truthy() {
				msg = jsMessage(e)
			}
		}
		d.logger().Warn("wgpu: uncaptured WebGPU error", "device", uint64(d.id), "message", msg)
		return nil
	})
	dv.Call("addEventListener", "uncapturederror", d.onError)
	devicesMu.Lock()
	devices = append(devices, d)
	devicesMu.Unlock()
	return d, nil
}

// uncapturedTotal counts the uncaptured errors of every device.
var uncapturedTotal atomic.Uint64

// requestedLimits are the adapter limits Open asks the device for.
var requestedLimits = []string{
	"maxBufferSize", "maxStorageBufferBindingSize", "maxUniformBufferBindingSize", "maxBindGroups",
	"maxStorageBuffersPerShaderStage", "maxUniformBuffersPerShaderStage", "maxComputeWorkgroupStorageSize",
	"maxComputeInvocationsPerWorkgroup", "maxComputeWorkgroupSizeX", "maxComputeWorkgroupSizeY",
	"maxComputeWorkgroupSizeZ", "maxComputeWorkgroupsPerDimension",
}

// requestAdapter asks navigator.gpu for the adapter opts describe.
func requestAdapter(ctx context.Context, op string, opts Options) (js.Value, AdapterInfo, error) {
	if opts.Backend != BackendAny && opts.Backend != BackendBrowser {
		return js.Value{}, AdapterInfo{}, newError(op, ErrorTypeUnsupported, "backend %v: in a browser the only backend is the page's WebGPU (BackendBrowser)", opts.Backend)
	}
	nav := js.Global().Get("navigator")
	if !nav.Truthy() || !nav.Get("gpu").Truthy() {
		msg := noWebGPU
		if sc := js.Global().Get("isSecureContext"); sc.Type() == js.TypeBoolean && !sc.Bool() {
			msg += " (this page is not a secure context)"
		}
		return js.Value{}, AdapterInfo{}, &Error{Op: op, Type: ErrorTypeNoAdapter, Message: msg}
	}
	o := js.Global().Get("Object").New()
	switch opts.PowerPreference {
	case PowerPreferenceLowPower:
		o.Set("powerPreference", "low-power")
	case PowerPreferenceHighPerformance:
		o.Set("powerPreference", "high-performance")
	}
	if opts.ForceFallbackAdapter {
		o.Set("forceFallbackAdapter", true)
	}
	if opts.Compatibility {
		o.Set("featureLevel", "compatibility")
	}
	a, err := await(ctx, op, nav.Get("gpu").Call("requestAdapter", o))
	if err != nil {
		return js.Value{}, AdapterInfo{}, err
	}
	if !a.Truthy() {
		msg := noAdapter
		if !opts.Compatibility {
			msg += "; a browser or driver that offers only WebGPU's compatibility feature level needs Options.Compatibility"
		}
		return js.Value{}, AdapterInfo{}, &Error{Op: op, Type: ErrorTypeNoAdapter, Message: msg}
	}
	info := adapterInfoOf(a)
	if sel := opts.Adapter; sel != "" && sel != "0" {
		lsel := strings.ToLower(sel)
		if _, err := strconv.Atoi(sel); err == nil ||
			!(strings.Contains(strings.ToLower(info.Name), lsel) || strings.Contains(strings.ToLower(info.Vendor), lsel)) {
			return js.Value{}, AdapterInfo{}, &Error{Op: op, Type: ErrorTypeNoAdapter,
				Message: fmt.Sprintf("no adapter %q: the page's one adapter (index 0) is %q (%s)", sel, info.Name, info.Vendor)}
		}
	}
	return a, info, nil
}

// adapterInfoOf reads a GPUAdapter's info.
func adapterInfoOf(a js.Value) AdapterInfo {
	ai := a.Get("info")
	str := func(name string) string {
		if ai.Truthy() {
			if v := ai.Get(name); v.Type() == js.TypeString {
				return v.String()
			}
		}
		return ""
	}
	info := AdapterInfo{
		Vendor:       str("vendor"),
		Architecture: str("architecture"),
		Driver:       str("description"),
		Name:         str("description"),
		Backend:      BackendBrowser,
	}
	if info.Name == "" {
		info.Name = strings.TrimSpace(info.Vendor + " " + info.Architecture + " " + str("device"))
	}
	fb := a.Get("isFallbackAdapter")
	if ai.Truthy() && ai.Get("isFallbackAdapter").Type() == js.TypeBoolean {
		fb = ai.Get("isFallbackAdapter")
	}
	info.Fallback = fb.Type() == js.TypeBoolean && fb.Bool()
	if info.Fallback {
		info.Type = AdapterTypeCPU
	}
	return info
}

// limitsOf reads a GPUSupportedLimits.
func limitsOf(l js.Value) Limits {
	u64 := func(n string) uint64 { return uint64(l.Get(n).Float()) }
	u32 := func(n string) uint32 { return uint32(l.Get(n).Float()) }
	return Limits{
		MaxBufferSize:                     u64("maxBufferSize"),
		MaxStorageBufferBindingSize:       u64("maxStorageBufferBindingSize"),
		MaxUniformBufferBindingSize:       u64("maxUniformBufferBindingSize"),
		MaxBindGroups:                     u32("maxBindGroups"),
		MaxStorageBuffersPerShaderStage:   u32("maxStorageBuffersPerShaderStage"),
		MaxUniformBuffersPerShaderStage:   u32("maxUniformBuffersPerShaderStage"),
		MaxBindingsPerBindGroup:           u32("maxBindingsPerBindGroup"),
		MaxComputeWorkgroupStorageSize:    u32("maxComputeWorkgroupStorageSize"),
		MaxComputeInvocationsPerWorkgroup: u32("maxComputeInvocationsPerWorkgroup"),
		MaxComputeWorkgroupSizeX:          u32("maxComputeWorkgroupSizeX"),
		MaxComputeWorkgroupSizeY:          u32("maxComputeWorkgroupSizeY"),
		MaxComputeWorkgroupSizeZ:          u32("maxComputeWorkgroupSizeZ"),
		MaxComputeWorkgroupsPerDimension:  u32("maxComputeWorkgroupsPerDimension"),
		MinStorageBufferOffsetAlignment:   u32("minStorageBufferOffsetAlignment"),
		MinUniformBufferOffsetAlignment:   u32("minUniformBufferOffsetAlignment"),
	}
}

// Adapters lists the page's adapter: navigator.gpu offers one, for the
// default options. It waits for the browser (see [Open]).
func Adapters() ([]AdapterInfo, error) {
	_, info, err := requestAdapter(context.Background(), "Adapters", Options{})
	if err != nil {
		return nil, err
	}
	return []AdapterInfo{info}, nil
}

// ServiceID returns the device's process-unique id.
func (d *Device) ServiceID() gpu.ServiceID { return d.id }

// Info describes the device's adapter: the browser's vendor, architecture
// and description, and whether it is a fallback (software) adapter.
func (d *Device) Info() AdapterInfo { return d.info }

// AdapterIdentity names the adapter for caches keyed by hardware.
func (d *Device) AdapterIdentity() string {
	return fmt.Sprintf("%s|%s|%s|%s|%s", d.info.Name, d.info.Vendor, d.info.Architecture, d.info.Driver, d.info.Backend)
}

// Limits returns the device's limits.
func (d *Device) Limits() Limits { return d.limits }

// HasTimestamps returns false: the js build does not measure with
// timestamp queries ([Device.TimeStream] is unsupported).
func (d *Device) HasTimestamps() bool { return false }

// TimeStream returns an [*Error] of type [ErrorTypeUnsupported] and does
// not call fn: the js build has no timestamp queries.
func (d *Device) TimeStream(ctx context.Context, id gpu.StreamID, fn func() error) (time.Duration, error) {
	if d.closed.Load() {
		return 0, closedError("TimeStream")
	}
	return 0, newError("TimeStream", ErrorTypeUnsupported, "the js build has no timestamp queries (Device.HasTimestamps is false)")
}

// Close discards every stream's unsubmitted launches, destroys the
// device's buffers and the device, and releases the callbacks it made.
// It waits for calls in progress, and, from a goroutine, for compiles in
// flight (inside a js.FuncOf callback it does not wait for them: they
// fail with [ErrClosed]). Every later call returns an error matching
// [ErrClosed]. Closing twice is harmless.
func (d *Device) Close() error {
	if d.closed.Swap(true) {
		return nil
	}
	if !inCallback() {
		d.drivers.Wait()
	}
	d.life.Lock()
	defer d.life.Unlock()
	d.streams.Range(func(_ gpu.StreamID, s *stream) bool {
		s.mu.Lock()
		s.clearLocked()
		s.closed = true
		s.mu.Unlock()
		return true
	})
	d.streams.Clear()
	d.bgMu.Lock()
	clear(d.bindGroups)
	d.bgMu.Unlock()
	d.pipelines.Clear()
	d.byKernel.Clear()
	for i := range d.recent {
		d.recent[i].Store(nil)
	}
	d.lastStream.Store(nil)
	d.mu.Lock()
	for b := range d.buffers {
		b.released.Store(true)
		delete(d.buffers, b)
	}
	d.mu.Unlock()
	d.poolMu.Lock()
	clear(d.temp)
	d.tempHeld, d.tempBytes = 0, 0
	d.poolMu.Unlock()
	d.dev.Call("removeEventListener", "uncapturederror", d.onError)
	d.onError.Release()
	d.rt.destroyDevice.Invoke() // destroys its buffers too
	devicesMu.Lock()
	for i, x := range devices {
		if x == d {
			devices = append(devices[:i], devices[i+1:]...)
			break
		}
	}
	devicesMu.Unlock()
	return nil
}

// Devices returns the devices open in this process, in the order they
// were opened.
func Devices() []*Device {
	devicesMu.Lock()
	defer devicesMu.Unlock()
	return append([]*Device(nil), devices...)
}

// SetLogLevel does nothing in a browser (the browser's console has the
// driver's messages); it panics on an invalid level, as the desktop build
// does.
func SetLogLevel(l LogLevel) {
	if l > LogTrace {
		panic(fmt.Sprintf("wgpu: invalid LogLevel %d", l))
	}
}

var jsLogger atomic.Pointer[slog.Logger]

// SetLogger sets the logger of messages not tied to a device's Options.Logger; nil
// means slog.Default().
func SetLogger(l *slog.Logger) { jsLogger.Store(l) }

func (d *Device) logger() *slog.Logger {
	if d.opts.Logger != nil {
		return d.opts.Logger
	}
	if l := jsLogger.Load(); l != nil {
		return l
	}
	return slog.Default()
}

// CompileWorkers returns [Options].CompileWorkers, or 1 when that is 0
// (the page has one thread; the browser compiles in the background).
func (d *Device) CompileWorkers() int { return d.workers }

// Stats returns what the device holds and has done.
func (d *Device) Stats() Stats {
	st := Stats{
		Compiles:         d.compiles.Load(),
		CompileTime:      time.Duration(d.compileNanos.Load()),
		PipelinesCached:  d.pipelines.Size(),
		StreamsLive:      d.streams.Size(),
		UncapturedErrors: uncapturedTotal.Load(),
		BuffersCreated:   d.buffersCreated.Load(),
	}
	stg := d.rt.staging.Invoke()
	st.StagingCreated = int64(stg.Index(0).Int())
	st.StagingHeld, st.StagingBytesHeld = stg.Index(1).Int(), uint64(stg.Index(2).Int())
	d.mu.Lock()
	st.BuffersLive = len(d.buffers)
	d.mu.Unlock()
	d.bgMu.Lock()
	st.BindGroupsLive = len(d.bindGroups)
	d.bgMu.Unlock()
	d.poolMu.Lock()
	st.TempHits, st.TempMisses, st.TempHeld, st.TempBytesHeld = d.tempHits, d.tempMisses, d.tempHeld, d.tempBytes
	d.poolMu.Unlock()
	return st
}
