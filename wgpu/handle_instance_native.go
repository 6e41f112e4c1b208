//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

import "unsafe"

// nInstance is a wgpu-native instance; Device.Close releases a device's.
type nInstance struct{ ref uintptr }

func (h nInstance) release() { C.sg_instance_release(cu(h.ref)) }

func createInstance(backends uint32) nInstance {
	ref := uintptr(C.sg_create_instance(C.uint32_t(backends)))
	if ref == 0 {
		panic("wgpu: wgpu-native created no instance")
	}
	return nInstance{ref}
}

// enumerateAdapters returns every adapter of i; the caller releases them.
func (i nInstance) enumerateAdapters() []nAdapter {
	n := int(C.sg_enumerate_adapters(cu(i.ref), nil, 0))
	if n == 0 {
		return nil
	}
	refs := make([]uintptr, n)
	n = int(C.sg_enumerate_adapters(cu(i.ref), (*C.uintptr_t)(unsafe.Pointer(&refs[0])), C.size_t(n)))
	out := make([]nAdapter, n)
	for j := range out {
		out[j] = nAdapter{refs[j]}
	}
	return out
}

// requestAdapter returns the adapter the driver chooses, or false.
func (i nInstance) requestAdapter(power uint32, fallback bool, backend uint32) (nAdapter, bool) {
	f := C.int(0)
	if fallback {
		f = 1
	}
	ref := uintptr(C.sg_request_adapter(cu(i.ref), C.uint32_t(power), f, C.uint32_t(backend)))
	return nAdapter{ref}, ref != 0
}

// setLogLevel sets wgpu-native's log level (LogLevel numbers its levels
// as WGPULogLevel does).
func setLogLevel(l LogLevel) { C.sg_set_log_level(C.uint32_t(l)) }

// StorageReport counts one kind of wgpu-native object: Occupied are live.
type storageReport struct {
	Occupied, Vacant, Error, ElementSize uint64
}

// hubReport is wgpu-native's per-backend object count.
type hubReport struct {
	Adapters, Devices, PipelineLayouts, ShaderModules, BindGroupLayouts,
	BindGroups, CommandBuffers, RenderBundles, RenderPipelines,
	ComputePipelines, QuerySets, Buffers, Textures, TextureViews,
	Samplers storageReport
}

func convStorage(s C.WGPUStorageReport) storageReport {
	return storageReport{uint64(s.numOccupied), uint64(s.numVacant), uint64(s.numError), uint64(s.elementSize)}
}

// generateReport returns the hub report of backend b of inst. It picks the
// hub by b, not by the report's backendType, which wgpu-native 0.17 fills
// with a value of another enum.
func generateReport(inst nInstance, b Backend) hubReport {
	var r C.WGPUGlobalReport
	C.sg_generate_report(cu(inst.ref), &r)
	h := r.vulkan
	switch b {
	case BackendMetal:
		h = r.metal
	case BackendD3D12:
		h = r.dx12
	case BackendD3D11:
		h = r.dx11
	case BackendOpenGL, BackendOpenGLES:
		h = r.gl
	}
	return hubReport{
		Adapters: convStorage(h.adapters), Devices: convStorage(h.devices),
		PipelineLayouts: convStorage(h.pipelineLayouts), ShaderModules: convStorage(h.shaderModules),
		BindGroupLayouts: convStorage(h.bindGroupLayouts), BindGroups: convStorage(h.bindGroups),
		CommandBuffers: convStorage(h.commandBuffers), RenderBundles: convStorage(h.renderBundles),
		RenderPipelines: convStorage(h.renderPipelines), ComputePipelines: convStorage(h.computePipelines),
		QuerySets: convStorage(h.querySets), Buffers: convStorage(h.buffers),
		Textures: convStorage(h.textures), TextureViews: convStorage(h.textureViews),
		Samplers: convStorage(h.samplers),
	}
}
