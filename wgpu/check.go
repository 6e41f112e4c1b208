package wgpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu/internal/lower"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// ModuleInfo is what [CheckModule] makes of a WGSL module: its entry points
// with their bindings, and the source the driver compiles. It is a plain
// value that the caller owns.
type ModuleInfo struct {
	// EntryPoints are the module's entry points, in source order.
	EntryPoints []EntryPointInfo
	// Lowered is the module as the driver gets it: today's WGSL rewritten
	// by a current compiler (naga 30) into the dialect of the driver's
	// (naga 0.13, inside wgpu-native 0.17), with the override constants
	// replaced by their values.
	Lowered string

	posMap *lower.Map   // Lowered's positions to source's (the desktop build)
	bound  *lower.Bound // the source with its overrides bound (the js build)
}

// EntryPointInfo is one entry point of a module.
type EntryPointInfo struct {
	Name  string
	Stage string // "compute", "vertex" or "fragment"
	// WorkgroupSize is a compute entry point's @workgroup_size, the
	// overrides' values in; zero for other stages.
	WorkgroupSize [3]uint32
	// LoweredName is the entry point's name in [ModuleInfo.Lowered]: the
	// lowering renames a function whose name is a keyword of the driver's
	// compiler (read, write, ...); a compile uses it, a user never needs
	// it.
	LoweredName string
	// Bindings are the bindings (buffers, textures, samplers) the entry
	// point statically uses (in its body or a function it calls), in
	// (group, binding) order: the order in which [Device.Launch] takes
	// its resources.
	Bindings []Binding
}

// KernelInfo is what [CheckKernel] makes of a kernel: its entry point and
// the source the driver compiles.
type KernelInfo struct {
	EntryPointInfo
	Lowered string

	posMap *lower.Map   // Lowered's positions to the kernel's source (the desktop build)
	bound  *lower.Bound // the source with its overrides bound (the js build)
}

// DefaultLimits returns WebGPU's default limits, those every adapter
// offers; [CheckModule] and [CheckKernel] use them for the zero fields of
// the limits they are given.
func DefaultLimits() Limits {
	return Limits{
		MaxBufferSize:                     256 << 20,
		MaxStorageBufferBindingSize:       128 << 20,
		MaxUniformBufferBindingSize:       64 << 10,
		MaxBindGroups:                     4,
		MaxStorageBuffersPerShaderStage:   8,
		MaxUniformBuffersPerShaderStage:   12,
		MaxSampledTexturesPerShaderStage:  16,
		MaxSamplersPerShaderStage:         16,
		MaxStorageTexturesPerShaderStage:  4,
		MaxBindingsPerBindGroup:           1000,
		MaxComputeWorkgroupStorageSize:    16 << 10,
		MaxComputeInvocationsPerWorkgroup: 256,
		MaxComputeWorkgroupSizeX:          256,
		MaxComputeWorkgroupSizeY:          256,
		MaxComputeWorkgroupSizeZ:          64,
		MaxComputeWorkgroupsPerDimension:  65535,
		MinStorageBufferOffsetAlignment:   256,
		MinUniformBufferOffsetAlignment:   256,
	}
}

// withDefaults fills l's zero fields from [DefaultLimits].
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	fill64 := func(v *uint64, dv uint64) {
		if *v == 0 {
			*v = dv
		}
	}
	fill := func(v *uint32, dv uint32) {
		if *v == 0 {
			*v = dv
		}
	}
	fill64(&l.MaxBufferSize, d.MaxBufferSize)
	fill64(&l.MaxStorageBufferBindingSize, d.MaxStorageBufferBindingSize)
	fill64(&l.MaxUniformBufferBindingSize, d.MaxUniformBufferBindingSize)
	fill(&l.MaxBindGroups, d.MaxBindGroups)
	fill(&l.MaxStorageBuffersPerShaderStage, d.MaxStorageBuffersPerShaderStage)
	fill(&l.MaxUniformBuffersPerShaderStage, d.MaxUniformBuffersPerShaderStage)
	fill(&l.MaxSampledTexturesPerShaderStage, d.MaxSampledTexturesPerShaderStage)
	fill(&l.MaxSamplersPerShaderStage, d.MaxSamplersPerShaderStage)
	fill(&l.MaxStorageTexturesPerShaderStage, d.MaxStorageTexturesPerShaderStage)
	fill(&l.MaxBindingsPerBindGroup, d.MaxBindingsPerBindGroup)
	fill(&l.MaxComputeWorkgroupStorageSize, d.MaxComputeWorkgroupStorageSize)
	fill(&l.MaxComputeInvocationsPerWorkgroup, d.MaxComputeInvocationsPerWorkgroup)
	fill(&l.MaxComputeWorkgroupSizeX, d.MaxComputeWorkgroupSizeX)
	fill(&l.MaxComputeWorkgroupSizeY, d.MaxComputeWorkgroupSizeY)
	fill(&l.MaxComputeWorkgroupSizeZ, d.MaxComputeWorkgroupSizeZ)
	fill(&l.MaxComputeWorkgroupsPerDimension, d.MaxComputeWorkgroupsPerDimension)
	fill(&l.MinStorageBufferOffsetAlignment, d.MinStorageBufferOffsetAlignment)
	fill(&l.MinUniformBufferOffsetAlignment, d.MinUniformBufferOffsetAlignment)
	return l
}

