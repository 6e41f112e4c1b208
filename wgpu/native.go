//go:build cgo

package wgpu

// This file is the Go side of the package's C API (capi.h): the handle
// types the package owns and the methods that call capi.h's shims. Every
// wgpu-native call but the transfers' (transfer_native.go) and the
// callbacks' (callbacks.go) is made from here. A handle is a struct whose
// ref is the C handle as a uintptr (C memory: the garbage collector never
// looks at it); the zero handle is none. Each handle's release drops the
// package's one reference; who calls it is said where the handle is kept.
//
// The status words below keep their live count in this file's copy of
// capi.h's statics: their functions are called from here only.

/*
#include "capi.h"
*/
import "C"

import (
	"strconv"
	"unsafe"
)

// nInstance is a wgpu-native instance; Device.Close releases a device's.
type nInstance struct{ ref uintptr }

// nAdapter is an adapter; Device.Close releases a device's.
type nAdapter struct{ ref uintptr }

// nDevice is a device; Device.Close releases it, after every object made
// on it.
type nDevice struct{ ref uintptr }

// nQueue is a device's queue; Device.Close releases it.
type nQueue struct{ ref uintptr }

// nBuffer is a buffer; its Buffer (or staging buffer, or TimeStream)
// releases it.
type nBuffer struct{ ref uintptr }

// nShaderModule is a shader module, released once its pipeline is built.
type nShaderModule struct{ ref uintptr }

// nBindGroupLayout, nPipelineLayout and nComputePipeline belong to a
// pipeline, which releases them (pipeline.release).
type (
	nBindGroupLayout struct{ ref uintptr }
	nPipelineLayout  struct{ ref uintptr }
	nComputePipeline struct{ ref uintptr }
)

// nBindGroup is a bind group; the bind group cache or its pipeline group
// releases it.
type nBindGroup struct{ ref uintptr }

// nQuerySet is a timestamp query set; TimeStream releases it.
type nQuerySet struct{ ref uintptr }

// nEncoder is a command encoder; its stream (or submitOnce) releases it.
type nEncoder struct{ ref uintptr }

// nCommandBuffer is a finished encoder's command buffer, released right
// after its one submit.
type nCommandBuffer struct{ ref uintptr }

func cu(h uintptr) C.uintptr_t { return C.uintptr_t(h) }

func (h nInstance) release()        { C.sg_instance_release(cu(h.ref)) }
func (h nAdapter) release()         { C.sg_adapter_release(cu(h.ref)) }
func (h nDevice) release()          { C.sg_device_release(cu(h.ref)) }
func (h nQueue) release()           { C.sg_queue_release(cu(h.ref)) }
func (h nBuffer) release()          { C.sg_buffer_release(cu(h.ref)) }
func (h nShaderModule) release()    { C.sg_shader_module_release(cu(h.ref)) }
func (h nBindGroupLayout) release() { C.sg_bind_group_layout_release(cu(h.ref)) }
func (h nPipelineLayout) release()  { C.sg_pipeline_layout_release(cu(h.ref)) }
func (h nComputePipeline) release() { C.sg_compute_pipeline_release(cu(h.ref)) }
func (h nBindGroup) release()       { C.sg_bind_group_release(cu(h.ref)) }
func (h nQuerySet) release()        { C.sg_query_set_release(cu(h.ref)) }
func (h nEncoder) release()         { C.sg_command_encoder_release(cu(h.ref)) }
func (h nCommandBuffer) release()   { C.sg_command_buffer_release(cu(h.ref)) }

// ---- instance and adapters ----

