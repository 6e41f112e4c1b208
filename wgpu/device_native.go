//go:build cgo

package wgpu

import (
	"context"
	"runtime"
	"runtime/cgo"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/wgpu/internal/naga"
	"github.com/streamgate/streamgate/wgpu/internal/xdg"
)

// deviceDriver is the desktop backend's part of a Device: wgpu-native's
// objects, and the error scopes of the calls into it.
type deviceDriver struct {
	inst    nInstance // written once; released by Close
	adapter nAdapter  // written once; released by Close
	dev     nDevice   // written once; released by Close, last
	queue   nQueue    // written once; released by Close

	torn atomic.Bool // set once, under life's write lock, when Close released the device

	// scopeMu serializes the shims that push and pop error scopes
	// (cgo_native.go, transfer_native.go): wgpu-native's scopes are per device,
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

	closeHook func(*Device) // written once (tests): runs in Close before the device is released
	handle    cgo.Handle    // written once: d, for the uncaptured-error callback; deleted by Close
}

// haveDevice: this build opens devices.
const haveDevice = true

// defaultCompileWorkers is CompileWorkers when Options leave it 0.
func defaultCompileWorkers() int { return runtime.GOMAXPROCS(0) }

// Open creates a device on the adapter that best fits opts (see
// [Options].Adapter to choose one by index or name). It requests the
// adapter's limits and, unless disabled, the timestamp-query feature when
// the adapter has it. When no adapter fits it returns an error matching
// [ErrNoAdapter]. It first makes sure XDG_RUNTIME_DIR is usable (see the
// package documentation).
func Open(opts Options) (*Device, error) {
	xdg.PrepareRuntimeDir()
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
	d := newDevice(opts, info, dev.limits())
	d.hasTS = hasTS && dev.hasFeature(featureTimestampQuery)
	d.inst, d.adapter, d.dev, d.queue = inst, adapter, dev, dev.queue()
	d.info.Timestamps = d.hasTS
	d.handle = cgo.NewHandle(d)
	setUncapturedErrorCallback(dev, d.handle)
	naga.Reserve(d.workers)
	track(d) // observe.go: Devices
	return d, nil
}

// beforeClose does nothing on the desktop: a compile's driver half holds
// the device's life lock while it builds, so Close waits for it there.
func (d *Device) beforeClose() {}

// drainQueue waits until the queue has done all submitted work.
func (d *Device) drainQueue() { d.dev.poll(true) }

// closeDriver releases the device, its queue, its adapter and its
// instance, last in Close.
func (d *Device) closeDriver() {
	if d.closeHook != nil {
		d.closeHook(d)
	}
	d.queue.release()
	d.dev.release()
	d.handle.Delete()
	d.adapter.release()
	d.inst.release()
	d.torn.Store(true)
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
