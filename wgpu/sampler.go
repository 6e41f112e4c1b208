package wgpu

import (
	"fmt"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The sampler kinds.
const (
	SamplerFiltering    = wgsl.SamplerFiltering
	SamplerNonFiltering = wgsl.SamplerNonFiltering
	SamplerComparison   = wgsl.SamplerComparison
)

// FilterMode is how a sampler filters between texels: WebGPU's
// GPUFilterMode, with webgpu.h's numbers.
type FilterMode uint8

const (
	FilterModeNearest FilterMode = iota // the default
	FilterModeLinear
)

// String returns WebGPU's name of the mode: "nearest" or "linear".
func (m FilterMode) String() string {
	switch m {
	case FilterModeNearest:
		return "nearest"
	case FilterModeLinear:
		return "linear"
	}
	return fmt.Sprintf("FilterMode(%d)", uint8(m))
}

// AddressMode is what a sampler does with coordinates outside the
// texture: WebGPU's GPUAddressMode.
type AddressMode uint8

const (
	AddressModeClampToEdge AddressMode = iota // the default
	AddressModeRepeat
	AddressModeMirrorRepeat
)

// String returns WebGPU's name of the mode: "clamp-to-edge", "repeat" or
// "mirror-repeat".
func (m AddressMode) String() string {
	switch m {
	case AddressModeClampToEdge:
		return "clamp-to-edge"
	case AddressModeRepeat:
		return "repeat"
	case AddressModeMirrorRepeat:
		return "mirror-repeat"
	}
	return fmt.Sprintf("AddressMode(%d)", uint8(m))
}

// CompareFunction is a comparison sampler's test: WebGPU's
// GPUCompareFunction, with webgpu.h's numbers. The zero value is none (a
// sampler that does not compare).
type CompareFunction uint8

const (
	CompareFunctionNever CompareFunction = iota + 1
	CompareFunctionLess
	CompareFunctionLessEqual
	CompareFunctionGreater
	CompareFunctionGreaterEqual
	CompareFunctionEqual
	CompareFunctionNotEqual
	CompareFunctionAlways
)

var compareNames = [...]string{"", "never", "less", "less-equal", "greater", "greater-equal", "equal", "not-equal", "always"}

// String returns WebGPU's name of the function: "less", "less-equal", …
// ("" for none).
func (c CompareFunction) String() string {
	if int(c) < len(compareNames) {
		return compareNames[c]
	}
	return fmt.Sprintf("CompareFunction(%d)", uint8(c))
}

// SamplerDesc describes a sampler for [Device.NewSampler]; its zero value
// is a non-filtering sampler that clamps to the edge. It is a plain value.
// A sampler samples the one mip level textures have (lod clamp 0 to 32,
// no anisotropy).
type SamplerDesc struct {
	MinFilter, MagFilter                     FilterMode
	AddressModeU, AddressModeV, AddressModeW AddressMode
	// Compare makes a comparison sampler (sampler_comparison); 0 is none.
	Compare CompareFunction
}

// kind is the binding type a sampler of desc binds to.
func (desc SamplerDesc) kind() SamplerKind {
	switch {
	case desc.Compare != 0:
		return SamplerComparison
	case desc.MinFilter == FilterModeLinear || desc.MagFilter == FilterModeLinear:
		return SamplerFiltering
	}
	return SamplerNonFiltering
}

// Sampler is a device sampler (in a browser, a GPUSampler of the page).
// It is immutable and safe for concurrent use by multiple goroutines. It
// implements gpu.Buffer, the interface a launch's bindings have, so that
// it can be bound beside buffers; its Size is 0. The zero value is not
// usable; use [Device.NewSampler]. The device owns the underlying
// sampler: release it with [Sampler.Release] or [Device.Close].
type Sampler struct {
	d    *Device       // written once
	id   uint64        // written once: process-unique among buffers, textures, views and samplers
	desc SamplerDesc   // written once
	h    samplerHandle // written once; released under d.life's write lock

	released atomic.Bool // set once, under d.life's write lock

	slot Buffer // how a launch binds the sampler (see Buffer.sampler)
}

var _ gpu.Buffer = (*Sampler)(nil)

// NewSampler creates a sampler. Its [Sampler.Kind] follows from desc:
// comparison when Compare is set, filtering when either filter is linear,
// non-filtering otherwise. Unknown modes are refused with an [*Error] of
// type [ErrorTypeInvalidArgument] naming the field.
func (d *Device) NewSampler(desc SamplerDesc) (*Sampler, error) {
	const op = "NewSampler"
	leave, err := d.enter(op)
	if err != nil {
		return nil, err
	}
	defer leave()
	for _, f := range []struct {
		name string
		bad  bool
		v    fmt.Stringer
	}{
		{"MinFilter", desc.MinFilter > FilterModeLinear, desc.MinFilter},
		{"MagFilter", desc.MagFilter > FilterModeLinear, desc.MagFilter},
		{"AddressModeU", desc.AddressModeU > AddressModeMirrorRepeat, desc.AddressModeU},
		{"AddressModeV", desc.AddressModeV > AddressModeMirrorRepeat, desc.AddressModeV},
		{"AddressModeW", desc.AddressModeW > AddressModeMirrorRepeat, desc.AddressModeW},
		{"Compare", desc.Compare > CompareFunctionAlways, desc.Compare},
	} {
		if f.bad {
			return nil, newError(op, ErrorTypeInvalidArgument, "unknown %s %v", f.name, f.v)
		}
	}
	h, err := d.newSamplerHandle(op, desc)
	if err != nil {
		return nil, err
	}
	s := &Sampler{d: d, id: bufferIDs.Add(1), desc: desc, h: h}
	s.slot = Buffer{d: d, id: s.id, users: map[*stream]struct{}{}, sampler: s}
	d.mu.Lock()
	d.samplers[s] = struct{}{}
	d.mu.Unlock()
	return s, nil
}

// Kind returns the binding type the sampler binds to.
func (s *Sampler) Kind() SamplerKind {
	if s == nil {
		return wgsl.SamplerNone
	}
	return s.desc.kind()
}

// Desc returns the description the sampler was made from.
func (s *Sampler) Desc() SamplerDesc {
	if s == nil {
		return SamplerDesc{}
	}
	return s.desc
}

// Size returns 0: a sampler is no buffer, and has no byte size. (It
// implements gpu.Buffer, so that launches can bind it.)
func (s *Sampler) Size() uint64 { return 0 }

// Device returns the device that owns the sampler.
func (s *Sampler) Device() *Device {
	if s == nil {
		return nil
	}
	return s.d
}

// live checks that s is not released. Called inside d.enter.
func (s *Sampler) live(op string) error {
	switch {
	case s == nil:
		return newError(op, ErrorTypeInvalidArgument, "nil sampler")
	case s.released.Load():
		return newError(op, ErrorTypeInvalidArgument, "sampler is released")
	}
	return nil
}

// Release releases the sampler. Work already recorded that binds it still
// runs; later launches binding it return an error. Release briefly
// excludes every other call on the device. Releasing twice, or after
// [Device.Close], is harmless.
func (s *Sampler) Release() {
	if s == nil {
		return
	}
	d := s.d
	if d.closed.Load() {
		return
	}
	d.life.Lock()
	defer d.life.Unlock()
	if d.closed.Load() || s.released.Swap(true) {
		return
	}
	s.slot.flushUsers("Release") // errors belong to those streams' launches
	d.bufEpoch.Add(1)            // every graph checks its bindings again
	s.slot.retire()
	d.mu.Lock()
	delete(d.samplers, s)
	d.mu.Unlock()
	d.dropSampler(s.h)
}
