// The C API of package wgpu: every wgpu-native call the package makes goes
// through the static inline shims below, over the header that go-webgpu
// v0.17.1 ships (webgpu.h and wgpu.h, copied here unchanged so that cgo
// finds them without knowing the module directory; TestHeadersMatch checks
// the copies). The symbols come from the static libwgpu_native that
// go-webgpu links (see link.go). Handles cross as uintptr_t.
//
// A shim that can fail pushes error scopes for validation and
// out-of-memory errors, makes its call and pops them, in one crossing; the
// first error lands in an sgScope, which scopeError (cgo_native.go) turns into
// an *Error typed from the WGPUErrorType. wgpu-native's scopes are per
// device, so the Go side calls such shims with the device's scope mutex
// held.
#ifndef STREAMGATE_WGPU_CAPI_H
#define STREAMGATE_WGPU_CAPI_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "wgpu.h"

#define SG_H(T, x) ((T)(uintptr_t)(x))

// sgScope receives the first error of the scopes a shim pops; msg is
// malloc'd.
typedef struct sgScope { uint32_t type; char *msg; } sgScope;

static inline void sg_scope_cb(WGPUErrorType type, char const *message, void *userdata) {
	sgScope *s = (sgScope *)userdata;
	if (type == WGPUErrorType_NoError || s->type != 0) return;
	s->type = (uint32_t)type;
	s->msg = strdup(message ? message : "");
}

// sg_push pushes a validation and an out-of-memory scope; sg_pop pops
// both. wgpu-native 0.17 has no internal-error filter (it panics on
// WGPUErrorFilter_Internal): its internal errors reach the uncaptured-error
// callback, typed Internal there.
static inline void sg_push(WGPUDevice dev) {
	wgpuDevicePushErrorScope(dev, WGPUErrorFilter_OutOfMemory);
	wgpuDevicePushErrorScope(dev, WGPUErrorFilter_Validation);
}

static inline void sg_pop(WGPUDevice dev, sgScope *scope) {
	wgpuDevicePopErrorScope(dev, sg_scope_cb, scope);
	wgpuDevicePopErrorScope(dev, sg_scope_cb, scope);
}

// ---- status words (cgo_native.go) ----

// A status word: 0 while pending, status+1 once the callback ran, -1 once
// its waiter gave up on it. Of the callback and the waiter, whichever comes
// second frees it, so a cancelled wait leaves nothing behind once the
// callback has run. sg_status_live counts the words not yet freed.
static int64_t sg_status_live_count;

static inline void sg_status_free(int32_t *p) {
	__atomic_sub_fetch(&sg_status_live_count, 1, __ATOMIC_SEQ_CST);
	free(p);
}