// LoweringTimeout bounds one lowering of a module by naga (step 3 of
// [CheckModule]), whatever the caller's context: the front-end's limits
// admit nothing that takes it a second on one core of a 2-core machine, so
// a lowering still running after ten times that is a compiler stuck on an
// input the limits did not foresee. [Device.Launch] and [Device.Compile]
// lower under it too.
const LoweringTimeout = 10 * time.Second

// loweringTimeout is LoweringTimeout in nanoseconds; tests shorten it.
var loweringTimeout atomic.Int64

func init() { loweringTimeout.Store(int64(LoweringTimeout)) }

// CheckModule checks a WGSL module as [Device.Compile] does before the
// driver sees it, with the device limits lim (zero fields: WebGPU's
// defaults, see [DefaultLimits]), and lowers it for the driver. It needs no
// device and no cgo.
//
// The checks run in this order:
//  1. The WGSL front-end (package [wgsl]) refuses what would crash the
//     driver's compiler, exhaust the machine's memory or take it more than
//     about a second (empty source, invalid UTF-8, deep nesting, long
//     expressions, long function bodies, more than
//     [wgsl.DefaultMaxModuleTokens] tokens, oversized workgroup, private or
//     function arrays): [ErrorTypeLimit] for its limits, at the line and
//     column where the source passed it.
//  2. The override constants take their values (constants: by name or by
//     @id, as WebGPU's pipeline constants), each checked against its type.
//  3. A current compiler, naga 30 running as WebAssembly inside the
//     process, validates the module by today's WGSL rules and writes it out
//     in the driver's dialect: abstract literals concretized, const
//     expressions evaluated. One lowering runs at most [LoweringTimeout]
//     (the sandbox's start, once a process, not counted), past which it is
//     stopped with an [ErrorTypeLimit] error: the bound of a compile inside
//     [Device.Launch], which has no context of its own.
//  4. Each entry point's bindings are checked against the limits: groups
//     below maxBindGroups, bindings below maxBindingsPerBindGroup, the
//     storage and uniform buffers, sampled textures, samplers and storage
//     textures per stage, the workgroup size.
//
// Errors are [*Error]s of type [ErrorTypeValidation] (a WebGPU or WGSL rule
// broken, with the line and column of source where there is one) or
// [ErrorTypeLimit], [ErrorTypeUnsupported] for what the driver's compiler
// has no way to run (extensions it predates, subgroup operations, and on
// the desktop read and read_write storage textures), or ctx.Err().
// Textures, storage textures and samplers are bindings as buffers are,
// with what each declares ([Binding].Texture and Sampler). It is safe for
// concurrent use; a source lowered before costs a map lookup, and one that
// an earlier process lowered a read of the kernel cache (see
// [KernelStore]), verified, with no lowering.
func CheckModule(ctx context.Context, source string, constants map[string]float64, lim Limits) (*ModuleInfo, error) {
	return checkModule(ctx, "Check", source, constants, lim.withDefaults())
}

// CheckKernel is [CheckModule] for one kernel: its source, with its
// constants, and its entry point, which must be a @compute function. The
// result's Bindings are the buffers [Device.Launch] binds, in order.
func CheckKernel(ctx context.Context, k *gpu.Kernel, lim Limits) (*KernelInfo, error) {
	if k == nil {
		return nil, newError("Check", ErrorTypeInvalidArgument, "nil kernel")
	}
	return checkKernel(ctx, "Check", k.Source(), k.Entry(), k.Constants(), lim.withDefaults())
}

// checkKernel checks a kernel's source for its entry point.
func checkKernel(ctx context.Context, op, source, entry string, constants map[string]float64, lim Limits) (*KernelInfo, error) {
	if entry == "" {
		return nil, newError(op, ErrorTypeValidation, "empty entry point")
	}
	mi, err := checkModule(ctx, op, source, constants, lim)
	if err != nil {
		return nil, err
	}
	var computes []string
	for _, ep := range mi.EntryPoints {
		if ep.Stage != "compute" {
			if ep.Name == entry {
				return nil, newError(op, ErrorTypeValidation, "entry point %q is a @%s function, not @compute", entry, ep.Stage)
			}
			continue
		}
		if ep.Name == entry {
			return &KernelInfo{EntryPointInfo: ep, Lowered: mi.Lowered, posMap: mi.posMap, bound: mi.bound}, nil
		}
		computes = append(computes, ep.Name)
	}
	return nil, newError(op, ErrorTypeValidation, "no @compute entry point %q (the module has %s)", entry, listOrNone(computes))
}

