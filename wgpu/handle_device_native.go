//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nDevice is a device; Device.Close releases it, after every object made
// on it.
type nDevice struct{ ref uintptr }

func (h nDevice) release() { C.sg_device_release(cu(h.ref)) }

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
		MaxTextureDimension1D:             uint32(l.maxTextureDimension1D),
		MaxTextureDimension2D:             uint32(l.maxTextureDimension2D),
		MaxTextureDimension3D:             uint32(l.maxTextureDimension3D),
		MaxTextureArrayLayers:             uint32(l.maxTextureArrayLayers),
	}
}

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
