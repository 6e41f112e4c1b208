//go:build cgo

package wgpu

// This file holds the cgo of buffer transfers: upload, copy, clear and the
// two halves of a read-back, each one crossing that pushes and pops its
// error scopes itself. Going around go-webgpu here keeps the transfer path
// free of Go allocations (go-webgpu allocates a handle struct per encoder
// and command buffer and a cgo.Handle per error scope), so that a loop that
// reads back into its own slice allocates nothing. As in native.go, the
// prototypes are declared against wgpu-native 0.17's C ABI.
//
// The map callback of a read-back writes status+1 into a word that the
// staging buffer owns for its whole life (see staging.go); unlike
// native.go's status words it is never freed by the callback.

/*
#cgo noescape sgb_write
#cgo nocallback sgb_write
#cgo noescape sgb_copy
#cgo nocallback sgb_copy
#cgo noescape sgb_read_start
#cgo nocallback sgb_read_start
#cgo noescape sgb_read_finish
#cgo nocallback sgb_read_finish
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "scope.h"

typedef void (*sgbErrorCallback)(uint32_t type, char const *message, void *userdata);
typedef void (*sgbStatusCallback)(uint32_t status, void *userdata);

extern void wgpuDevicePushErrorScope(void *device, uint32_t filter);
extern void wgpuDevicePopErrorScope(void *device, sgbErrorCallback callback, void *userdata);
extern void *wgpuDeviceCreateCommandEncoder(void *device, void const *descriptor);
extern void wgpuCommandEncoderCopyBufferToBuffer(void *enc, void *src, uint64_t srcOff, void *dst, uint64_t dstOff, uint64_t size);
extern void wgpuCommandEncoderClearBuffer(void *enc, void *buf, uint64_t off, uint64_t size);
extern void *wgpuCommandEncoderFinish(void *enc, void const *desc);
extern void wgpuCommandEncoderRelease(void *enc);
extern void wgpuCommandBufferRelease(void *cmd);
extern void wgpuQueueSubmit(void *queue, size_t n, void *const *cmds);
extern void wgpuQueueWriteBuffer(void *queue, void *buf, uint64_t off, void const *data, size_t size);
extern void wgpuBufferMapAsync(void *buffer, uint32_t mode, size_t offset, size_t size, sgbStatusCallback cb, void *userdata);
extern void const *wgpuBufferGetConstMappedRange(void *buffer, size_t offset, size_t size);
extern void wgpuBufferUnmap(void *buffer);

static void sgb_status_cb(uint32_t status, void *userdata) {
	__atomic_store_n((int32_t *)userdata, (int32_t)status + 1, __ATOMIC_SEQ_CST);
}

static void sgb_write(uintptr_t device, uintptr_t queue, uintptr_t buf, uint64_t off, void const *data, size_t size, sgScope *scope) {
	wgpuDevicePushErrorScope((void *)device, 0);
	wgpuQueueWriteBuffer((void *)queue, (void *)buf, off, data, size);
	wgpuDevicePopErrorScope((void *)device, sg_scope_cb, scope);
}

// sgb_copy records a copy from src (or, when src is 0, a clear of dst)
// into a fresh encoder and submits it, unless recording failed.
static void sgb_copy(uintptr_t device, uintptr_t queue, uintptr_t src, uint64_t srcOff, uintptr_t dst, uint64_t dstOff, uint64_t size, sgScope *scope) {
	void *dev = (void *)device;
	wgpuDevicePushErrorScope(dev, 0);
	void *enc = wgpuDeviceCreateCommandEncoder(dev, NULL);
	if (src == 0) {
		wgpuCommandEncoderClearBuffer(enc, (void *)dst, dstOff, size);
	} else {
		wgpuCommandEncoderCopyBufferToBuffer(enc, (void *)src, srcOff, (void *)dst, dstOff, size);
	}
	void *cmd = wgpuCommandEncoderFinish(enc, NULL);
	wgpuDevicePopErrorScope(dev, sg_scope_cb, scope);
	wgpuCommandEncoderRelease(enc);
	if (cmd == NULL) return;
	if (scope->type == 0) {
		wgpuDevicePushErrorScope(dev, 0);
		wgpuQueueSubmit((void *)queue, 1, &cmd);
		wgpuDevicePopErrorScope(dev, sg_scope_cb, scope);
	}
	wgpuCommandBufferRelease(cmd);
}

// sgb_read_start copies size bytes of src at srcOff to the start of
// staging, submits the copy and starts mapping staging; the map callback
// sets *status. It returns 1 when mapping started (the callback will run).
static int sgb_read_start(uintptr_t device, uintptr_t queue, uintptr_t src, uint64_t srcOff, uintptr_t staging, uint64_t size, int32_t *status, sgScope *scope) {
	sgb_copy(device, queue, src, srcOff, staging, 0, size, scope);
	if (scope->type != 0) return 0;
	__atomic_store_n(status, 0, __ATOMIC_SEQ_CST);
	wgpuDevicePushErrorScope((void *)device, 0);
	wgpuBufferMapAsync((void *)staging, 1, 0, size, sgb_status_cb, status);
	wgpuDevicePopErrorScope((void *)device, sg_scope_cb, scope);
	return 1;
}

// sgb_read_finish copies the mapped range of staging into dst and unmaps
// it. It returns 0 when the range could not be had.
static int sgb_read_finish(uintptr_t staging, size_t size, void *dst) {
	void const *p = wgpuBufferGetConstMappedRange((void *)staging, 0, size);
	if (p != NULL && size > 0) memcpy(dst, p, size);
	wgpuBufferUnmap((void *)staging);
	return p != NULL || size == 0;
}

static void sgb_unmap(uintptr_t staging) { wgpuBufferUnmap((void *)staging); }

static int32_t *sgb_word_new(void) { return (int32_t *)calloc(1, sizeof(int32_t)); }
static void sgb_word_free(int32_t *p) { free(p); }
static int32_t sgb_word_load(int32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
*/
import "C"

