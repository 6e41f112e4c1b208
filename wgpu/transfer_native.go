//go:build cgo

package wgpu

// This file holds the cgo of buffer transfers: upload, copy, clear and the
// two halves of a read-back, each one crossing of a capi.h shim that pushes
// and pops its error scopes itself and allocates nothing in Go, so that a
// loop that reads back into its own slice allocates nothing.
//
// The map callback of a read-back writes status+1 into a word that the
// staging buffer owns for its whole life (see staging.go); unlike
// cgo_native.go's status words it is never freed by the callback.

/*
#cgo noescape sgb_write
#cgo nocallback sgb_write
#cgo noescape sgb_copy
#cgo nocallback sgb_copy
#cgo noescape sgb_read_start
#cgo nocallback sgb_read_start
#cgo noescape sgb_read_finish
#cgo nocallback sgb_read_finish
#include "capi.h"
*/
import "C"

import "unsafe"

// queueWrite uploads data to buf at off. Called inside d.enter.
func (d *Device) queueWrite(op string, buf nBuffer, off uint64, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	var s C.sgScope
	d.scopeMu.Lock()
	C.sgb_write(cu(d.dev.ref), cu(d.queue.ref), cu(buf.ref), C.uint64_t(off), unsafe.Pointer(unsafe.SliceData(data)), C.size_t(len(data)), &s)
	d.scopeMu.Unlock()
	return scopeErr(op, &s)
}

// submitCopy submits a copy of size bytes from src at srcOff to dst at
// dstOff, or a clear of that range of dst when src is zero. Called inside
// d.enter.
func (d *Device) submitCopy(op string, src nBuffer, srcOff uint64, dst nBuffer, dstOff, size uint64) error {
	var s C.sgScope
	var srcRef C.uintptr_t
	if src.ref != 0 {
		srcRef = cu(src.ref)
	}
	d.scopeMu.Lock()
	C.sgb_copy(cu(d.dev.ref), cu(d.queue.ref), srcRef, C.uint64_t(srcOff), cu(dst.ref), C.uint64_t(dstOff), C.uint64_t(size), &s)
	d.scopeMu.Unlock()
	return scopeErr(op, &s)
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
func (d *Device) readStart(op string, src nBuffer, srcOff uint64, staging nBuffer, size uint64, w mapWord) (started bool, err error) {
	var s C.sgScope
	d.scopeMu.Lock()
	ok := C.sgb_read_start(cu(d.dev.ref), cu(d.queue.ref), cu(src.ref), C.uint64_t(srcOff), cu(staging.ref), C.uint64_t(size), w.p, &s)
	d.scopeMu.Unlock()
	return ok != 0, scopeErr(op, &s)
}

// readFinish copies the mapped staging buffer s into dst and unmaps it.
// Called inside d.enter once the map succeeded.
func (d *Device) readFinish(s *staging, dst []byte) bool {
	return C.sgb_read_finish(cu(s.buf.ref), C.size_t(len(dst)), unsafe.Pointer(unsafe.SliceData(dst))) != 0
}

// unmapStaging unmaps a staging buffer whose map succeeded. Called inside
// d.enter.
func (d *Device) unmapStaging(s *staging) { C.sgb_unmap(cu(s.buf.ref)) }

// newStagingHandle creates a staging buffer of size bytes, MapRead and
// CopyDst. Called inside d.enter.
func (d *Device) newStagingHandle(op string, size uint64) (nBuffer, error) {
	return d.createBuffer(op, "streamgate-staging", size, BufferUsageMapRead|BufferUsageCopyDst)
}
