//go:build cgo

package wgpu

// This file and the handle_*_native.go files are the Go side of the
// package's C API (capi.h): the handle types the package owns (one file
// each, as go-webgpu lays them out) and the methods that call capi.h's
// shims. Every wgpu-native call but the transfers' (transfer_native.go) and
// the callbacks' (callbacks_native.go) is made from them. A handle is a struct
// whose ref is the C handle as a uintptr (C memory: the garbage collector
// never looks at it); the zero handle is none. Each handle's release drops
// the package's one reference; who calls it is said where the handle is
// kept.
//
// The status words below keep their live count in this file's copy of
// capi.h's statics: their functions are called from here only (so
// onSubmittedWorkDone, whose callback frees a word, is here too and not
// with nQueue).

/*
#include "capi.h"
*/
import "C"

import (
	"strconv"
	"unsafe"
)

func cu(h uintptr) C.uintptr_t { return C.uintptr_t(h) }

// ---- shared enum numbers ----

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

// The creating calls (each handle's create*, in its handle_*_native.go
// file) run their shim with the device's scope mutex held (wgpu-native's
// error scopes are per device) and return what its scopes caught as an
// *Error of op; on error the handle is zero and nothing is left to
// release. They are called inside d.enter.

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