// Instance backend flags and backend types, as wgpu.h numbers them.
const (
	instanceBackendPrimary   = uint32(C.WGPUInstanceBackend_Primary)
	instanceBackendSecondary = uint32(C.WGPUInstanceBackend_Secondary)
	instanceBackendVulkan    = uint32(C.WGPUInstanceBackend_Vulkan)
	instanceBackendMetal     = uint32(C.WGPUInstanceBackend_Metal)
	instanceBackendDX12      = uint32(C.WGPUInstanceBackend_DX12)
	instanceBackendDX11      = uint32(C.WGPUInstanceBackend_DX11)
	instanceBackendGL        = uint32(C.WGPUInstanceBackend_GL)

	backendTypeUndefined = uint32(C.WGPUBackendType_Undefined)
	backendTypeVulkan    = uint32(C.WGPUBackendType_Vulkan)
	backendTypeMetal     = uint32(C.WGPUBackendType_Metal)
	backendTypeD3D12     = uint32(C.WGPUBackendType_D3D12)
	backendTypeD3D11     = uint32(C.WGPUBackendType_D3D11)
	backendTypeOpenGL    = uint32(C.WGPUBackendType_OpenGL)
	backendTypeOpenGLES  = uint32(C.WGPUBackendType_OpenGLES)

	powerUndefined       = uint32(C.WGPUPowerPreference_Undefined)
	powerLowPower        = uint32(C.WGPUPowerPreference_LowPower)
	powerHighPerformance = uint32(C.WGPUPowerPreference_HighPerformance)

	adapterTypeDiscrete   = uint32(C.WGPUAdapterType_DiscreteGPU)
	adapterTypeIntegrated = uint32(C.WGPUAdapterType_IntegratedGPU)
	adapterTypeCPU        = uint32(C.WGPUAdapterType_CPU)

	featureTimestampQuery = uint32(C.WGPUFeatureName_TimestampQuery)
	mapStatusSuccess      = int32(C.WGPUBufferMapAsyncStatus_Success)
)

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

// adapterProps is what wgpuAdapterGetProperties says of an adapter.
type adapterProps struct {
	name, vendor, driver, architecture string
	vendorID, deviceID                 uint32
	adapterType, backendType           uint32
}

func (a nAdapter) properties() adapterProps {
	var p C.WGPUAdapterProperties
	C.sg_adapter_properties(cu(a.ref), &p)
	return adapterProps{
		name: C.GoString(p.name), vendor: C.GoString(p.vendorName),
		driver: C.GoString(p.driverDescription), architecture: C.GoString(p.architecture),
		vendorID: uint32(p.vendorID), deviceID: uint32(p.deviceID),
		adapterType: uint32(p.adapterType), backendType: uint32(p.backendType),
	}
}

func (a nAdapter) hasFeature(f uint32) bool {
	return C.sg_adapter_has_feature(cu(a.ref), C.uint32_t(f)) != 0
}

// requestDevice requests a device with a's own limits and, when
// timestamps is set, timestamp queries; false when the driver refused.
func (a nAdapter) requestDevice(label string, timestamps bool) (nDevice, bool) {
	cl := C.CString(label)
	defer C.free(unsafe.Pointer(cl))
	ts := C.int(0)
	if timestamps {
		ts = 1
	}
	ref := uintptr(C.sg_request_device(cu(a.ref), cl, ts))
	return nDevice{ref}, ref != 0
}