import (
	"unsafe"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// transferScopeError is scopeError's record as an *Error of op, or nil
// when the scopes caught nothing.
func transferScopeError(op string, s *C.sgScope) error {
	if typ, msg, failed := scopeError(s); failed {
		return &Error{Op: op, Type: typ, Message: msg}
	}
	return nil
}

// queueWrite uploads data to buf at off. Called inside d.enter.
func (d *Device) queueWrite(op string, buf *gowgpu.Buffer, off uint64, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	var s C.sgScope
	d.scopeMu.Lock()
	C.sgb_write(deviceRef(d.dev), queueRef(d.queue), bufferRef(buf), C.uint64_t(off), unsafe.Pointer(unsafe.SliceData(data)), C.size_t(len(data)), &s)
	d.scopeMu.Unlock()
	return transferScopeError(op, &s)
}

// submitCopy submits a copy of size bytes from src at srcOff to dst at
// dstOff, or a clear of that range of dst when src is nil. Called inside
// d.enter.
func (d *Device) submitCopy(op string, src *gowgpu.Buffer, srcOff uint64, dst *gowgpu.Buffer, dstOff, size uint64) error {
	var s C.sgScope
	var srcRef C.uintptr_t
	if src != nil {
		srcRef = bufferRef(src)
	}
	d.scopeMu.Lock()
	C.sgb_copy(deviceRef(d.dev), queueRef(d.queue), srcRef, C.uint64_t(srcOff), bufferRef(dst), C.uint64_t(dstOff), C.uint64_t(size), &s)
	d.scopeMu.Unlock()
	return transferScopeError(op, &s)
}

// mapWord is C memory a staging buffer's map callback writes status+1
// into; 0 while a map is pending (or none was started).
type mapWord struct{ p *C.int32_t }

func newMapWord() mapWord {
	p := C.sgb_word_new()
	if p == nil {
		panic("wgpu: out of C memory")
	}
	return mapWord{p}
}

func (w mapWord) load() int32 { return int32(C.sgb_word_load(w.p)) }
func (w mapWord) free()       { C.sgb_word_free(w.p) }

// status returns the map's status word for waitStatus.
func (w mapWord) status() statusWord { return statusWord(w) }

// readStart copies size bytes of src at srcOff into staging and starts
// mapping it; started reports whether the map callback will run. Called
// inside d.enter.
func (d *Device) readStart(op string, src *gowgpu.Buffer, srcOff uint64, staging *gowgpu.Buffer, size uint64, w mapWord) (started bool, err error) {
	var s C.sgScope
	d.scopeMu.Lock()
	ok := C.sgb_read_start(deviceRef(d.dev), queueRef(d.queue), bufferRef(src), C.uint64_t(srcOff), bufferRef(staging), C.uint64_t(size), w.p, &s)
	d.scopeMu.Unlock()
	return ok != 0, transferScopeError(op, &s)
}

// readFinish copies the mapped staging buffer into dst and unmaps it.
// Called inside d.enter once the map succeeded.
func readFinish(staging *gowgpu.Buffer, dst []byte) bool {
	return C.sgb_read_finish(bufferRef(staging), C.size_t(len(dst)), unsafe.Pointer(unsafe.SliceData(dst))) != 0
}

// unmap unmaps a staging buffer whose map succeeded. Called inside d.enter.
func unmap(staging *gowgpu.Buffer) { C.sgb_unmap(bufferRef(staging)) }
