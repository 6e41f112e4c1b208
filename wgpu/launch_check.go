package wgpu

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The checks of a launch before it is recorded, shared by the desktop
// build and the browser's (js): both keep a pipeline's name and
// bindings, and a buffer's size, usage and liveness, in the same fields.

// checkBindings makes the checks of a launch of p, compiled at least to
// its front half.
func (d *Device) checkBindings(op string, p *pipeline, workgroups [3]uint32, bindings []gpu.Buffer, bufs []*Buffer) (*pipeline, []*Buffer, error) {
	if lim := d.limits.MaxComputeWorkgroupsPerDimension; workgroups[0] > lim || workgroups[1] > lim || workgroups[2] > lim {
		return nil, nil, newError(op, ErrorTypeLimit, "%s: workgroups %v exceed maxComputeWorkgroupsPerDimension %d", p.name, workgroups, lim)
	}
	if len(bindings) != len(p.bindings) {
		return nil, nil, newError(op, ErrorTypeValidation, "%s: %d bindings for %d (%s)", p.name, len(bindings), len(p.bindings), bindingList(p.bindings))
	}
	if len(bindings) > cap(bufs) {
		bufs = make([]*Buffer, 0, len(bindings))
	}
	for i, cb := range bindings {
		var b *Buffer
		switch x := cb.(type) {
		case *Buffer:
			b = x
		case *TextureView:
			if x != nil {
				b = &x.slot
			}
		case *Sampler:
			if x != nil {
				b = &x.slot
			}
		}
		if b == nil {
			return nil, nil, newError(op, ErrorTypeInvalidArgument, "%s: %s: %s is not a %s", p.name, p.bindings[i], typeName(cb), p.bindings[i].wants())
		}
		if b.d != d {
			return nil, nil, newError(op, ErrorTypeInvalidArgument, "%s: %s: %s belongs to another device", p.name, p.bindings[i], b.what())
		}
		if err := p.bindings[i].accepts(b); err != nil && !d.skipChecks {
			return nil, nil, newError(op, ErrorTypeValidation, "%s: %v (checked by Launch)", p.name, err)
		}
		bufs = append(bufs, b)
	}
	for i := range bufs {
		for j := i + 1; j < len(bufs); j++ {
			if bufs[i] == bufs[j] && (p.bindings[i].Type == BindingStorageReadWrite || p.bindings[j].Type == BindingStorageReadWrite) {
				return nil, nil, newError(op, ErrorTypeValidation, "%s: %s and %s alias one buffer, and one is read_write (checked by Launch)",
					p.name, p.bindings[i], p.bindings[j])
			}
			if bufs[i].view != nil && bufs[j].view != nil && bufs[i].view.t == bufs[j].view.t &&
				(p.bindings[i].Type == BindingStorageTexture || p.bindings[j].Type == BindingStorageTexture) {
				return nil, nil, newError(op, ErrorTypeValidation, "%s: %s and %s bind one texture, and one binds it as a storage texture (checked by Launch)",
					p.name, p.bindings[i], p.bindings[j])
			}
		}
	}
	return p, bufs, nil
}

// record records a checked launch on stream id: inside the device's life
// (enter) and the stream's lock, every buffer live, the build's
// appendLaunchLocked appends it to the batch, which is submitted when it
// holds MaxBatch launches. It is apart from Launch so that its two defers
// are open-coded (a function with as many returns as Launch pays for its
// defers at run time).
func (d *Device) record(op string, id gpu.StreamID, p *pipeline, bufs []*Buffer, workgroups [3]uint32) error {
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	if i := firstDead(bufs); i >= 0 {
		return d.deadBinding(op, p, i, bufs[i])
	}
	s, err := d.lockStream(op, id)
	if err != nil {
		return err
	}
	defer s.mu.Unlock()
	if err := s.appendLaunchLocked(op, p, bufs, workgroups); err != nil {
		return err
	}
	s.launches++
	if s.launches >= d.maxBatch {
		return s.flushLocked(op)
	}
	return nil
}

// aliased reports whether two of a launch's bindings bind one buffer and
// one of them is read_write, which checkBindings refuses (each build's
// flat path for a repeated launch checks it across groups).
func aliased(p *pipeline, bindings []gpu.Buffer) bool {
	for i := range bindings {
		for j := i + 1; j < len(bindings); j++ {
			if bindings[i] == bindings[j] && (p.bindings[i].Type == BindingStorageReadWrite || p.bindings[j].Type == BindingStorageReadWrite) {
				return true
			}
		}
	}
	return false
}

// firstDead returns the index of the first of bufs that is released or
// recycled, or -1. It inlines, so the launch path pays no call for it.
func firstDead(bufs []*Buffer) int {
	for i, b := range bufs {
		if b.released.Load() || b.recycled.Load() {
			return i
		}
	}
	return -1
}