func limitsOfC(l *C.WGPULimits) Limits {
	return Limits{
		MaxBufferSize:                     uint64(l.maxBufferSize),
		MaxStorageBufferBindingSize:       uint64(l.maxStorageBufferBindingSize),
		MaxUniformBufferBindingSize:       uint64(l.maxUniformBufferBindingSize),
		MaxBindGroups:                     uint32(l.maxBindGroups),
		MaxStorageBuffersPerShaderStage:   uint32(l.maxStorageBuffersPerShaderStage),
		MaxUniformBuffersPerShaderStage:   uint32(l.maxUniformBuffersPerShaderStage),
		MaxBindingsPerBindGroup:           uint32(l.maxBindingsPerBindGroup),
		MaxComputeWorkgroupStorageSize:    uint32(l.maxComputeWorkgroupStorageSize),
		MaxComputeInvocationsPerWorkgroup: uint32(l.maxComputeInvocationsPerWorkgroup),
		MaxComputeWorkgroupSizeX:          uint32(l.maxComputeWorkgroupSizeX),
		MaxComputeWorkgroupSizeY:          uint32(l.maxComputeWorkgroupSizeY),
		MaxComputeWorkgroupSizeZ:          uint32(l.maxComputeWorkgroupSizeZ),
		MaxComputeWorkgroupsPerDimension:  uint32(l.maxComputeWorkgroupsPerDimension),
		MinStorageBufferOffsetAlignment:   uint32(l.minStorageBufferOffsetAlignment),
		MinUniformBufferOffsetAlignment:   uint32(l.minUniformBufferOffsetAlignment),
	}
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

// ---- device ----

func (dv nDevice) limits() Limits {
	var l C.WGPULimits
	C.sg_device_limits(cu(dv.ref), &l)
	return limitsOfC(&l)
}

func (dv nDevice) hasFeature(f uint32) bool {
	return C.sg_device_has_feature(cu(dv.ref), C.uint32_t(f)) != 0
}

func (dv nDevice) queue() nQueue { return nQueue{uintptr(C.sg_device_queue(cu(dv.ref)))} }

// poll lets the driver retire finished work and run its callbacks; wait
// blocks until the queue is empty.
func (dv nDevice) poll(wait bool) {
	w := C.int(0)
	if wait {
		w = 1
	}
	C.sg_device_poll(cu(dv.ref), w)
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

// scopeErr is scopeError's record as an *Error of op, or nil when the
// scopes caught nothing.
func scopeErr(op string, s *C.sgScope) error {
	if typ, msg, failed := scopeError(s); failed {
		return &Error{Op: op, Type: typ, Message: msg}
	}
	return nil
}

// errorTypeOf converts a WGPUErrorType; Unknown and DeviceLost, which no
// scope of this package catches, are internal errors.
func errorTypeOf(t uint32) ErrorType {
	switch t {
	case uint32(C.WGPUErrorType_Validation):
		return ErrorTypeValidation
	case uint32(C.WGPUErrorType_OutOfMemory):
		return ErrorTypeOutOfMemory
	}
	return ErrorTypeInternal
}

// cstr is a C copy of s, or nil for "": free it with freeStr.
func cstr(s string) *C.char {
	if s == "" {
		return nil
	}
	return C.CString(s)
}

func freeStr(p *C.char) {
	if p != nil {
		C.free(unsafe.Pointer(p))
	}
}

// The creating calls below run their shim with the device's scope mutex
// held (wgpu-native's error scopes are per device) and return what its
// scopes caught as an *Error of op; on error the handle is zero and
// nothing is left to release. They are called inside d.enter.

// scoped runs create, a shim that creates an object inside the scopes it
// is handed, with the device's scope mutex held, and returns the handle
// and what the scopes caught as an *Error of op.
func (d *Device) scoped(op string, create func(s *C.sgScope) C.uintptr_t) (uintptr, error) {
	var s C.sgScope
	d.scopeMu.Lock()
	ref := create(&s)
	d.scopeMu.Unlock()
	return uintptr(ref), scopeErr(op, &s)
}

// firstOf returns &s[0], or nil for an empty s: the array a shim reads.
func firstOf[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

func (d *Device) createBuffer(op, label string, size uint64, usage BufferUsage) (nBuffer, error) {
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_buffer(cu(d.dev.ref), cl, C.uint64_t(size), C.uint32_t(usage), s)
	})
	return nBuffer{ref}, err
}

func (d *Device) createShaderModule(op, label, code string) (nShaderModule, error) {
	cl, cc := cstr(label), C.CString(code)
	defer freeStr(cl)
	defer freeStr(cc)
	if ref, ok := d.sharedScope(func() uintptr { return uintptr(C.sg_shader_module_bare(cu(d.dev.ref), cl, cc)) },
		func(ref uintptr) { C.sg_shader_module_release(C.uintptr_t(ref)) }); ok {
		return nShaderModule{ref}, nil
	}
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t { return C.sg_create_shader_module(cu(d.dev.ref), cl, cc, s) })
	return nShaderModule{ref}, err
}

// scopeEpoch is a run of overlapping sharedScope calls: from the first to
// join it to the last to leave, no exclusive scoped call runs, so every
// error raised in it lands in one of its calls' scopes.
type scopeEpoch struct {
	active int           // guarded by Device.epochMu: calls in the epoch
	err    bool          // guarded by Device.epochMu: a scope of the epoch caught an error
	done   chan struct{} // closed when the last call left; err is final then
}

