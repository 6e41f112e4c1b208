//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"
import "github.com/streamgate/streamgate/wgpu/internal/xdg"

// The BufferUsage bits are wgpu-native's: each line fails to compile (a
// constant overflows uint32) when one differs.
const (
	_ = uint32(C.WGPUBufferUsage_MapRead-BufferUsageMapRead) + uint32(BufferUsageMapRead-C.WGPUBufferUsage_MapRead)
	_ = uint32(C.WGPUBufferUsage_MapWrite-BufferUsageMapWrite) + uint32(BufferUsageMapWrite-C.WGPUBufferUsage_MapWrite)
	_ = uint32(C.WGPUBufferUsage_CopySrc-BufferUsageCopySrc) + uint32(BufferUsageCopySrc-C.WGPUBufferUsage_CopySrc)
	_ = uint32(C.WGPUBufferUsage_CopyDst-BufferUsageCopyDst) + uint32(BufferUsageCopyDst-C.WGPUBufferUsage_CopyDst)
	_ = uint32(C.WGPUBufferUsage_Index-BufferUsageIndex) + uint32(BufferUsageIndex-C.WGPUBufferUsage_Index)
	_ = uint32(C.WGPUBufferUsage_Vertex-BufferUsageVertex) + uint32(BufferUsageVertex-C.WGPUBufferUsage_Vertex)
	_ = uint32(C.WGPUBufferUsage_Uniform-BufferUsageUniform) + uint32(BufferUsageUniform-C.WGPUBufferUsage_Uniform)
	_ = uint32(C.WGPUBufferUsage_Storage-BufferUsageStorage) + uint32(BufferUsageStorage-C.WGPUBufferUsage_Storage)
	_ = uint32(C.WGPUBufferUsage_Indirect-BufferUsageIndirect) + uint32(BufferUsageIndirect-C.WGPUBufferUsage_Indirect)
	_ = uint32(C.WGPUBufferUsage_QueryResolve-BufferUsageQueryResolve) + uint32(BufferUsageQueryResolve-C.WGPUBufferUsage_QueryResolve)
)

// The LogLevel values are wgpu-native's (setLogLevel passes them on).
const (
	_ = uint32(C.WGPULogLevel_Off-LogOff) + uint32(LogOff-C.WGPULogLevel_Off)
	_ = uint32(C.WGPULogLevel_Trace-LogTrace) + uint32(LogTrace-C.WGPULogLevel_Trace)
)

// allBackends is what [Adapters] enumerates, so that an index in
// [Options].Adapter means what `streamgate info` printed.
const allBackends = instanceBackendPrimary | instanceBackendSecondary

func (p PowerPreference) native() uint32 {
	switch p {
	case PowerPreferenceLowPower:
		return powerLowPower
	case PowerPreferenceHighPerformance:
		return powerHighPerformance
	}
	return powerUndefined
}

func (b Backend) native() (instanceBackends, backendType uint32) {
	switch b {
	case BackendVulkan:
		return instanceBackendVulkan, backendTypeVulkan
	case BackendMetal:
		return instanceBackendMetal, backendTypeMetal
	case BackendD3D12:
		return instanceBackendDX12, backendTypeD3D12
	case BackendD3D11:
		return instanceBackendDX11, backendTypeD3D11
	case BackendOpenGL:
		return instanceBackendGL, backendTypeOpenGL
	case BackendOpenGLES:
		return instanceBackendGL, backendTypeOpenGLES
	}
	return instanceBackendPrimary, backendTypeUndefined
}

func backendOf(t uint32) Backend {
	switch t {
	case backendTypeVulkan:
		return BackendVulkan
	case backendTypeMetal:
		return BackendMetal
	case backendTypeD3D12:
		return BackendD3D12
	case backendTypeD3D11:
		return BackendD3D11
	case backendTypeOpenGL:
		return BackendOpenGL
	case backendTypeOpenGLES:
		return BackendOpenGLES
	}
	return BackendAny
}

func adapterTypeOf(t uint32) AdapterType {
	switch t {
	case adapterTypeDiscrete:
		return AdapterTypeDiscreteGPU
	case adapterTypeIntegrated:
		return AdapterTypeIntegratedGPU
	case adapterTypeCPU:
		return AdapterTypeCPU
	}
	return AdapterTypeUnknown
}

func adapterInfo(a nAdapter) AdapterInfo {
	p := a.properties()
	return AdapterInfo{
		Name:         p.name,
		Vendor:       p.vendor,
		VendorID:     p.vendorID,
		DeviceID:     p.deviceID,
		Driver:       p.driver,
		Architecture: p.architecture,
		Backend:      backendOf(p.backendType),
		Type:         adapterTypeOf(p.adapterType),
		Timestamps:   a.hasFeature(featureTimestampQuery),
		Fallback:     adapterTypeOf(p.adapterType) == AdapterTypeCPU,
	}
}

// Adapters lists the adapters of every backend wgpu-native supports on this
// machine, in the order [Options].Adapter indexes them. It is safe to call
// concurrently. It returns an empty list, not an error, when there is none.
// Like [Open], it first makes sure XDG_RUNTIME_DIR is usable (see the
// package documentation).
func Adapters() ([]AdapterInfo, error) {
	xdg.PrepareRuntimeDir()
	inst := createInstance(allBackends)
	defer inst.release()
	adapters := inst.enumerateAdapters()
	infos := make([]AdapterInfo, 0, len(adapters))
	for _, a := range adapters {
		infos = append(infos, adapterInfo(a))
		a.release()
	}
	return infos, nil
}

// requestAdapter returns a new instance and the adapter on it that opts
// choose: by [Options].Adapter when set, else the driver's choice for
// PowerPreference, ForceFallbackAdapter and Backend. On error it has
// released both.
func requestAdapter(opts Options) (nInstance, nAdapter, error) {
	if opts.Backend == BackendBrowser {
		return nInstance{}, nAdapter{}, &Error{Op: "Open", Type: ErrorTypeUnsupported,
			Message: "BackendBrowser is the page's WebGPU, in a program built for GOOS=js GOARCH=wasm only"}
	}
	if opts.Adapter != "" {
		inst := createInstance(allBackends)
		adapters := inst.enumerateAdapters()
		infos := make([]AdapterInfo, len(adapters))
		for i, a := range adapters {
			infos[i] = adapterInfo(a)
		}
		i, err := selectAdapter(opts.Adapter, opts.Backend, infos)
		for j, a := range adapters {
			if j != i || err != nil {
				a.release()
			}
		}
		if err != nil {
			inst.release()
			return nInstance{}, nAdapter{}, err
		}
		return inst, adapters[i], nil
	}
	instBackends, backendType := opts.Backend.native()
	inst := createInstance(instBackends)
	adapter, ok := inst.requestAdapter(opts.PowerPreference.native(), opts.ForceFallbackAdapter, backendType)
	if !ok {
		inst.release()
		return nInstance{}, nAdapter{}, &Error{Op: "Open", Type: ErrorTypeNoAdapter,
			Message: "no adapter matches backend " + opts.Backend.String() + " (no adapter returned)"}
	}
	return inst, adapter, nil
}
