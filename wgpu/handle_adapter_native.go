//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

import "unsafe"

// nAdapter is an adapter; Device.Close releases a device's.
type nAdapter struct{ ref uintptr }

func (h nAdapter) release() { C.sg_adapter_release(cu(h.ref)) }

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
