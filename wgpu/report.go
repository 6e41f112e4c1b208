//go:build cgo

package wgpu

/*
#include <stddef.h>
#include <stdint.h>

typedef struct sgStorageReport { size_t numOccupied, numVacant, numError, elementSize; } sgStorageReport;
typedef struct sgHubReport {
	sgStorageReport adapters, devices, pipelineLayouts, shaderModules, bindGroupLayouts,
		bindGroups, commandBuffers, renderBundles, renderPipelines, computePipelines,
		querySets, buffers, textures, textureViews, samplers;
} sgHubReport;
typedef struct sgGlobalReport {
	sgStorageReport surfaces;
	uint32_t backendType;
	sgHubReport vulkan, metal, dx12, dx11, gl;
} sgGlobalReport;

extern void wgpuGenerateReport(void *instance, sgGlobalReport *report);

static void sg_generate_report(uintptr_t instance, sgGlobalReport *r) {
	wgpuGenerateReport((void *)instance, r);
}
*/
import "C"

import (
	"unsafe"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

func rawReport(inst *gowgpu.Instance) C.sgGlobalReport {
	var r C.sgGlobalReport
	C.sg_generate_report(C.uintptr_t(uintptr(*(*unsafe.Pointer)(unsafe.Pointer(inst)))), &r)
	return r
}