// deadBinding is the error for binding i's buffer b, released or recycled.
func (d *Device) deadBinding(op string, p *pipeline, i int, b *Buffer) error {
	msg := "buffer is released"
	if err := b.live(op); err != nil {
		msg = err.(*Error).Message
	}
	return newError(op, ErrorTypeInvalidArgument, "%s: %s: %s", p.name, p.bindings[i], msg)
}

// typeName names a binding's dynamic type for an error.
func typeName(b gpu.Buffer) string {
	if b == nil {
		return "nil"
	}
	if wb, ok := b.(*Buffer); ok && wb == nil {
		return "a nil *wgpu.Buffer"
	}
	return fmt.Sprintf("%T", b)
}

// wants names what binding bd binds, for an error.
func (bd Binding) wants() string {
	switch bd.Type {
	case BindingTexture, BindingStorageTexture:
		return "*wgpu.TextureView"
	case BindingSampler:
		return "*wgpu.Sampler"
	}
	return "*wgpu.Buffer"
}

// what names what a slot binds, for an error.
func (b *Buffer) what() string {
	switch {
	case b.view != nil:
		return "texture view"
	case b.sampler != nil:
		return "sampler"
	}
	return "buffer"
}

// accepts checks that b can be bound at this binding: for a buffer
// binding, a buffer large enough and with the usage its kind needs; for a
// texture, storage texture or sampler binding, a view or sampler that fits
// what the binding declares. The error names the binding and what does
// not fit.
func (bd Binding) accepts(b *Buffer) error {
	switch bd.Type {
	case BindingTexture, BindingStorageTexture:
		if b.view == nil {
			return fmt.Errorf("%s is %s, which binds a texture view, not a %s", bd, bd.WGSL, b.what())
		}
		return bd.acceptsView(b.view)
	case BindingSampler:
		if b.sampler == nil {
			return fmt.Errorf("%s is %s, which binds a sampler, not a %s", bd, bd.WGSL, b.what())
		}
		return bd.acceptsSampler(b.sampler)
	}
	if b.view != nil || b.sampler != nil {
		return fmt.Errorf("%s is %s, which binds a buffer, not a %s", bd, bd.WGSL, b.what())
	}
	if b.size < bd.MinSize {
		return fmt.Errorf("%s: buffer of %d bytes is smaller than the %d bytes its type %s needs", bd, b.size, bd.MinSize, bd.WGSL)
	}
	switch bd.Type {
	case BindingUniform:
		if b.usage&BufferUsageUniform == 0 {
			return fmt.Errorf("%s is var<uniform>, but the buffer's usage %v lacks BufferUsageUniform", bd, b.usage)
		}
	default:
		if b.usage&BufferUsageStorage == 0 {
			return fmt.Errorf("%s is var<storage>, but the buffer's usage %v lacks BufferUsageStorage", bd, b.usage)
		}
	}
	return nil
}

// acceptsView checks view v against a texture or storage texture binding:
// its dimension, its texture's format (the sample type it is read as, or a
// storage binding's exact format), its texture's usage, and that it is
// not multisampled where the binding is not.
func (bd Binding) acceptsView(v *TextureView) error {
	tb, t := bd.Texture, v.t
	if v.dim != tb.View {
		return fmt.Errorf("%s is %s, a %v view, but the view bound is %v", bd, bd.WGSL, tb.View, v.dim)
	}
	f := t.desc.Format
	if bd.Type == BindingStorageTexture {
		if f != tb.Format {
			return fmt.Errorf("%s is %s, but the texture bound is %v", bd, bd.WGSL, f)
		}
		if t.desc.Usage&TextureUsageStorageBinding == 0 {
			return fmt.Errorf("%s is a storage texture, but the texture's usage %v lacks TextureUsageStorageBinding", bd, t.desc.Usage)
		}
		return nil
	}
	if tb.Multisampled {
		return fmt.Errorf("%s is %s, but textures here have one sample", bd, bd.WGSL)
	}
	if t.desc.Usage&TextureUsageTextureBinding == 0 {
		return fmt.Errorf("%s is a sampled texture, but the texture's usage %v lacks TextureUsageTextureBinding", bd, t.desc.Usage)
	}
	if !sampleTypeFits(tb.Sample, f.SampleType()) {
		return fmt.Errorf("%s is %s, read as %v, but the texture bound is %v, read as %v", bd, bd.WGSL, tb.Sample, f, f.SampleType())
	}
	return nil
}

// sampleTypeFits reports whether a texture of a format read as have can
// be bound where a binding reads want (WebGPU's compatible sample types: a
// filterable float format binds as unfilterable too, and a depth format
// binds as unfilterable float).
func sampleTypeFits(want, have SampleType) bool {
	switch want {
	case wgsl.SampleUnfilterableFloat:
		return have == wgsl.SampleFloat || have == wgsl.SampleUnfilterableFloat || have == wgsl.SampleDepth
	default:
		return want == have
	}
}

