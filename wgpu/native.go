//go:build cgo

package wgpu

// This file holds the package's own cgo: the few wgpu-native calls that
// go-webgpu wraps wrongly or unsafely for us. The prototypes are declared
// here against wgpu-native 0.17's C ABI (webgpu.h/wgpu.h of go-webgpu
// v0.17.1) instead of including those headers, whose directory is only known
// to the go command; the symbols come from the static libwgpu_native that
// go-webgpu links.
//
//   - wgpuGenerateReport: go-webgpu switches on report.backendType, which
//     wgpu-native 0.17 fills with a value of a different enum, so on Vulkan
//     it returns no hub report. We read the C struct ourselves.
//   - wgpuQueueOnSubmittedWorkDone (and wgpuBufferMapAsync, in
//     transfer_native.go): go-webgpu passes the address of a Go cgo.Handle
//     that C keeps after the call returns. Our callbacks write a status
//     into C memory instead, and the caller polls it; no Go pointer or Go
//     callback is involved.
//   - wgpuDeviceSetUncapturedErrorCallback: errors raised outside an error
//     scope abort the process by default; we count them instead.

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "scope.h"

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

typedef void (*sgErrorCallback)(uint32_t type, char const *message, void *userdata);
typedef void (*sgStatusCallback)(uint32_t status, void *userdata);

extern void wgpuGenerateReport(void *instance, sgGlobalReport *report);
extern void wgpuDevicePushErrorScope(void *device, uint32_t filter);
extern void wgpuDevicePopErrorScope(void *device, sgErrorCallback callback, void *userdata);
extern void wgpuDeviceSetUncapturedErrorCallback(void *device, sgErrorCallback callback, void *userdata);
extern void wgpuQueueOnSubmittedWorkDone(void *queue, sgStatusCallback callback, void *userdata);
extern void wgpuBufferUnmap(void *buffer);
extern void *wgpuCommandEncoderBeginComputePass(void *encoder, void const *descriptor);
extern void wgpuComputePassEncoderSetPipeline(void *pass, void *pipeline);
extern void wgpuComputePassEncoderSetBindGroup(void *pass, uint32_t groupIndex, void *group, size_t dynamicOffsetCount, uint32_t const *dynamicOffsets);
extern void wgpuComputePassEncoderDispatchWorkgroups(void *pass, uint32_t x, uint32_t y, uint32_t z);
extern void wgpuComputePassEncoderEnd(void *pass);
extern void wgpuComputePassEncoderRelease(void *pass);

// A status word: 0 while pending, status+1 once the callback ran, -1 once
// its waiter gave up on it. Of the callback and the waiter, whichever comes
// second frees it, so a cancelled wait leaves nothing behind once the
// callback has run. sg_status_live counts the words not yet freed.
static int64_t sg_status_live_count;

static void sg_status_free(int32_t *p) {
	__atomic_sub_fetch(&sg_status_live_count, 1, __ATOMIC_SEQ_CST);
	free(p);
}