// frontEndLimits are the limits of the WGSL front-end for device limits
// lim.
func frontEndLimits(lim Limits) wgsl.Limits {
	fl := wgsl.DefaultLimits()
	fl.MaxBindings = int(min(lim.MaxBindingsPerBindGroup, 1<<20))
	fl.MaxWorkgroupBytes = int(min(lim.MaxComputeWorkgroupStorageSize, 1<<30))
	return fl
}

// frontEndError converts an error of package wgsl.
func frontEndError(op string, err error) error {
	typ := ErrorTypeValidation
	var we *wgsl.Error
	if errors.As(err, &we) {
		switch we.Kind {
		case wgsl.KindLimit:
			typ = ErrorTypeLimit
		case wgsl.KindUnsupported:
			typ = ErrorTypeUnsupported
		}
	}
	return &Error{Op: op, Type: typ, Message: err.Error()}
}

// bindingOf converts a binding of the front-end.
// settleSampleTypes makes the f32 textures of an entry point that binds
// no filtering sampler unfilterable-float: such a texture is only loaded,
// and an unfilterable binding takes every float format (r32float too),
// while a filterable one refuses the formats that are not filterable.
// Where the entry point does bind a filtering sampler its f32 textures
// stay float, as sampling with it needs.
func settleSampleTypes(bs []Binding) {
	for _, b := range bs {
		if b.Type == BindingSampler && b.Sampler == wgsl.SamplerFiltering {
			return
		}
	}
	for i := range bs {
		if bs[i].Type == BindingTexture && bs[i].Texture.Sample == wgsl.SampleFloat {
			bs[i].Texture.Sample = wgsl.SampleUnfilterableFloat
		}
	}
}

func bindingOf(b wgsl.Binding) Binding {
	return Binding{Group: b.Group, Index: b.Index, Name: b.Name, Type: b.Kind, WGSL: b.Type, MinSize: b.MinSize, Texture: b.Texture, Sampler: b.Sampler}
}

// checkEntryLimits checks a compute entry point against the device limits
// that bound one pipeline. A zero per-stage texture or sampler limit is
// WebGPU's default.
func checkEntryLimits(ep EntryPointInfo, lim Limits) error {
	var storage, uniform, sampled, samplers, storageTex uint32
	for _, b := range ep.Bindings {
		if b.Group >= lim.MaxBindGroups {
			return fmt.Errorf("entry point %s: binding %s is in @group(%d), past maxBindGroups %d", ep.Name, b.Name, b.Group, lim.MaxBindGroups)
		}
		if b.Index >= lim.MaxBindingsPerBindGroup {
			return fmt.Errorf("entry point %s: binding %s is @binding(%d), past maxBindingsPerBindGroup %d", ep.Name, b.Name, b.Index, lim.MaxBindingsPerBindGroup)
		}
		switch b.Type {
		case BindingUniform:
			uniform++
		case BindingStorageRead, BindingStorageReadWrite:
			storage++
		case BindingTexture:
			sampled++
		case BindingSampler:
			samplers++
		case BindingStorageTexture:
			storageTex++
		}
	}
	d := DefaultLimits()
	orDefault := func(v, dv uint32) uint32 {
		if v == 0 {
			return dv
		}
		return v
	}
	for _, c := range []struct {
		n, max uint32
		what   string
		limit  string
	}{
		{storage, lim.MaxStorageBuffersPerShaderStage, "storage buffers", "maxStorageBuffersPerShaderStage"},
		{uniform, lim.MaxUniformBuffersPerShaderStage, "uniform buffers", "maxUniformBuffersPerShaderStage"},
		{sampled, orDefault(lim.MaxSampledTexturesPerShaderStage, d.MaxSampledTexturesPerShaderStage), "sampled textures", "maxSampledTexturesPerShaderStage"},
		{samplers, orDefault(lim.MaxSamplersPerShaderStage, d.MaxSamplersPerShaderStage), "samplers", "maxSamplersPerShaderStage"},
		{storageTex, orDefault(lim.MaxStorageTexturesPerShaderStage, d.MaxStorageTexturesPerShaderStage), "storage textures", "maxStorageTexturesPerShaderStage"},
	} {
		if c.n > c.max {
			return fmt.Errorf("entry point %s uses %d %s, more than %s %d", ep.Name, c.n, c.what, c.limit, c.max)
		}
	}
	wg := ep.WorkgroupSize
	for i, max := range [3]uint32{lim.MaxComputeWorkgroupSizeX, lim.MaxComputeWorkgroupSizeY, lim.MaxComputeWorkgroupSizeZ} {
		if wg[i] > max {
			return fmt.Errorf("entry point %s: @workgroup_size %v: %c is %d, more than maxComputeWorkgroupSize%c %d", ep.Name, wg, "xyz"[i], wg[i], "XYZ"[i], max)
		}
	}
	if n := uint64(wg[0]) * uint64(wg[1]) * uint64(wg[2]); n > uint64(lim.MaxComputeInvocationsPerWorkgroup) {
		return fmt.Errorf("entry point %s: @workgroup_size %v is %d invocations, more than maxComputeInvocationsPerWorkgroup %d", ep.Name, wg, n, lim.MaxComputeInvocationsPerWorkgroup)
	}
	return nil
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