// sharedScope runs create, a shader module's or a compute pipeline's
// creation (the driver's shader compilers: most of a compile's driver
// half), beside other compiles' instead of one at a time under scopeMu:
// wgpu-native's error scopes are the device's, so concurrent calls share
// them. Each call pushes its pair of scopes and pops a pair (each under
// pairMu, so the stack stays whole pairs) around its creation, and holds
// scopeMu's read lock meanwhile, so no exclusive scoped call interleaves.
// An error lands in the top pair, one of the epoch's, whichever call pops
// it; so when the epoch ends with no error, every call of it succeeded
// (ok, with its handle). When any caught one, it cannot say whose: each
// releases its handle and returns !ok, and the caller creates again
// exclusively, which gives the error to its own call.
func (d *Device) sharedScope(create func() uintptr, release func(uintptr)) (ref uintptr, ok bool) {
	d.scopeMu.RLock()
	d.epochMu.Lock()
	e := d.epoch
	if e == nil {
		e = &scopeEpoch{done: make(chan struct{})}
		d.epoch = e
	}
	e.active++
	d.epochMu.Unlock()

	d.pairMu.Lock()
	C.sg_scopes_push(cu(d.dev.ref))
	d.pairMu.Unlock()
	ref = create()
	var s C.sgScope
	d.pairMu.Lock()
	C.sg_scopes_pop(cu(d.dev.ref), &s)
	d.pairMu.Unlock()
	_, _, caught := scopeError(&s) // frees the message

	d.epochMu.Lock()
	e.err = e.err || caught
	e.active--
	if e.active == 0 {
		d.epoch = nil
		close(e.done)
	}
	d.epochMu.Unlock()
	d.scopeMu.RUnlock()
	<-e.done
	if e.err || ref == 0 {
		if ref != 0 {
			release(ref)
		}
		return 0, false
	}
	return ref, true
}

// layoutEntry is one buffer binding of a bind group layout.
type layoutEntry struct {
	binding uint32
	typ     BindingType
	minSize uint64
}

func (d *Device) createBindGroupLayout(op, label string, es []layoutEntry) (nBindGroupLayout, error) {
	ces := make([]C.sgLayoutEntry, len(es))
	for i, e := range es {
		t := C.WGPUBufferBindingType_Storage
		switch e.typ {
		case BindingStorageRead:
			t = C.WGPUBufferBindingType_ReadOnlyStorage
		case BindingUniform:
			t = C.WGPUBufferBindingType_Uniform
		}
		ces[i] = C.sgLayoutEntry{binding: C.uint32_t(e.binding), _type: C.uint32_t(t), minSize: C.uint64_t(e.minSize)}
	}
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_bind_group_layout(cu(d.dev.ref), cl, firstOf(ces), C.size_t(len(ces)), s)
	})
	return nBindGroupLayout{ref}, err
}

func (d *Device) createPipelineLayout(op, label string, bgls []nBindGroupLayout) (nPipelineLayout, error) {
	refs := make([]C.uintptr_t, len(bgls))
	for i, l := range bgls {
		refs[i] = cu(l.ref)
	}
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_pipeline_layout(cu(d.dev.ref), cl, firstOf(refs), C.size_t(len(refs)), s)
	})
	return nPipelineLayout{ref}, err
}

func (d *Device) createComputePipeline(op, label string, layout nPipelineLayout, module nShaderModule, entry string) (nComputePipeline, error) {
	cl, ce := cstr(label), C.CString(entry)
	defer freeStr(cl)
	defer freeStr(ce)
	if ref, ok := d.sharedScope(func() uintptr {
		return uintptr(C.sg_compute_pipeline_bare(cu(d.dev.ref), cl, cu(layout.ref), cu(module.ref), ce))
	}, func(ref uintptr) { C.sg_compute_pipeline_release(C.uintptr_t(ref)) }); ok {
		return nComputePipeline{ref}, nil
	}
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_compute_pipeline(cu(d.dev.ref), cl, cu(layout.ref), cu(module.ref), ce, s)
	})
	return nComputePipeline{ref}, err
}

