//go:build cgo

package wgpu

import (
	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// The BufferUsage bits are wgpu-native's: each line fails to compile (a
// constant overflows uint32) when one differs.
const (
	_ = uint32(gowgpu.BufferUsage_MapRead-gowgpu.BufferUsage(BufferUsageMapRead)) + uint32(gowgpu.BufferUsage(BufferUsageMapRead)-gowgpu.BufferUsage_MapRead)
	_ = uint32(gowgpu.BufferUsage_MapWrite-gowgpu.BufferUsage(BufferUsageMapWrite)) + uint32(gowgpu.BufferUsage(BufferUsageMapWrite)-gowgpu.BufferUsage_MapWrite)
	_ = uint32(gowgpu.BufferUsage_CopySrc-gowgpu.BufferUsage(BufferUsageCopySrc)) + uint32(gowgpu.BufferUsage(BufferUsageCopySrc)-gowgpu.BufferUsage_CopySrc)
	_ = uint32(gowgpu.BufferUsage_CopyDst-gowgpu.BufferUsage(BufferUsageCopyDst)) + uint32(gowgpu.BufferUsage(BufferUsageCopyDst)-gowgpu.BufferUsage_CopyDst)
	_ = uint32(gowgpu.BufferUsage_Index-gowgpu.BufferUsage(BufferUsageIndex)) + uint32(gowgpu.BufferUsage(BufferUsageIndex)-gowgpu.BufferUsage_Index)
	_ = uint32(gowgpu.BufferUsage_Vertex-gowgpu.BufferUsage(BufferUsageVertex)) + uint32(gowgpu.BufferUsage(BufferUsageVertex)-gowgpu.BufferUsage_Vertex)
	_ = uint32(gowgpu.BufferUsage_Uniform-gowgpu.BufferUsage(BufferUsageUniform)) + uint32(gowgpu.BufferUsage(BufferUsageUniform)-gowgpu.BufferUsage_Uniform)
	_ = uint32(gowgpu.BufferUsage_Storage-gowgpu.BufferUsage(BufferUsageStorage)) + uint32(gowgpu.BufferUsage(BufferUsageStorage)-gowgpu.BufferUsage_Storage)
	_ = uint32(gowgpu.BufferUsage_Indirect-gowgpu.BufferUsage(BufferUsageIndirect)) + uint32(gowgpu.BufferUsage(BufferUsageIndirect)-gowgpu.BufferUsage_Indirect)
	_ = uint32(gowgpu.BufferUsage_QueryResolve-gowgpu.BufferUsage(BufferUsageQueryResolve)) + uint32(gowgpu.BufferUsage(BufferUsageQueryResolve)-gowgpu.BufferUsage_QueryResolve)
)

// allBackends is what [Adapters] enumerates, so that an index in
// [Options].Adapter means what `streamgate info` printed.
const allBackends = gowgpu.InstanceBackend_Primary | gowgpu.InstanceBackend_Secondary

func (p PowerPreference) native() gowgpu.PowerPreference {
	switch p {
	case PowerPreferenceLowPower:
		return gowgpu.PowerPreference_LowPower
	case PowerPreferenceHighPerformance:
		return gowgpu.PowerPreference_HighPerformance
	}
	return gowgpu.PowerPreference_Undefined
}

func (b Backend) native() (gowgpu.InstanceBackend, gowgpu.BackendType) {
	switch b {
	case BackendVulkan:
		return gowgpu.InstanceBackend_Vulkan, gowgpu.BackendType_Vulkan
	case BackendMetal:
		return gowgpu.InstanceBackend_Metal, gowgpu.BackendType_Metal
	case BackendD3D12:
		return gowgpu.InstanceBackend_DX12, gowgpu.BackendType_D3D12
	case BackendD3D11:
		return gowgpu.InstanceBackend_DX11, gowgpu.BackendType_D3D11
	case BackendOpenGL:
		return gowgpu.InstanceBackend_GL, gowgpu.BackendType_OpenGL
	case BackendOpenGLES:
		return gowgpu.InstanceBackend_GL, gowgpu.BackendType_OpenGLES
	}
	return gowgpu.InstanceBackend_Primary, gowgpu.BackendType_Undefined
}

func backendOf(t gowgpu.BackendType) Backend {
	switch t {
	case gowgpu.BackendType_Vulkan:
		return BackendVulkan
	case gowgpu.BackendType_Metal:
		return BackendMetal
	case gowgpu.BackendType_D3D12:
		return BackendD3D12
	case gowgpu.BackendType_D3D11:
		return BackendD3D11
	case gowgpu.BackendType_OpenGL:
		return BackendOpenGL
	case gowgpu.BackendType_OpenGLES:
		return BackendOpenGLES
	}
	return BackendAny
}

func adapterTypeOf(t gowgpu.AdapterType) AdapterType {
	switch t {
	case gowgpu.AdapterType_DiscreteGPU:
		return AdapterTypeDiscreteGPU
	case gowgpu.AdapterType_IntegratedGPU:
		return AdapterTypeIntegratedGPU
	case gowgpu.AdapterType_CPU:
		return AdapterTypeCPU
	}
	return AdapterTypeUnknown
}

func adapterInfo(a *gowgpu.Adapter) AdapterInfo {
	p := a.GetProperties()
	return AdapterInfo{
		Name:         p.Name,
		Vendor:       p.VendorName,
		VendorID:     p.VendorId,
		DeviceID:     p.DeviceId,
		Driver:       p.DriverDescription,
		Architecture: p.Architecture,
		Backend:      backendOf(p.BackendType),
		Type:         adapterTypeOf(p.AdapterType),
		Timestamps:   a.HasFeature(gowgpu.FeatureName_TimestampQuery),
	}
}

// Adapters lists the adapters of every backend wgpu-native supports on this
// machine, in the order [Options].Adapter indexes them. It is safe to call
// concurrently. It returns an empty list, not an error, when there is none.
// Like [Open], it first makes sure XDG_RUNTIME_DIR is usable (see the
// package documentation).
func Adapters() ([]AdapterInfo, error) {
	prepareRuntimeDir()
	inst := gowgpu.CreateInstance(&gowgpu.InstanceDescriptor{Backends: allBackends})
	defer inst.Release()
	adapters := inst.EnumerateAdapters(nil)
	infos := make([]AdapterInfo, 0, len(adapters))
	for _, a := range adapters {
		infos = append(infos, adapterInfo(a))
		a.Release()
	}
	return infos, nil
}

// requestAdapter returns a new instance and the adapter on it that opts
// choose: by [Options].Adapter when set, else the driver's choice for
// PowerPreference, ForceFallbackAdapter and Backend. On error it has
// released both.
func requestAdapter(opts Options) (*gowgpu.Instance, *gowgpu.Adapter, error) {
	if opts.Adapter != "" {
		inst := gowgpu.CreateInstance(&gowgpu.InstanceDescriptor{Backends: allBackends})
		adapters := inst.EnumerateAdapters(nil)
		infos := make([]AdapterInfo, len(adapters))
		for i, a := range adapters {
			infos[i] = adapterInfo(a)
		}
		i, err := selectAdapter(opts.Adapter, opts.Backend, infos)
		for j, a := range adapters {
			if j != i || err != nil {
				a.Release()
			}
		}
		if err != nil {
			inst.Release()
			return nil, nil, err
		}
		return inst, adapters[i], nil
	}
	instBackends, backendType := opts.Backend.native()
	inst := gowgpu.CreateInstance(&gowgpu.InstanceDescriptor{Backends: instBackends})
	adapter, err := inst.RequestAdapter(&gowgpu.RequestAdapterOptions{
		PowerPreference:      opts.PowerPreference.native(),
		ForceFallbackAdapter: opts.ForceFallbackAdapter,
		BackendType:          backendType,
	})
	if err != nil || adapter == nil {
		inst.Release()
		return nil, nil, &Error{Op: "Open", Type: ErrorTypeNoAdapter,
			Message: "no adapter matches backend " + opts.Backend.String() + " (" + errString(err) + ")"}
	}
	return inst, adapter, nil
}

func errString(err error) string {
	if err == nil {
		return "no adapter returned"
	}
	return err.Error()
}

func limitsOf(l gowgpu.Limits) Limits {
	return Limits{
		MaxBufferSize:                     l.MaxBufferSize,
		MaxStorageBufferBindingSize:       l.MaxStorageBufferBindingSize,
		MaxUniformBufferBindingSize:       l.MaxUniformBufferBindingSize,
		MaxBindGroups:                     l.MaxBindGroups,
		MaxStorageBuffersPerShaderStage:   l.MaxStorageBuffersPerShaderStage,
		MaxUniformBuffersPerShaderStage:   l.MaxUniformBuffersPerShaderStage,
		MaxBindingsPerBindGroup:           l.MaxBindingsPerBindGroup,
		MaxComputeWorkgroupStorageSize:    l.MaxComputeWorkgroupStorageSize,
		MaxComputeInvocationsPerWorkgroup: l.MaxComputeInvocationsPerWorkgroup,
		MaxComputeWorkgroupSizeX:          l.MaxComputeWorkgroupSizeX,
		MaxComputeWorkgroupSizeY:          l.MaxComputeWorkgroupSizeY,
		MaxComputeWorkgroupSizeZ:          l.MaxComputeWorkgroupSizeZ,
		MaxComputeWorkgroupsPerDimension:  l.MaxComputeWorkgroupsPerDimension,
		MinStorageBufferOffsetAlignment:   l.MinStorageBufferOffsetAlignment,
		MinUniformBufferOffsetAlignment:   l.MinUniformBufferOffsetAlignment,
	}
}