static void sg_status_cb(uint32_t status, void *userdata) {
	int32_t *p = (int32_t *)userdata;
	int32_t want = 0;
	if (!__atomic_compare_exchange_n(p, &want, (int32_t)status + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		sg_status_free(p); // the waiter gave up: nobody else will
	}
}

static void sg_status_abandon(int32_t *p) {
	int32_t want = 0;
	if (!__atomic_compare_exchange_n(p, &want, -1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		sg_status_free(p); // the callback already ran
	}
}

static int32_t sg_status_load(int32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }

static int32_t *sg_status_new(void) {
	int32_t *p = (int32_t *)calloc(1, sizeof(int32_t));
	if (p != NULL) __atomic_add_fetch(&sg_status_live_count, 1, __ATOMIC_SEQ_CST);
	return p;
}

static int64_t sg_status_live(void) { return __atomic_load_n(&sg_status_live_count, __ATOMIC_SEQ_CST); }

static void sg_generate_report(uintptr_t instance, sgGlobalReport *r) {
	memset(r, 0, sizeof *r);
	wgpuGenerateReport((void *)instance, r);
}

static void sg_queue_on_done(uintptr_t queue, int32_t *status) {
	wgpuQueueOnSubmittedWorkDone((void *)queue, sg_status_cb, status);
}

// sgLaunch is one recorded dispatch: the pipeline handle, where its bind
// groups start in the pass's array of bind group handles and how many it
// has (one per group index of its layout, SG_MAX_GROUPS at most), and the
// workgroup counts. Go builds arrays of both (no Go pointers inside).
typedef struct sgLaunch {
	uintptr_t pipeline;
	uint32_t firstGroup, groups;
	uint32_t x, y, z, pad;
} sgLaunch;

#define SG_MAX_GROUPS 8

// sg_encode_pass records n launches into one compute pass of encoder, in
// one crossing, inside a validation error scope whose error lands in scope.
// A pipeline or bind group is set only when it differs from the one set.
static void sg_encode_pass(uintptr_t device, uintptr_t encoder, sgLaunch const *ls, size_t n, uintptr_t const *bgs, sgScope *scope) {
	wgpuDevicePushErrorScope((void *)device, 0);
	void *pass = wgpuCommandEncoderBeginComputePass((void *)encoder, NULL);
	if (pass != NULL) {
		uintptr_t p = 0, cur[SG_MAX_GROUPS] = {0};
		for (size_t i = 0; i < n; i++) {
			if (ls[i].pipeline != p) {
				p = ls[i].pipeline;
				wgpuComputePassEncoderSetPipeline(pass, (void *)p);
			}
			uint32_t g = ls[i].groups < SG_MAX_GROUPS ? ls[i].groups : SG_MAX_GROUPS;
			for (uint32_t j = 0; j < g; j++) {
				uintptr_t bg = bgs[ls[i].firstGroup + j];
				if (bg != cur[j]) {
					cur[j] = bg;
					wgpuComputePassEncoderSetBindGroup(pass, j, (void *)bg, 0, NULL);
				}
			}
			wgpuComputePassEncoderDispatchWorkgroups(pass, ls[i].x, ls[i].y, ls[i].z);
		}
		wgpuComputePassEncoderEnd(pass);
		wgpuComputePassEncoderRelease(pass);
	}
	wgpuDevicePopErrorScope((void *)device, sg_scope_cb, scope);
}

// sg_buffer_unmap_unscoped unmaps outside any error scope: tests use it to
// raise an uncaptured error on purpose.
static void sg_buffer_unmap_unscoped(uintptr_t buffer) { wgpuBufferUnmap((void *)buffer); }

static uint64_t sg_uncaptured_count;

// sgUncapturedError is Go's (uncaptured.go): it logs to the device's logger.
extern void sgUncapturedError(uintptr_t handle, uint32_t type, char *message);

static void sg_uncaptured_cb(uint32_t type, char const *message, void *userdata) {
	__atomic_add_fetch(&sg_uncaptured_count, 1, __ATOMIC_SEQ_CST);
	if (userdata != NULL) {
		sgUncapturedError((uintptr_t)userdata, type, (char *)(message ? message : ""));
	} else {
		fprintf(stderr, "wgpu: uncaptured WebGPU error (type %u): %s\n", type, message ? message : "");
	}
}

static void sg_set_uncaptured(uintptr_t device, uintptr_t handle) {
	wgpuDeviceSetUncapturedErrorCallback((void *)device, sg_uncaptured_cb, (void *)handle);
}

static uint64_t sg_uncaptured(void) { return __atomic_load_n(&sg_uncaptured_count, __ATOMIC_SEQ_CST); }
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// The go-webgpu handle structs keep the C handle in unexported fields:
// Instance, Device and Adapter as their only field, Buffer and Queue as the
// second after the device. These accessors read them; TestNativeRefs checks
// the layouts against the pinned go-webgpu version.

func instanceRef(p *gowgpu.Instance) C.uintptr_t {
	return C.uintptr_t(uintptr(*(*unsafe.Pointer)(unsafe.Pointer(p))))
}

func deviceRef(p *gowgpu.Device) C.uintptr_t {
	return C.uintptr_t(uintptr(*(*unsafe.Pointer)(unsafe.Pointer(p))))
}

func bufferRef(p *gowgpu.Buffer) C.uintptr_t {
	return C.uintptr_t(uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(p))[1]))
}

func encoderRef(p *gowgpu.CommandEncoder) C.uintptr_t {
	return C.uintptr_t(uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(p))[1]))
}

func pipelineRef(p *gowgpu.ComputePipeline) uintptr {
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(p)))
}

func bindGroupRef(p *gowgpu.BindGroup) uintptr {
	return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(p)))
}

func queueRef(p *gowgpu.Queue) C.uintptr_t {
	return C.uintptr_t(uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(p))[1]))
}

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

