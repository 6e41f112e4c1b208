//go:build cgo

package wgpu

import (
	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// PowerPreference says which adapter [Open] prefers when several fit.
type PowerPreference uint8

const (
	// PowerPreferenceDefault lets the driver choose.
	PowerPreferenceDefault PowerPreference = iota
	// PowerPreferenceLowPower prefers an integrated or CPU adapter.
	PowerPreferenceLowPower
	// PowerPreferenceHighPerformance prefers a discrete GPU.
	PowerPreferenceHighPerformance
)

func (p PowerPreference) native() gowgpu.PowerPreference {
	switch p {
	case PowerPreferenceLowPower:
		return gowgpu.PowerPreference_LowPower
	case PowerPreferenceHighPerformance:
		return gowgpu.PowerPreference_HighPerformance
	}
	return gowgpu.PowerPreference_Undefined
}

// Backend is a graphics API wgpu-native can drive.
type Backend uint8

const (
	// BackendAny: Vulkan, Metal or D3D12, whichever the machine has.
	BackendAny Backend = iota
	BackendVulkan
	BackendMetal
	BackendD3D12
	BackendD3D11
	BackendOpenGL
	BackendOpenGLES
)

var backendNames = [...]string{"Any", "Vulkan", "Metal", "D3D12", "D3D11", "OpenGL", "OpenGLES"}

// String returns the backend's name.
func (b Backend) String() string {
	if int(b) < len(backendNames) {
		return backendNames[b]
	}
	return "Unknown"
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

// AdapterType says what kind of device an adapter is.
type AdapterType uint8

const (
	AdapterTypeUnknown AdapterType = iota
	AdapterTypeDiscreteGPU
	AdapterTypeIntegratedGPU
	AdapterTypeCPU
)

var adapterTypeNames = [...]string{"Unknown", "DiscreteGPU", "IntegratedGPU", "CPU"}

// String returns the type's name.
func (t AdapterType) String() string {
	if int(t) < len(adapterTypeNames) {
		return adapterTypeNames[t]
	}
	return "Unknown"
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

// AdapterInfo describes an adapter. It is a plain value.
type AdapterInfo struct {
	Name         string      // e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
	Vendor       string      // vendor name as the driver reports it
	VendorID     uint32      // PCI vendor id, or the driver's
	DeviceID     uint32      // PCI device id, or the driver's
	Driver       string      // driver description, e.g. "Mesa 22.3.6"
	Architecture string      // may be empty
	Backend      Backend     // the API wgpu-native drives it through
	Type         AdapterType // discrete, integrated, CPU
	Timestamps   bool        // the adapter supports timestamp queries
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
// machine. It is safe to call concurrently. It returns an empty list, not an
// error, when there is none.
func Adapters() ([]AdapterInfo, error) {
	inst := gowgpu.CreateInstance(&gowgpu.InstanceDescriptor{Backends: gowgpu.InstanceBackend_Primary | gowgpu.InstanceBackend_Secondary})
	defer inst.Release()
	adapters := inst.EnumerateAdapters(nil)
	infos := make([]AdapterInfo, 0, len(adapters))
	for _, a := range adapters {
		infos = append(infos, adapterInfo(a))
		a.Release()
	}
	return infos, nil
}

// Limits are the device limits this package checks or reports. Field names
// follow WebGPU's.
type Limits struct {
	MaxBufferSize                     uint64
	MaxStorageBufferBindingSize       uint64
	MaxUniformBufferBindingSize       uint64
	MaxStorageBuffersPerShaderStage   uint32
	MaxUniformBuffersPerShaderStage   uint32
	MaxBindingsPerBindGroup           uint32
	MaxComputeWorkgroupStorageSize    uint32
	MaxComputeInvocationsPerWorkgroup uint32
	MaxComputeWorkgroupSizeX          uint32
	MaxComputeWorkgroupSizeY          uint32
	MaxComputeWorkgroupSizeZ          uint32
	MaxComputeWorkgroupsPerDimension  uint32
	MinStorageBufferOffsetAlignment   uint32
	MinUniformBufferOffsetAlignment   uint32
}

func limitsOf(l gowgpu.Limits) Limits {
	return Limits{
		MaxBufferSize:                     l.MaxBufferSize,
		MaxStorageBufferBindingSize:       l.MaxStorageBufferBindingSize,
		MaxUniformBufferBindingSize:       l.MaxUniformBufferBindingSize,
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
