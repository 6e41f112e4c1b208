//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

import "unsafe"

// nEncoder is a command encoder; its stream (or submitOnce) releases it.
type nEncoder struct{ ref uintptr }

func (h nEncoder) release() { C.sg_command_encoder_release(cu(h.ref)) }

func (d *Device) createCommandEncoder(op string) (nEncoder, error) {
	var s C.sgScope
	d.scopeMu.Lock()
	ref := C.sg_create_command_encoder(cu(d.dev.ref), &s)
	d.scopeMu.Unlock()
	return nEncoder{uintptr(ref)}, scopeErr(op, &s)
}

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