// bindEntry binds a whole buffer of size bytes at binding.
type bindEntry struct {
	binding uint32
	buf     nBuffer
	size    uint64
}

func (d *Device) createBindGroup(op, label string, layout nBindGroupLayout, es []bindEntry) (nBindGroup, error) {
	ces := make([]C.sgBindEntry, len(es))
	for i, e := range es {
		ces[i] = C.sgBindEntry{buffer: cu(e.buf.ref), size: C.uint64_t(e.size), binding: C.uint32_t(e.binding)}
	}
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t {
		return C.sg_create_bind_group(cu(d.dev.ref), cl, cu(layout.ref), firstOf(ces), C.size_t(len(ces)), s)
	})
	return nBindGroup{ref}, err
}

func (d *Device) createQuerySet(op, label string, count uint32) (nQuerySet, error) {
	cl := cstr(label)
	defer freeStr(cl)
	ref, err := d.scoped(op, func(s *C.sgScope) C.uintptr_t { return C.sg_create_query_set(cu(d.dev.ref), cl, C.uint32_t(count), s) })
	return nQuerySet{ref}, err
}

func (d *Device) createCommandEncoder(op string) (nEncoder, error) {
	var s C.sgScope
	d.scopeMu.Lock()
	ref := C.sg_create_command_encoder(cu(d.dev.ref), &s)
	d.scopeMu.Unlock()
	return nEncoder{uintptr(ref)}, scopeErr(op, &s)
}

// finish finishes enc (which the caller still releases) into a command
// buffer.
func (d *Device) finish(op string, enc nEncoder) (nCommandBuffer, error) {
	var s C.sgScope
	d.scopeMu.Lock()
	ref := C.sg_encoder_finish(cu(d.dev.ref), cu(enc.ref), &s)
	d.scopeMu.Unlock()
	return nCommandBuffer{uintptr(ref)}, scopeErr(op, &s)
}

// submit submits cmd to the device's queue, outside any error scope (as
// WebGPU reports submit errors: uncaptured).
func (d *Device) submit(cmd nCommandBuffer) { C.sg_queue_submit(cu(d.queue.ref), cu(cmd.ref)) }

func (d *Device) writeTimestamp(op string, enc nEncoder, qs nQuerySet, i uint32) error {
	var s C.sgScope
	d.scopeMu.Lock()
	C.sg_encoder_write_timestamp(cu(d.dev.ref), cu(enc.ref), cu(qs.ref), C.uint32_t(i), &s)
	d.scopeMu.Unlock()
	return scopeErr(op, &s)
}

func (d *Device) resolveQuerySet(op string, enc nEncoder, qs nQuerySet, first, count uint32, dst nBuffer, off uint64) error {
	var s C.sgScope
	d.scopeMu.Lock()
	C.sg_encoder_resolve_query_set(cu(d.dev.ref), cu(enc.ref), cu(qs.ref), C.uint32_t(first), C.uint32_t(count), cu(dst.ref), C.uint64_t(off), &s)
	d.scopeMu.Unlock()
	return scopeErr(op, &s)
}

// ---- status words ----

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

// err returns nil: a desktop Sync has no error to report past its flush's
// (the driver's errors are scoped per call).
func (s statusWord) err(string) error { return nil }

// abandon gives the word up: it is freed now if its callback has run, or by
// the callback when it runs.
func (s statusWord) abandon() { C.sg_status_abandon(s.p) }

// liveStatusWords returns how many status words are allocated and not yet
// freed, in the process.
func liveStatusWords() int64 { return int64(C.sg_status_live()) }

// onSubmittedWorkDone sets st once all work submitted to q so far is done.
func onSubmittedWorkDone(q nQueue, st statusWord) {
	C.sg_queue_on_done(cu(q.ref), st.p)
}

// ---- the batch encoder ----

// nativeLaunch is C's sgLaunch: one recorded dispatch by handle, its bind
// groups at firstGroup..firstGroup+groups of the stream's bind group array.
type nativeLaunch struct {
	pipeline           uintptr
	firstGroup, groups uint32
	x, y, z, _         uint32
}

