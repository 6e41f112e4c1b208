package wgpu

import (
	"fmt"
	"strings"
)

// The enums of this package are plain Go: they build without cgo, and the
// cgo files convert them to wgpu-native's (adapter.go asserts that the
// BufferUsage bits and LogLevel values are wgpu-native's).

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

// Backend is a graphics API wgpu-native can drive, or the browser's WebGPU.
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
	// BackendBrowser is the page's navigator.gpu, the one backend of the
	// js build (GOOS=js GOARCH=wasm).
	BackendBrowser
)

var backendNames = [...]string{"Any", "Vulkan", "Metal", "D3D12", "D3D11", "OpenGL", "OpenGLES", "Browser"}

// String returns the backend's name.
func (b Backend) String() string {
	if int(b) < len(backendNames) {
		return backendNames[b]
	}
	return "Unknown"
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

// LogLevel is how much wgpu-native writes to standard error.
type LogLevel uint8

const (
	LogOff   LogLevel = iota // nothing
	LogError                 // errors only: what tests and the command use
	LogWarn                  // also warnings, e.g. every backend probed and unusable
	LogInfo
	LogDebug
	LogTrace
)

// BufferUsage says what a buffer may be used for; values combine with |.
// The bits are WebGPU's (webgpu.h's WGPUBufferUsage).
type BufferUsage uint32

const (
	BufferUsageMapRead      BufferUsage = 0x0001
	BufferUsageMapWrite     BufferUsage = 0x0002
	BufferUsageCopySrc      BufferUsage = 0x0004
	BufferUsageCopyDst      BufferUsage = 0x0008
	BufferUsageIndex        BufferUsage = 0x0010
	BufferUsageVertex       BufferUsage = 0x0020
	BufferUsageUniform      BufferUsage = 0x0040
	BufferUsageStorage      BufferUsage = 0x0080
	BufferUsageIndirect     BufferUsage = 0x0100
	BufferUsageQueryResolve BufferUsage = 0x0200

	// BufferUsageDefault is what [Device.NewBuffer] and
	// [Device.TempBuffer] use for usage 0: a storage buffer that can be
	// uploaded to, read back, cleared and copied from and to. Uniform
	// usage stays opt-in, since NewBuffer checks a uniform buffer's size
	// against maxUniformBufferBindingSize (often 64 KiB), far below the
	// storage limit; the map usages are left out because WebGPU allows
	// MapRead only with CopyDst (read-backs go through pooled staging
	// buffers instead).
	BufferUsageDefault = BufferUsageStorage | BufferUsageCopySrc | BufferUsageCopyDst
)

var bufferUsageNames = []struct {
	u    BufferUsage
	name string
}{
	{BufferUsageMapRead, "MapRead"}, {BufferUsageMapWrite, "MapWrite"}, {BufferUsageCopySrc, "CopySrc"},
	{BufferUsageCopyDst, "CopyDst"}, {BufferUsageIndex, "Index"}, {BufferUsageVertex, "Vertex"},
	{BufferUsageUniform, "Uniform"}, {BufferUsageStorage, "Storage"}, {BufferUsageIndirect, "Indirect"},
	{BufferUsageQueryResolve, "QueryResolve"},
}

// String returns the usage's flags joined with "|", e.g. "CopyDst|Uniform".
func (u BufferUsage) String() string { return flagNames(u, bufferUsageNames) }

// flagNames returns the names of u's flags in names, joined with "|", and
// any bits left as a hexadecimal number ("0" for none).
func flagNames[U ~uint32](u U, names []struct {
	u    U
	name string
}) string {
	if u == 0 {
		return "0"
	}
	var parts []string
	for _, n := range names {
		if u&n.u != 0 {
			parts = append(parts, n.name)
			u &^= n.u
		}
	}
	if u != 0 {
		parts = append(parts, fmt.Sprintf("%#x", uint32(u)))
	}
	return strings.Join(parts, "|")
}