// acceptsSampler checks sampler s against a sampler binding: a comparison
// binding takes a comparison sampler and nothing else; a filtering one any
// other sampler; a non-filtering one only a sampler whose filters are
// nearest.
func (bd Binding) acceptsSampler(s *Sampler) error {
	k := s.Kind()
	switch bd.Sampler {
	case wgsl.SamplerComparison:
		if k != wgsl.SamplerComparison {
			return fmt.Errorf("%s is %s, but the sampler bound is a %v sampler (no Compare)", bd, bd.WGSL, k)
		}
	case wgsl.SamplerNonFiltering:
		if k != wgsl.SamplerNonFiltering {
			return fmt.Errorf("%s is a non-filtering sampler binding, but the sampler bound is %v", bd, k)
		}
	default:
		if k == wgsl.SamplerComparison {
			return fmt.Errorf("%s is %s, but the sampler bound is a comparison sampler", bd, bd.WGSL)
		}
	}
	return nil
}

// Launch records one dispatch of k with the given workgroup counts and
// bindings on stream: a [*Buffer] for each buffer binding, a
// [*TextureView] for each texture or storage texture binding and a
// [*Sampler] for each sampler binding. They bind in (group, binding) order of k's
// entry point's interface: the bindings the entry point statically uses,
// in whichever of the device's bind groups and with whatever numbering
// (gaps included), sorted by @group then @binding ([CheckKernel] lists
// them). It compiles k first if needed. The dispatch is submitted later:
// when the stream has MaxBatch dispatches pending, on [Device.Flush] or
// [Device.Sync], or on an upload, read-back or release of a buffer it binds.
//
// Launch checks everything it can before recording: k is not nil; the
// workgroup counts against maxComputeWorkgroupsPerDimension; the number of
// bindings against the kernel's; that each is a live buffer, view or
// sampler of this device, of the kind its binding declares; each buffer's
// size against the minimum its binding needs and its usage against the
// binding's kind (storage or uniform), as the WGSL front-end derives them;
// each view's dimension, its texture's format (the sample type it is read
// as; a storage binding's exact format) and usage; each sampler's kind
// (comparison or not, filtering or not); that no buffer is bound twice
// where one binding is read_write, and no texture twice where one binding
// is a storage texture. Each failure is an [*Error] naming the kernel and
// the binding, and nothing is recorded.
//
// Should the driver still reject a submitted batch, the stream replays it
// without the launches it rejects: every other launch runs exactly once, in
// order, and the call that submitted the batch returns a
// [*gpu.LaunchError] naming the rejected launches. In a browser a launch
// the browser still rejects is reported by the next Sync (its error scope
// resolves later), not by the call that submitted it; and the first launch
// of a kernel awaits the browser's compiler, so it must come from a
// goroutine, not a js.FuncOf callback (there it returns an error).
func (d *Device) Launch(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings ...gpu.Binding) error {
	return d.launch(id, k, workgroups, bindings, false)
}

// Launch calls each build's launch (stream_js.go, launch_native.go): its
// flat path for a repeated launch, which makes any other launch through
// launchSlow. Launch inlines, so that a launch the flat path records costs
// one call, not two: in the page a call costs about 5 ns of a recorded
// launch's 40.

// errNotFlat is what launchSlow returns, having recorded nothing, when a
// build's launch was asked for its flat path alone (flatOnly: a test's
// hook, LaunchRecent) and did not record.
var errNotFlat = errors.New("wgpu: not a repeated launch")

// launchSlow is Launch for a launch the build's flat path does not
// record: the checks, then the recording; with flatOnly, errNotFlat and
// nothing recorded.
func (d *Device) launchSlow(id gpu.StreamID, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Binding, flatOnly bool) error {
	if flatOnly {
		return errNotFlat
	}
	const op = "Launch"
	var inline [inlineBindings]*Buffer
	p, bufs, err := d.checkLaunch(op, k, workgroups, bindings, inline[:0])
	if err != nil {
		return err
	}
	return d.record(op, id, p, bufs, workgroups)
}

// checkLaunch makes Launch's checks (and a graph recorder's) before
// anything is recorded: it compiles k and returns its pipeline and the
// bindings as *Buffers, appended to bufs.
func (d *Device) checkLaunch(op string, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer, bufs []*Buffer) (*pipeline, []*Buffer, error) {
	if k == nil {
		return nil, nil, newError(op, ErrorTypeInvalidArgument, "nil kernel")
	}
	p, err := d.pipelineFor(context.Background(), k)
	if err != nil {
		return nil, nil, err
	}
	return d.checkBindings(op, p, workgroups, bindings, bufs)
}

// checkLaunchFront is checkLaunch for a graph recorder: it needs only the
// front half of k's compile (its bindings and bind group layouts), and
// leaves the driver half running.
func (d *Device) checkLaunchFront(op string, k *gpu.Kernel, workgroups [3]uint32, bindings []gpu.Buffer, bufs []*Buffer) (*pipeline, []*Buffer, error) {
	if k == nil {
		return nil, nil, newError(op, ErrorTypeInvalidArgument, "nil kernel")
	}
	p, err := d.frontFor(context.Background(), k)
	if err != nil {
		return nil, nil, err
	}
	return d.checkBindings(op, p, workgroups, bindings, bufs)
}
