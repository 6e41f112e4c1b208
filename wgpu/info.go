package wgpu

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
	// Fallback reports a fallback adapter: in a browser, its
	// isFallbackAdapter (a software one, SwiftShader in headless
	// Chromium); on the desktop, a CPU adapter (Type AdapterTypeCPU:
	// lavapipe), the one ForceFallbackAdapter asks for.
	Fallback bool
}

// Limits are the device limits this package checks or reports. Field names
// follow WebGPU's. It is a plain value. The checks read a zero
// MaxSampledTexturesPerShaderStage, MaxSamplersPerShaderStage or
// MaxStorageTexturesPerShaderStage as WebGPU's default (see
// [DefaultLimits]).
type Limits struct {
	MaxBufferSize                     uint64
	MaxStorageBufferBindingSize       uint64
	MaxUniformBufferBindingSize       uint64
	MaxBindGroups                     uint32
	MaxStorageBuffersPerShaderStage   uint32
	MaxUniformBuffersPerShaderStage   uint32
	MaxSampledTexturesPerShaderStage  uint32
	MaxSamplersPerShaderStage         uint32
	MaxStorageTexturesPerShaderStage  uint32
	MaxBindingsPerBindGroup           uint32
	MaxComputeWorkgroupStorageSize    uint32
	MaxComputeInvocationsPerWorkgroup uint32
	MaxComputeWorkgroupSizeX          uint32
	MaxComputeWorkgroupSizeY          uint32
	MaxComputeWorkgroupSizeZ          uint32
	MaxComputeWorkgroupsPerDimension  uint32
	MinStorageBufferOffsetAlignment   uint32
	MinUniformBufferOffsetAlignment   uint32
	MaxTextureDimension1D             uint32
	MaxTextureDimension2D             uint32
	MaxTextureDimension3D             uint32
	MaxTextureArrayLayers             uint32
}