// cScope is C's sgScope, for the Device field encodePass uses.
type cScope = C.sgScope

// maxGroups is C's SG_MAX_GROUPS: the most bind groups a launch sets
// (wgpu-native's own cap).
const maxGroups = 8

// encodePass records ls, whose bind groups are in bgs, into one compute
// pass of enc, in one cgo crossing, and returns the error the pass raised,
// if any.
func (d *Device) encodePass(enc nEncoder, ls []nativeLaunch, bgs []uintptr) (typ ErrorType, msg string, failed bool) {
	if len(ls) == 0 {
		return 0, "", false
	}
	var bgp *C.uintptr_t
	if len(bgs) > 0 {
		bgp = (*C.uintptr_t)(unsafe.Pointer(&bgs[0]))
	}
	// The scope is the device's, under scopeMu: a local one would be moved
	// to the heap (its address goes to C), an allocation per encode. Each
	// call passes &d.encScope itself (here, in beginPass and in endPass):
	// cgo checks a field address as the field alone, but a pointer handed
	// through a helper as the whole Device, which holds Go pointers.
	d.scopeMu.Lock()
	d.encScope = C.sgScope{}
	C.sg_encode_pass(cu(d.dev.ref), cu(enc.ref), (*C.sgLaunch)(unsafe.Pointer(&ls[0])), C.size_t(len(ls)), bgp, &d.encScope)
	scope := d.encScope
	d.scopeMu.Unlock()
	return scopeError(&scope)
}

// beginPass begins a compute pass of enc that stays open across calls; 0
// and the driver's error when it failed.
func (d *Device) beginPass(enc nEncoder) (pass uintptr, typ ErrorType, msg string, failed bool) {
	d.scopeMu.Lock()
	d.encScope = C.sgScope{}
	pass = uintptr(C.sg_pass_begin(cu(d.dev.ref), cu(enc.ref), &d.encScope))
	scope := d.encScope
	d.scopeMu.Unlock()
	typ, msg, failed = scopeError(&scope)
	return pass, typ, msg, failed
}

// recordPass records ls, whose bind groups are in bgs, into the open pass,
// in one cgo crossing. The driver validates them when the pass ends.
func recordPass(pass uintptr, ls []nativeLaunch, bgs []uintptr) {
	if len(ls) == 0 {
		return
	}
	var bgp *C.uintptr_t
	if len(bgs) > 0 {
		bgp = (*C.uintptr_t)(unsafe.Pointer(&bgs[0]))
	}
	C.sg_pass_record(cu(pass), (*C.sgLaunch)(unsafe.Pointer(&ls[0])), C.size_t(len(ls)), bgp)
}

// endPass ends and releases an open pass, returning the error the driver
// found in its commands, if any.
func (d *Device) endPass(pass uintptr) (typ ErrorType, msg string, failed bool) {
	d.scopeMu.Lock()
	d.encScope = C.sgScope{}
	C.sg_pass_end(cu(d.dev.ref), cu(pass), &d.encScope)
	scope := d.encScope
	d.scopeMu.Unlock()
	return scopeError(&scope)
}

// unmapUnscoped unmaps buf outside any error scope (tests: an unmapped
// buffer's unmap is an uncaptured validation error).
func unmapUnscoped(buf nBuffer) { C.sgb_unmap(cu(buf.ref)) }

// mapStatusName names a WGPUBufferMapAsyncStatus.
func mapStatusName(st int32) string {
	switch st {
	case int32(C.WGPUBufferMapAsyncStatus_Success):
		return "Success"
	case int32(C.WGPUBufferMapAsyncStatus_ValidationError):
		return "ValidationError"
	case int32(C.WGPUBufferMapAsyncStatus_Unknown):
		return "Unknown"
	case int32(C.WGPUBufferMapAsyncStatus_DeviceLost):
		return "DeviceLost"
	case int32(C.WGPUBufferMapAsyncStatus_DestroyedBeforeCallback):
		return "DestroyedBeforeCallback"
	case int32(C.WGPUBufferMapAsyncStatus_UnmappedBeforeCallback):
		return "UnmappedBeforeCallback"
	}
	return "status " + strconv.Itoa(int(st))
}
