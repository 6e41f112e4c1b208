//go:build cgo

package wgpu

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/puzpuzpuz/xsync/v3"
	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"

	"github.com/streamgate/streamgate/gpu"
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

	inst    *gowgpu.Instance // written once; released by Close
	adapter *gowgpu.Adapter  // written once; released by Close
	dev     *gowgpu.Device   // written once; released by Close
	queue   *gowgpu.Queue    // written once; released by Close

	closed atomic.Bool // set once, first thing in Close
	torn   atomic.Bool // set once, under life's write lock, when Close released the device

	// life is read-locked by every call that touches wgpu objects and
	// write-locked by Close and Buffer.Release, so that neither frees an
	// object another call is using.
	life sync.RWMutex

	// scopeMu serializes the calls that push and pop an error scope:
	// wgpu-native's scopes are per device, not per thread, so two
	// concurrent scoped calls could pop each other's errors.
	scopeMu sync.Mutex

	pipelines *xsync.MapOf[[32]byte, *pipeline]   // lock-free; entries immutable once done
	streams   *xsync.MapOf[gpu.StreamID, *stream] // lock-free

	bgMu       sync.Mutex           // guards bindGroups and Buffer.bindGroups
	bindGroups map[bgKey]*bindGroup // guarded by bgMu
	mu         sync.Mutex           // guards buffers and abandoned
	buffers    map[*Buffer]struct{} // guarded by mu: live buffers
	abandoned  []statusWord         // guarded by mu: freed by Close
	closeHook  func(*Device)        // written once (tests): runs in Close before the device is released
	compiles   atomic.Int64         // pipelines built (tests read it)
}

var _ gpu.Service = (*Device)(nil)

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
	var features []gowgpu.FeatureName
	hasTS := info.Timestamps && !opts.DisableTimestamps
	if hasTS {
		features = append(features, gowgpu.FeatureName_TimestampQuery)
	}
	limits := adapter.GetLimits().Limits
	dev, err := adapter.RequestDevice(&gowgpu.DeviceDescriptor{
		Label:            "streamgate",
		RequiredFeatures: features,
		RequiredLimits:   &gowgpu.RequiredLimits{Limits: limits},
	})
	if err != nil {
		adapter.Release()
		inst.Release()
		return nil, &Error{Op: "Open", Type: ErrorTypeInternal, Message: "request device: " + err.Error()}
	}
	setUncapturedErrorCallback(dev)
	d := &Device{
		id:         gpu.NewServiceID(),
		opts:       opts,
		info:       info,
		limits:     limitsOf(dev.GetLimits().Limits),
		hasTS:      hasTS && dev.HasFeature(gowgpu.FeatureName_TimestampQuery),
		maxBatch:   opts.MaxBatch,
		inst:       inst,
		adapter:    adapter,
		dev:        dev,
		queue:      dev.GetQueue(),
		pipelines:  xsync.NewMapOf[[32]byte, *pipeline](),
		streams:    xsync.NewMapOf[gpu.StreamID, *stream](),
		bindGroups: map[bgKey]*bindGroup{},
		buffers:    map[*Buffer]struct{}{},
	}
	d.info.Timestamps = d.hasTS
	if d.maxBatch <= 0 {
		d.maxBatch = DefaultMaxBatch
	}
	return d, nil
}

// ServiceID returns the device's process-unique id (the first device opened
// gets 1).
func (d *Device) ServiceID() gpu.ServiceID { return d.id }

// Info describes the device's adapter. Timestamps reports whether the
// device (not only the adapter) has timestamp queries on.
func (d *Device) Info() AdapterInfo { return d.info }

// AdapterIdentity names the adapter for caches keyed by hardware: name,
// vendor, driver and backend. It implements tune.Identifier.
func (d *Device) AdapterIdentity() string {
	return fmt.Sprintf("%s|%s|%#x:%#x|%s|%s", d.info.Name, d.info.Vendor, d.info.VendorID, d.info.DeviceID, d.info.Driver, d.info.Backend)
}

// Compiles returns how many pipeline builds the device has started: once per
// distinct kernel that compiled, plus once per failed attempt. A program can
// check with it that a warm-up pass compiled every kernel and the real pass
// compiled none.
func (d *Device) Compiles() int64 { return d.compiles.Load() }

// Limits returns the device's limits.
func (d *Device) Limits() Limits { return d.limits }

// HasTimestamps reports whether [Device.TimeStream] can measure on this
// device.
func (d *Device) HasTimestamps() bool { return d.hasTS }

// acquire read-locks the device for op, or returns its ErrClosed error.
// The caller must call d.life.RUnlock when acquire returns nil.
func (d *Device) acquire(op string) error {
	if d.closed.Load() {
		return closedError(op)
	}
	d.life.RLock()
	if d.closed.Load() {
		d.life.RUnlock()
		return closedError(op)
	}
	return nil
}

// scoped runs f, a go-webgpu call that pushes and pops an error scope, with
// the device's scope mutex held, and converts its error.
func (d *Device) scoped(op string, f func() error) error {
	d.scopeMu.Lock()
	err := f()
	d.scopeMu.Unlock()
	return nativeError(op, err)
}

// abandon hands st (whose callback may still run) to Close to free, or
// frees it when Close has already released the device.
func (d *Device) abandon(st statusWord) {
	d.life.RLock()
	defer d.life.RUnlock()
	if d.torn.Load() {
		st.free()
		return
	}
	d.mu.Lock()
	d.abandoned = append(d.abandoned, st)
	d.mu.Unlock()
}

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
	d.dev.Poll(true, nil)
	d.bgMu.Lock()
	for k, bg := range d.bindGroups {
		bg.bg.Release()
		delete(d.bindGroups, k)
	}
	d.bgMu.Unlock()
	d.pipelines.Range(func(k [32]byte, p *pipeline) bool {
		// A compile holds life while it builds, so each entry is either
		// done or has not started (and will fail with ErrClosed).
		select {
		case <-p.done:
			p.release()
		default:
		}
		return true
	})
	d.pipelines.Clear()
	d.mu.Lock()
	for b := range d.buffers {
		b.released.Store(true)
		b.buf.Release()
		delete(d.buffers, b)
	}
	d.mu.Unlock()
	d.dev.Poll(true, nil)
	if d.closeHook != nil {
		d.closeHook(d)
	}
	d.queue.Release()
	d.dev.Release()
	d.adapter.Release()
	d.inst.Release()
	d.mu.Lock()
	for _, st := range d.abandoned {
		st.free()
	}
	d.abandoned = nil
	d.mu.Unlock()
	d.torn.Store(true)
	return nil
}

// waitStatus polls the device until st is set or ctx is done. It must be
// called without d.life held; it read-locks it around each poll.
func (d *Device) waitStatus(ctx context.Context, op string, st statusWord) error {
	backoff := 0
	for {
		if st.load() != 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := d.acquire(op); err != nil {
			return err
		}
		if ctx.Done() == nil && backoff > 2 {
			// Nothing to cancel us: let the driver block until the
			// queue drains instead of spinning.
			d.dev.Poll(true, nil)
		} else {
			d.dev.Poll(false, nil)
		}
		d.life.RUnlock()
		if st.load() != 0 {
			return nil
		}
		pause(backoff)
		backoff++
	}
}