func convStorage(s C.sgStorageReport) storageReport {
	return storageReport{uint64(s.numOccupied), uint64(s.numVacant), uint64(s.numError), uint64(s.elementSize)}
}

// generateReport returns the hub report of backend b of inst.
func generateReport(inst *gowgpu.Instance, b Backend) hubReport {
	var r C.sgGlobalReport
	C.sg_generate_report(instanceRef(inst), &r)
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

// statusWord is C memory a callback writes a status into: 0 while pending,
// status+1 after. Its waiter either frees it after seeing the status (free)
// or gives up on it (abandon), and then the callback frees it when it runs:
// a cancelled wait keeps nothing once the driver has called back.
type statusWord struct{ p *C.int32_t }

func newStatusWord() statusWord {
	p := C.sg_status_new()
	if p == nil {
		panic("wgpu: out of C memory")
	}
	return statusWord{p}
}

func (s statusWord) load() int32 { return int32(C.sg_status_load(s.p)) }

// free frees a word whose callback has run (load() != 0).
func (s statusWord) free() { C.sg_status_free(s.p) }

// abandon gives the word up: it is freed now if its callback has run, or by
// the callback when it runs.
func (s statusWord) abandon() { C.sg_status_abandon(s.p) }

// liveStatusWords returns how many status words are allocated and not yet
// freed, in the process.
func liveStatusWords() int64 { return int64(C.sg_status_live()) }

// nativeLaunch is C's sgLaunch: one recorded dispatch by handle, its bind
// groups at firstGroup..firstGroup+groups of the stream's bind group array.
type nativeLaunch struct {
	pipeline           uintptr
	firstGroup, groups uint32
	x, y, z, _         uint32
}

// maxGroups is C's SG_MAX_GROUPS: the most bind groups a launch sets
// (wgpu-native's own cap).
const maxGroups = 8

// encodePass records ls, whose bind groups are in bgs, into one compute
// pass of enc, in one cgo crossing, and returns the error the pass raised,
// if any. It must be called with the device's scope mutex held.
func encodePass(dev *gowgpu.Device, enc *gowgpu.CommandEncoder, ls []nativeLaunch, bgs []uintptr) (typ ErrorType, msg string, failed bool) {
	if len(ls) == 0 {
		return 0, "", false
	}
	var scope C.sgScope
	var bgp *C.uintptr_t
	if len(bgs) > 0 {
		bgp = (*C.uintptr_t)(unsafe.Pointer(&bgs[0]))
	}
	C.sg_encode_pass(deviceRef(dev), encoderRef(enc), (*C.sgLaunch)(unsafe.Pointer(&ls[0])), C.size_t(len(ls)), bgp, &scope)
	return scopeError(&scope)
}

// scopeError converts a popped scope's error.
func scopeError(scope *C.sgScope) (typ ErrorType, msg string, failed bool) {
	if scope._type == 0 {
		return 0, "", false
	}
	msg = C.GoString(scope.msg)
	C.free(unsafe.Pointer(scope.msg))
	return errorTypeOf(uint32(scope._type)), msg, true
}

// errorTypeOf converts a WGPUErrorType (1 validation, 2 out of memory, 3
// internal; others are validation too).
func errorTypeOf(t uint32) ErrorType {
	switch t {
	case 2:
		return ErrorTypeOutOfMemory
	case 3:
		return ErrorTypeInternal
	}
	return ErrorTypeValidation
}

// onSubmittedWorkDone sets st once all work submitted to q so far is done.
func onSubmittedWorkDone(q *gowgpu.Queue, st statusWord) {
	C.sg_queue_on_done(queueRef(q), st.p)
}

// setUncapturedErrorCallback makes errors raised outside an error scope on
// dev count and go to the logger of the device h holds (a cgo.Handle of a
// *Device), instead of aborting the process.
func setUncapturedErrorCallback(dev *gowgpu.Device, h cgo.Handle) {
	C.sg_set_uncaptured(deviceRef(dev), C.uintptr_t(h))
}

// unmapUnscoped unmaps buf outside any error scope (tests: an unmapped
// buffer's unmap is an uncaptured validation error).
func unmapUnscoped(buf *gowgpu.Buffer) { C.sg_buffer_unmap_unscoped(bufferRef(buf)) }

// uncapturedErrors returns how many errors escaped every error scope in this
// process.
func uncapturedErrors() uint64 { return uint64(C.sg_uncaptured()) }
