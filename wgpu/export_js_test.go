//go:build js && wasm

package wgpu

import (
	"context"
	"syscall/js"

	"github.com/streamgate/streamgate/gpu"
)

// Test hooks of the js build (export_test.go has the desktop's).

// Pending returns how many dispatches stream id has recorded and not yet
// submitted.
func Pending(d *Device, id uint64) int {
	s, ok := d.streams.Load(gpu.StreamID(id))
	if !ok {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.launches
}

// Streams returns how many streams d keeps state for.
func Streams(d *Device) int { return d.streams.Size() }

// Users returns how many streams have pending work that binds b.
func Users(b *Buffer) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.users)
}

// SkipLaunchChecks makes d's Launch skip the size and usage checks of the
// WGSL front-end, so that a bad binding reaches the browser.
func SkipLaunchChecks(d *Device) { d.skipChecks = true }

// BindGroups is how many bind groups the device caches.
func BindGroups(d *Device) int {
	d.bgMu.Lock()
	defer d.bgMu.Unlock()
	return len(d.bindGroups)
}

// KernelsIndexed returns how many kernels d's index by kernel pointer holds.
func KernelsIndexed(d *Device) int { return d.byKernel.Size() }

// UncapturedErrors returns how many WebGPU errors escaped every error scope.
func UncapturedErrors() uint64 { return uncapturedTotal.Load() }

// KernelIndexMin is the size the index by kernel pointer may reach before it
// is emptied.
const KernelIndexMin = kernelIndexMin

// PlainJSLaunches returns a function that records n launches of k (which
// must be compiled on d) in plain JavaScript, one JS call: a compute pass
// whose loop calls setPipeline, setBindGroup and dispatchWorkgroups(1) for
// each launch, alternating the bind groups of bufs[0] and bufs[1] (one
// buffer each, at k's one binding), then submits it. It is what
// BenchmarkWeb compares Launch with.
func PlainJSLaunches(d *Device, k *gpu.Kernel, n int, bufs [2]*Buffer) (func(), error) {
	p, err := d.pipelineFor(context.Background(), k)
	if err != nil {
		return nil, err
	}
	var bgs [2]js.Value
	for i, b := range bufs {
		g := &p.groups[0]
		bg, err := d.bindGroupFor("bench", keyOf(g, []*Buffer{b}), []*Buffer{b})
		if err != nil {
			return nil, err
		}
		bgs[i] = d.rt.get.Invoke(bg.bg)
	}
	fn := js.Global().Get("Function").New("device", "pipe", "bg0", "bg1", "n", `
		const enc = device.createCommandEncoder();
		const pass = enc.beginComputePass();
		for (let i = 0; i < n; i++) {
			pass.setPipeline(pipe);
			pass.setBindGroup(0, (i & 1) ? bg1 : bg0);
			pass.dispatchWorkgroups(1);
		}
		pass.end();
		device.queue.submit([enc.finish()]);`)
	pipe := d.rt.get.Invoke(p.pipe)
	return func() { fn.Invoke(d.dev, pipe, bgs[0], bgs[1], n) }, nil
}
