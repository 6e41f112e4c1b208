//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nQueue is a device's queue; Device.Close releases it.
type nQueue struct{ ref uintptr }

func (h nQueue) release() { C.sg_queue_release(cu(h.ref)) }

// submit submits cmd to the device's queue, outside any error scope (as
// WebGPU reports submit errors: uncaptured).
func (d *Device) submit(cmd nCommandBuffer) { C.sg_queue_submit(cu(d.queue.ref), cu(cmd.ref)) }