static inline void sg_status_cb(WGPUQueueWorkDoneStatus status, void *userdata) {
	int32_t *p = (int32_t *)userdata;
	int32_t want = 0;
	if (!__atomic_compare_exchange_n(p, &want, (int32_t)status + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		sg_status_free(p); // the waiter gave up: nobody else will
	}
}

static inline void sg_status_abandon(int32_t *p) {
	int32_t want = 0;
	if (!__atomic_compare_exchange_n(p, &want, -1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		sg_status_free(p); // the callback already ran
	}
}

static inline int32_t sg_status_load(int32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }

static inline int32_t *sg_status_new(void) {
	int32_t *p = (int32_t *)calloc(1, sizeof(int32_t));
	if (p != NULL) __atomic_add_fetch(&sg_status_live_count, 1, __ATOMIC_SEQ_CST);
	return p;
}

static inline int64_t sg_status_live(void) { return __atomic_load_n(&sg_status_live_count, __ATOMIC_SEQ_CST); }

// ---- instance and adapters (adapter.go) ----

static inline uintptr_t sg_create_instance(uint32_t backends) {
	WGPUInstanceExtras extras;
	memset(&extras, 0, sizeof extras);
	extras.chain.sType = (WGPUSType)WGPUSType_InstanceExtras;
	extras.backends = backends;
	WGPUInstanceDescriptor desc;
	memset(&desc, 0, sizeof desc);
	desc.nextInChain = &extras.chain;
	return (uintptr_t)wgpuCreateInstance(&desc);
}

static inline void sg_instance_release(uintptr_t i) { wgpuInstanceRelease(SG_H(WGPUInstance, i)); }

// sg_enumerate_adapters writes up to cap adapters into out (when not NULL)
// and returns how many there are.
static inline size_t sg_enumerate_adapters(uintptr_t inst, uintptr_t *out, size_t cap) {
	size_t n = wgpuInstanceEnumerateAdapters(SG_H(WGPUInstance, inst), NULL, NULL);
	if (out == NULL || n == 0) return n;
	WGPUAdapter *as = (WGPUAdapter *)calloc(n, sizeof(WGPUAdapter));
	if (as == NULL) return 0;
	n = wgpuInstanceEnumerateAdapters(SG_H(WGPUInstance, inst), NULL, as);
	for (size_t i = 0; i < n; i++) {
		if (i < cap) out[i] = (uintptr_t)as[i];
		else wgpuAdapterRelease(as[i]);
	}
	free(as);
	return n < cap ? n : cap;
}

typedef struct sgRequest { uint32_t status; uintptr_t handle; } sgRequest;

static inline void sg_request_adapter_cb(WGPURequestAdapterStatus status, WGPUAdapter adapter, char const *message, void *userdata) {
	sgRequest *r = (sgRequest *)userdata;
	r->status = (uint32_t)status;
	r->handle = (uintptr_t)adapter;
}

// sg_request_adapter returns the adapter the driver chooses, or 0. The
// callback runs before wgpuInstanceRequestAdapter returns.
static inline uintptr_t sg_request_adapter(uintptr_t inst, uint32_t power, int fallback, uint32_t backend) {
	WGPURequestAdapterOptions o;
	memset(&o, 0, sizeof o);
	o.powerPreference = (WGPUPowerPreference)power;
	o.forceFallbackAdapter = fallback != 0;
	o.backendType = (WGPUBackendType)backend;
	sgRequest r = {1, 0};
	wgpuInstanceRequestAdapter(SG_H(WGPUInstance, inst), &o, sg_request_adapter_cb, &r);
	if (r.status != WGPURequestAdapterStatus_Success) {
		if (r.handle != 0) wgpuAdapterRelease(SG_H(WGPUAdapter, r.handle));
		return 0;
	}
	return r.handle;
}

static inline void sg_adapter_release(uintptr_t a) { wgpuAdapterRelease(SG_H(WGPUAdapter, a)); }

static inline void sg_adapter_properties(uintptr_t a, WGPUAdapterProperties *p) {
	memset(p, 0, sizeof *p);
	wgpuAdapterGetProperties(SG_H(WGPUAdapter, a), p);
}

static inline int sg_adapter_has_feature(uintptr_t a, uint32_t f) {
	return wgpuAdapterHasFeature(SG_H(WGPUAdapter, a), (WGPUFeatureName)f);
}

static inline void sg_adapter_limits(uintptr_t a, WGPULimits *l) {
	WGPUSupportedLimits s;
	memset(&s, 0, sizeof s);
	wgpuAdapterGetLimits(SG_H(WGPUAdapter, a), &s);
	*l = s.limits;
}

static inline void sg_request_device_cb(WGPURequestDeviceStatus status, WGPUDevice device, char const *message, void *userdata) {
	sgRequest *r = (sgRequest *)userdata;
	r->status = (uint32_t)status;
	r->handle = (uintptr_t)device;
}

// sg_request_device requests a device with the adapter's own limits
// (push constants included) and, when timestamps is set, timestamp
// queries. It returns 0 on failure.
static inline uintptr_t sg_request_device(uintptr_t adapter, char const *label, int timestamps) {
	WGPUAdapter a = SG_H(WGPUAdapter, adapter);
	WGPUSupportedLimitsExtras sx;
	memset(&sx, 0, sizeof sx);
	sx.chain.sType = (WGPUSType)WGPUSType_SupportedLimitsExtras;
	WGPUSupportedLimits s;
	memset(&s, 0, sizeof s);
	s.nextInChain = &sx.chain;
	wgpuAdapterGetLimits(a, &s);
	WGPURequiredLimitsExtras rx;
	memset(&rx, 0, sizeof rx);
	rx.chain.sType = (WGPUSType)WGPUSType_RequiredLimitsExtras;
	rx.maxPushConstantSize = sx.maxPushConstantSize;
	WGPURequiredLimits rl;
	memset(&rl, 0, sizeof rl);
	rl.nextInChain = &rx.chain;
	rl.limits = s.limits;
	WGPUFeatureName features[1] = {WGPUFeatureName_TimestampQuery};
	WGPUDeviceDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.requiredFeaturesCount = timestamps ? 1 : 0;
	d.requiredFeatures = features;
	d.requiredLimits = &rl;
	sgRequest r = {1, 0};
	wgpuAdapterRequestDevice(a, &d, sg_request_device_cb, &r);
	if (r.status != WGPURequestDeviceStatus_Success) {
		if (r.handle != 0) wgpuDeviceRelease(SG_H(WGPUDevice, r.handle));
		return 0;
	}
	return r.handle;
}

static inline void sg_generate_report(uintptr_t instance, WGPUGlobalReport *r) {
	memset(r, 0, sizeof *r);
	wgpuGenerateReport(SG_H(WGPUInstance, instance), r);
}

static inline void sg_set_log_level(uint32_t l) { wgpuSetLogLevel((WGPULogLevel)l); }

// ---- device (device_native.go) ----

static inline void sg_device_limits(uintptr_t d, WGPULimits *l) {
	WGPUSupportedLimits s;
	memset(&s, 0, sizeof s);
	wgpuDeviceGetLimits(SG_H(WGPUDevice, d), &s);
	*l = s.limits;
}

static inline int sg_device_has_feature(uintptr_t d, uint32_t f) {
	return wgpuDeviceHasFeature(SG_H(WGPUDevice, d), (WGPUFeatureName)f);
}

static inline uintptr_t sg_device_queue(uintptr_t d) { return (uintptr_t)wgpuDeviceGetQueue(SG_H(WGPUDevice, d)); }
static inline void sg_device_poll(uintptr_t d, int wait) { wgpuDevicePoll(SG_H(WGPUDevice, d), wait != 0, NULL); }
static inline void sg_device_release(uintptr_t d) { wgpuDeviceRelease(SG_H(WGPUDevice, d)); }
static inline void sg_queue_release(uintptr_t q) { wgpuQueueRelease(SG_H(WGPUQueue, q)); }

static inline void sg_queue_on_done(uintptr_t queue, int32_t *status) {
	wgpuQueueOnSubmittedWorkDone(SG_H(WGPUQueue, queue), sg_status_cb, status);
}

// ---- objects and their releases ----

static inline void sg_buffer_release(uintptr_t h) { wgpuBufferRelease(SG_H(WGPUBuffer, h)); }
static inline void sg_shader_module_release(uintptr_t h) { wgpuShaderModuleRelease(SG_H(WGPUShaderModule, h)); }
static inline void sg_bind_group_layout_release(uintptr_t h) { wgpuBindGroupLayoutRelease(SG_H(WGPUBindGroupLayout, h)); }
static inline void sg_pipeline_layout_release(uintptr_t h) { wgpuPipelineLayoutRelease(SG_H(WGPUPipelineLayout, h)); }
static inline void sg_compute_pipeline_release(uintptr_t h) { wgpuComputePipelineRelease(SG_H(WGPUComputePipeline, h)); }
static inline void sg_bind_group_release(uintptr_t h) { wgpuBindGroupRelease(SG_H(WGPUBindGroup, h)); }
static inline void sg_query_set_release(uintptr_t h) { wgpuQuerySetRelease(SG_H(WGPUQuerySet, h)); }
static inline void sg_command_encoder_release(uintptr_t h) { wgpuCommandEncoderRelease(SG_H(WGPUCommandEncoder, h)); }
static inline void sg_command_buffer_release(uintptr_t h) { wgpuCommandBufferRelease(SG_H(WGPUCommandBuffer, h)); }

// Each creating shim releases what it made when its scopes caught an error,
// and then returns 0.
#define SG_CREATED(T, ref, release) \
	do { if (scope->type != 0 && (ref) != NULL) { release(ref); return 0; } return (uintptr_t)(ref); } while (0)

static inline uintptr_t sg_create_buffer(uintptr_t device, char const *label, uint64_t size, uint32_t usage, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUBufferDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.size = size;
	d.usage = usage;
	sg_push(dev);
	WGPUBuffer b = wgpuDeviceCreateBuffer(dev, &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUBuffer, b, wgpuBufferRelease);
}

static inline uintptr_t sg_create_shader_module(uintptr_t device, char const *label, char const *code, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUShaderModuleWGSLDescriptor w;
	memset(&w, 0, sizeof w);
	w.chain.sType = WGPUSType_ShaderModuleWGSLDescriptor;
	w.code = code;
	WGPUShaderModuleDescriptor d;
	memset(&d, 0, sizeof d);
	d.nextInChain = &w.chain;
	d.label = label;
	sg_push(dev);
	WGPUShaderModule m = wgpuDeviceCreateShaderModule(dev, &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUShaderModule, m, wgpuShaderModuleRelease);
}

// sgLayoutEntry is one binding of a bind group layout, visible to compute.
// kind is 0 for a buffer (type a WGPUBufferBindingType, minSize its
// minimum), 1 for a sampled texture (type a WGPUTextureSampleType, view a
// WGPUTextureViewDimension, multisampled), 2 for a storage texture (type a
// WGPUStorageTextureAccess, format a WGPUTextureFormat, view), 3 for a
// sampler (type a WGPUSamplerBindingType).
typedef struct sgLayoutEntry { uint32_t binding, kind, type, view, format, multisampled; uint64_t minSize; } sgLayoutEntry;

static inline uintptr_t sg_create_bind_group_layout(uintptr_t device, char const *label, sgLayoutEntry const *es, size_t n, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUBindGroupLayoutEntry *entries = n ? (WGPUBindGroupLayoutEntry *)calloc(n, sizeof *entries) : NULL;
	if (n && entries == NULL) { scope->type = WGPUErrorType_OutOfMemory; scope->msg = strdup("out of C memory"); return 0; }
	for (size_t i = 0; i < n; i++) {
		entries[i].binding = es[i].binding;
		entries[i].visibility = WGPUShaderStage_Compute;
		switch (es[i].kind) {
		case 1:
			entries[i].texture.sampleType = (WGPUTextureSampleType)es[i].type;
			entries[i].texture.viewDimension = (WGPUTextureViewDimension)es[i].view;
			entries[i].texture.multisampled = es[i].multisampled != 0;
			break;
		case 2:
			entries[i].storageTexture.access = (WGPUStorageTextureAccess)es[i].type;
			entries[i].storageTexture.format = (WGPUTextureFormat)es[i].format;
			entries[i].storageTexture.viewDimension = (WGPUTextureViewDimension)es[i].view;
			break;
		case 3:
			entries[i].sampler.type = (WGPUSamplerBindingType)es[i].type;
			break;
		default:
			entries[i].buffer.type = (WGPUBufferBindingType)es[i].type;
			entries[i].buffer.minBindingSize = es[i].minSize;
		}
	}
	WGPUBindGroupLayoutDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.entryCount = n;
	d.entries = entries;
	sg_push(dev);
	WGPUBindGroupLayout l = wgpuDeviceCreateBindGroupLayout(dev, &d);
	sg_pop(dev, scope);
	free(entries);
	SG_CREATED(WGPUBindGroupLayout, l, wgpuBindGroupLayoutRelease);
}

static inline uintptr_t sg_create_pipeline_layout(uintptr_t device, char const *label, uintptr_t const *bgls, size_t n, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUPipelineLayoutDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.bindGroupLayoutCount = n;
	d.bindGroupLayouts = (WGPUBindGroupLayout const *)bgls; // uintptr_t and pointers have one size
	sg_push(dev);
	WGPUPipelineLayout l = wgpuDeviceCreatePipelineLayout(dev, &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUPipelineLayout, l, wgpuPipelineLayoutRelease);
}

static inline uintptr_t sg_create_compute_pipeline(uintptr_t device, char const *label, uintptr_t layout, uintptr_t module, char const *entry, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUComputePipelineDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.layout = SG_H(WGPUPipelineLayout, layout);
	d.compute.module = SG_H(WGPUShaderModule, module);
	d.compute.entryPoint = entry;
	sg_push(dev);
	WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(dev, &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUComputePipeline, p, wgpuComputePipelineRelease);
}

// The halves of the two shims above for the shared scopes of concurrent
// compiles (cgo_native.go's sharedScope): the scopes pushed and popped in
// calls of their own, the creation between them unscoped here; the caller
// releases a handle its scopes' errors make invalid.
static inline void sg_scopes_push(uintptr_t device) { sg_push(SG_H(WGPUDevice, device)); }
static inline void sg_scopes_pop(uintptr_t device, sgScope *scope) { sg_pop(SG_H(WGPUDevice, device), scope); }

static inline uintptr_t sg_shader_module_bare(uintptr_t device, char const *label, char const *code) {
	WGPUShaderModuleWGSLDescriptor w;
	memset(&w, 0, sizeof w);
	w.chain.sType = WGPUSType_ShaderModuleWGSLDescriptor;
	w.code = code;
	WGPUShaderModuleDescriptor d;
	memset(&d, 0, sizeof d);
	d.nextInChain = &w.chain;
	d.label = label;
	return (uintptr_t)wgpuDeviceCreateShaderModule(SG_H(WGPUDevice, device), &d);
}

static inline uintptr_t sg_compute_pipeline_bare(uintptr_t device, char const *label, uintptr_t layout, uintptr_t module, char const *entry) {
	WGPUComputePipelineDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.layout = SG_H(WGPUPipelineLayout, layout);
	d.compute.module = SG_H(WGPUShaderModule, module);
	d.compute.entryPoint = entry;
	return (uintptr_t)wgpuDeviceCreateComputePipeline(SG_H(WGPUDevice, device), &d);
}

// sgBindEntry is one binding of a bind group: a whole buffer of size bytes,
// or (buffer 0) a texture view or a sampler.
typedef struct sgBindEntry { uintptr_t buffer; uint64_t size; uint32_t binding, pad; uintptr_t view, sampler; } sgBindEntry;

static inline uintptr_t sg_create_bind_group(uintptr_t device, char const *label, uintptr_t layout, sgBindEntry const *es, size_t n, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUBindGroupEntry *entries = n ? (WGPUBindGroupEntry *)calloc(n, sizeof *entries) : NULL;
	if (n && entries == NULL) { scope->type = WGPUErrorType_OutOfMemory; scope->msg = strdup("out of C memory"); return 0; }
	for (size_t i = 0; i < n; i++) {
		entries[i].binding = es[i].binding;
		entries[i].buffer = SG_H(WGPUBuffer, es[i].buffer);
		entries[i].size = es[i].size;
		entries[i].textureView = SG_H(WGPUTextureView, es[i].view);
		entries[i].sampler = SG_H(WGPUSampler, es[i].sampler);
	}
	WGPUBindGroupDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.layout = SG_H(WGPUBindGroupLayout, layout);
	d.entryCount = n;
	d.entries = entries;
	sg_push(dev);
	WGPUBindGroup g = wgpuDeviceCreateBindGroup(dev, &d);
	sg_pop(dev, scope);
	free(entries);
	SG_CREATED(WGPUBindGroup, g, wgpuBindGroupRelease);
}

static inline uintptr_t sg_create_query_set(uintptr_t device, char const *label, uint32_t count, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUQuerySetDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.type = WGPUQueryType_Timestamp;
	d.count = count;
	sg_push(dev);
	WGPUQuerySet q = wgpuDeviceCreateQuerySet(dev, &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUQuerySet, q, wgpuQuerySetRelease);
}

static inline uintptr_t sg_create_command_encoder(uintptr_t device, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	WGPUCommandEncoder e = wgpuDeviceCreateCommandEncoder(dev, NULL);
	sg_pop(dev, scope);
	SG_CREATED(WGPUCommandEncoder, e, wgpuCommandEncoderRelease);
}

static inline uintptr_t sg_encoder_finish(uintptr_t device, uintptr_t enc, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	WGPUCommandBuffer c = wgpuCommandEncoderFinish(SG_H(WGPUCommandEncoder, enc), NULL);
	sg_pop(dev, scope);
	SG_CREATED(WGPUCommandBuffer, c, wgpuCommandBufferRelease);
}

static inline void sg_queue_submit(uintptr_t queue, uintptr_t cmd) {
	WGPUCommandBuffer c = SG_H(WGPUCommandBuffer, cmd);
	wgpuQueueSubmit(SG_H(WGPUQueue, queue), 1, &c);
}

static inline void sg_encoder_write_timestamp(uintptr_t device, uintptr_t enc, uintptr_t qs, uint32_t i, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	wgpuCommandEncoderWriteTimestamp(SG_H(WGPUCommandEncoder, enc), SG_H(WGPUQuerySet, qs), i);
	sg_pop(dev, scope);
}

static inline void sg_encoder_resolve_query_set(uintptr_t device, uintptr_t enc, uintptr_t qs, uint32_t first, uint32_t count, uintptr_t dst, uint64_t off, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	wgpuCommandEncoderResolveQuerySet(SG_H(WGPUCommandEncoder, enc), SG_H(WGPUQuerySet, qs), first, count, SG_H(WGPUBuffer, dst), off);
	sg_pop(dev, scope);
}

// ---- the batch encoder (submit_native.go) ----

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

// sg_record_launches records n launches into an open compute pass. A
// pipeline or bind group is set only when it differs from the one this
// call set last (the first of each is always set). Recording into a pass
// raises no error in wgpu-native: its commands are validated when the pass
// ends.
static inline void sg_record_launches(WGPUComputePassEncoder pass, sgLaunch const *ls, size_t n, uintptr_t const *bgs) {
	uintptr_t p = 0, cur[SG_MAX_GROUPS] = {0};
	for (size_t i = 0; i < n; i++) {
		if (ls[i].pipeline != p) {
			p = ls[i].pipeline;
			wgpuComputePassEncoderSetPipeline(pass, SG_H(WGPUComputePipeline, p));
		}
		uint32_t g = ls[i].groups < SG_MAX_GROUPS ? ls[i].groups : SG_MAX_GROUPS;
		for (uint32_t j = 0; j < g; j++) {
			uintptr_t bg = bgs[ls[i].firstGroup + j];
			if (bg != cur[j]) {
				cur[j] = bg;
				wgpuComputePassEncoderSetBindGroup(pass, j, SG_H(WGPUBindGroup, bg), 0, NULL);
			}
		}
		wgpuComputePassEncoderDispatchWorkgroups(pass, ls[i].x, ls[i].y, ls[i].z);
	}
}

// sg_encode_pass records n launches into one compute pass of encoder, in
// one crossing, inside error scopes whose first error lands in scope.
static inline void sg_encode_pass(uintptr_t device, uintptr_t encoder, sgLaunch const *ls, size_t n, uintptr_t const *bgs, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(SG_H(WGPUCommandEncoder, encoder), NULL);
	if (pass != NULL) {
		sg_record_launches(pass, ls, n, bgs);
		wgpuComputePassEncoderEnd(pass);
		wgpuComputePassEncoderRelease(pass);
	}
	sg_pop(dev, scope);
}

// sg_pass_begin begins a compute pass of encoder that stays open across
// calls (a stream's batch: its launches and replays go into one pass), in
// error scopes whose first error lands in scope; 0 when it failed.
static inline uintptr_t sg_pass_begin(uintptr_t device, uintptr_t encoder, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(SG_H(WGPUCommandEncoder, encoder), NULL);
	sg_pop(dev, scope);
	return (uintptr_t)pass;
}

// sg_pass_record records n launches into the open pass: one crossing, no
// scope (see sg_record_launches).
static inline void sg_pass_record(uintptr_t pass, sgLaunch const *ls, size_t n, uintptr_t const *bgs) {
	sg_record_launches(SG_H(WGPUComputePassEncoder, pass), ls, n, bgs);
}

// sg_pass_end ends and releases an open pass, in error scopes: the
// driver validates the pass's commands here.
static inline void sg_pass_end(uintptr_t device, uintptr_t pass, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	wgpuComputePassEncoderEnd(SG_H(WGPUComputePassEncoder, pass));
	sg_pop(dev, scope);
	wgpuComputePassEncoderRelease(SG_H(WGPUComputePassEncoder, pass));
}

// ---- transfers (transfer_native.go) ----

static inline void sg_map_word_cb(WGPUBufferMapAsyncStatus status, void *userdata) {
	__atomic_store_n((int32_t *)userdata, (int32_t)status + 1, __ATOMIC_SEQ_CST);
}

static inline void sgb_write(uintptr_t device, uintptr_t queue, uintptr_t buf, uint64_t off, void const *data, size_t size, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	wgpuQueueWriteBuffer(SG_H(WGPUQueue, queue), SG_H(WGPUBuffer, buf), off, data, size);
	sg_pop(dev, scope);
}

// sgb_copy records a copy from src (or, when src is 0, a clear of dst)
// into a fresh encoder and submits it, unless recording failed.
static inline void sgb_copy(uintptr_t device, uintptr_t queue, uintptr_t src, uint64_t srcOff, uintptr_t dst, uint64_t dstOff, uint64_t size, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(dev, NULL);
	if (src == 0) {
		wgpuCommandEncoderClearBuffer(enc, SG_H(WGPUBuffer, dst), dstOff, size);
	} else {
		wgpuCommandEncoderCopyBufferToBuffer(enc, SG_H(WGPUBuffer, src), srcOff, SG_H(WGPUBuffer, dst), dstOff, size);
	}
	WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
	sg_pop(dev, scope);
	wgpuCommandEncoderRelease(enc);
	if (cmd == NULL) return;
	if (scope->type == 0) {
		sg_push(dev);
		wgpuQueueSubmit(SG_H(WGPUQueue, queue), 1, &cmd);
		sg_pop(dev, scope);
	}
	wgpuCommandBufferRelease(cmd);
}

// sgb_read_start copies size bytes of src at srcOff to the start of
// staging, submits the copy and starts mapping staging; the map callback
// sets *status. It returns 1 when mapping started (the callback will run).
static inline int sgb_read_start(uintptr_t device, uintptr_t queue, uintptr_t src, uint64_t srcOff, uintptr_t staging, uint64_t size, int32_t *status, sgScope *scope) {
	sgb_copy(device, queue, src, srcOff, staging, 0, size, scope);
	if (scope->type != 0) return 0;
	WGPUDevice dev = SG_H(WGPUDevice, device);
	__atomic_store_n(status, 0, __ATOMIC_SEQ_CST);
	sg_push(dev);
	wgpuBufferMapAsync(SG_H(WGPUBuffer, staging), WGPUMapMode_Read, 0, size, sg_map_word_cb, status);
	sg_pop(dev, scope);
	return 1;
}

// sgb_read_finish copies the mapped range of staging into dst and unmaps
// it. It returns 0 when the range could not be had.
static inline int sgb_read_finish(uintptr_t staging, size_t size, void *dst) {
	void const *p = wgpuBufferGetConstMappedRange(SG_H(WGPUBuffer, staging), 0, size);
	if (p != NULL && size > 0) memcpy(dst, p, size);
	wgpuBufferUnmap(SG_H(WGPUBuffer, staging));
	return p != NULL || size == 0;
}

// sgb_unmap unmaps outside any error scope (a staging buffer whose map
// succeeded; tests, to raise an uncaptured error on purpose).
static inline void sgb_unmap(uintptr_t buffer) { wgpuBufferUnmap(SG_H(WGPUBuffer, buffer)); }

static inline int32_t *sgb_word_new(void) { return (int32_t *)calloc(1, sizeof(int32_t)); }
static inline void sgb_word_free(int32_t *p) { free(p); }
static inline int32_t sgb_word_load(int32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }

// ---- textures, their views and samplers (texture_native.go) ----

static inline void sg_texture_release(uintptr_t h) { wgpuTextureRelease(SG_H(WGPUTexture, h)); }
static inline void sg_texture_view_release(uintptr_t h) { wgpuTextureViewRelease(SG_H(WGPUTextureView, h)); }
static inline void sg_sampler_release(uintptr_t h) { wgpuSamplerRelease(SG_H(WGPUSampler, h)); }

// sg_create_texture creates a texture of one mip level and one sample;
// dimension is a WGPUTextureDimension, format a WGPUTextureFormat.
static inline uintptr_t sg_create_texture(uintptr_t device, char const *label, uint32_t dimension, uint32_t width, uint32_t height, uint32_t depth, uint32_t format, uint32_t usage, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUTextureDescriptor d;
	memset(&d, 0, sizeof d);
	d.label = label;
	d.usage = usage;
	d.dimension = (WGPUTextureDimension)dimension;
	d.size.width = width;
	d.size.height = height;
	d.size.depthOrArrayLayers = depth;
	d.format = (WGPUTextureFormat)format;
	d.mipLevelCount = 1;
	d.sampleCount = 1;
	sg_push(dev);
	WGPUTexture t = wgpuDeviceCreateTexture(dev, &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUTexture, t, wgpuTextureRelease);
}

// sg_create_texture_view creates a view of every layer of texture (its one
// mip level, every aspect); dimension is a WGPUTextureViewDimension.
static inline uintptr_t sg_create_texture_view(uintptr_t device, uintptr_t texture, uint32_t dimension, uint32_t format, uint32_t layers, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUTextureViewDescriptor d;
	memset(&d, 0, sizeof d);
	d.format = (WGPUTextureFormat)format;
	d.dimension = (WGPUTextureViewDimension)dimension;
	d.baseMipLevel = 0;
	d.mipLevelCount = 1;
	d.baseArrayLayer = 0;
	d.arrayLayerCount = layers;
	d.aspect = WGPUTextureAspect_All;
	sg_push(dev);
	WGPUTextureView v = wgpuTextureCreateView(SG_H(WGPUTexture, texture), &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUTextureView, v, wgpuTextureViewRelease);
}

// sg_create_sampler creates a sampler; the modes are webgpu.h's numbers,
// compare WGPUCompareFunction_Undefined for a sampler that does not compare.
static inline uintptr_t sg_create_sampler(uintptr_t device, uint32_t u, uint32_t v, uint32_t w, uint32_t mag, uint32_t min, uint32_t compare, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUSamplerDescriptor d;
	memset(&d, 0, sizeof d);
	d.addressModeU = (WGPUAddressMode)u;
	d.addressModeV = (WGPUAddressMode)v;
	d.addressModeW = (WGPUAddressMode)w;
	d.magFilter = (WGPUFilterMode)mag;
	d.minFilter = (WGPUFilterMode)min;
	d.mipmapFilter = WGPUMipmapFilterMode_Nearest;
	d.lodMinClamp = 0;
	d.lodMaxClamp = 32;
	d.compare = (WGPUCompareFunction)compare;
	d.maxAnisotropy = 1;
	sg_push(dev);
	WGPUSampler s = wgpuDeviceCreateSampler(dev, &d);
	sg_pop(dev, scope);
	SG_CREATED(WGPUSampler, s, wgpuSamplerRelease);
}

// sgRegion is a texture copy's region: origin, size in texels, and the
// buffer side's layout (bytesPerRow, rowsPerImage).
typedef struct sgRegion { uint32_t x, y, z, width, height, depth, bytesPerRow, rowsPerImage; } sgRegion;

static inline WGPUImageCopyTexture sgt_image(uintptr_t texture, sgRegion const *r) {
	WGPUImageCopyTexture t;
	memset(&t, 0, sizeof t);
	t.texture = SG_H(WGPUTexture, texture);
	t.origin.x = r->x;
	t.origin.y = r->y;
	t.origin.z = r->z;
	t.aspect = WGPUTextureAspect_All;
	return t;
}

// sgt_write uploads size bytes of data, rows of r->bytesPerRow, to the
// region r of texture (wgpuQueueWriteTexture: no row alignment).
static inline void sgt_write(uintptr_t device, uintptr_t queue, uintptr_t texture, sgRegion const *r, void const *data, size_t size, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUImageCopyTexture dst = sgt_image(texture, r);
	WGPUTextureDataLayout layout;
	memset(&layout, 0, sizeof layout);
	layout.bytesPerRow = r->bytesPerRow;
	layout.rowsPerImage = r->rowsPerImage;
	WGPUExtent3D ext = {r->width, r->height, r->depth};
	sg_push(dev);
	wgpuQueueWriteTexture(SG_H(WGPUQueue, queue), &dst, data, size, &layout, &ext);
	sg_pop(dev, scope);
}

// sgt_read_start copies the region r of texture to the start of staging,
// rows r->bytesPerRow (a multiple of 256) apart, submits the copy and
// starts mapping mapSize bytes of staging; the map callback sets *status.
// It returns 1 when mapping started (the callback will run).
static inline int sgt_read_start(uintptr_t device, uintptr_t queue, uintptr_t texture, sgRegion const *r, uintptr_t staging, uint64_t mapSize, int32_t *status, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	WGPUImageCopyTexture src = sgt_image(texture, r);
	WGPUImageCopyBuffer dst;
	memset(&dst, 0, sizeof dst);
	dst.buffer = SG_H(WGPUBuffer, staging);
	dst.layout.bytesPerRow = r->bytesPerRow;
	dst.layout.rowsPerImage = r->rowsPerImage;
	WGPUExtent3D ext = {r->width, r->height, r->depth};
	sg_push(dev);
	WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(dev, NULL);
	wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &dst, &ext);
	WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
	sg_pop(dev, scope);
	wgpuCommandEncoderRelease(enc);
	if (cmd != NULL && scope->type == 0) {
		sg_push(dev);
		wgpuQueueSubmit(SG_H(WGPUQueue, queue), 1, &cmd);
		sg_pop(dev, scope);
	}
	if (cmd != NULL) wgpuCommandBufferRelease(cmd);
	if (cmd == NULL || scope->type != 0) return 0;
	__atomic_store_n(status, 0, __ATOMIC_SEQ_CST);
	sg_push(dev);
	wgpuBufferMapAsync(SG_H(WGPUBuffer, staging), WGPUMapMode_Read, 0, mapSize, sg_map_word_cb, status);
	sg_pop(dev, scope);
	return 1;
}

// sgt_submit_empty submits an empty command buffer: wgpu-native frees a
// released texture that a queue write touched only after the next submit.
static inline void sgt_submit_empty(uintptr_t device, uintptr_t queue, sgScope *scope) {
	WGPUDevice dev = SG_H(WGPUDevice, device);
	sg_push(dev);
	WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(dev, NULL);
	WGPUCommandBuffer cmd = wgpuCommandEncoderFinish(enc, NULL);
	if (cmd != NULL) wgpuQueueSubmit(SG_H(WGPUQueue, queue), 1, &cmd);
	sg_pop(dev, scope);
	wgpuCommandEncoderRelease(enc);
	if (cmd != NULL) wgpuCommandBufferRelease(cmd);
}

// ---- callbacks (callbacks_native.go): the Go side ----

extern void sgUncapturedError(uintptr_t handle, uint32_t type, char *message);
extern void sgDriverLog(uint32_t level, char *message, void *userdata);

#endif
