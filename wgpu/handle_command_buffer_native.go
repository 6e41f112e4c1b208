//go:build cgo

package wgpu

/*
#include "capi.h"
*/
import "C"

// nCommandBuffer is a finished encoder's command buffer, released right
// after its one submit.
type nCommandBuffer struct{ ref uintptr }

func (h nCommandBuffer) release() { C.sg_command_buffer_release(cu(h.ref)) }

// finish finishes enc (which the caller still releases) into a command
// buffer.
func (d *Device) finish(op string, enc nEncoder) (nCommandBuffer, error) {
	var s C.sgScope
	d.scopeMu.Lock()
	ref := C.sg_encoder_finish(cu(d.dev.ref), cu(enc.ref), &s)
	d.scopeMu.Unlock()
	return nCommandBuffer{uintptr(ref)}, scopeErr(op, &s)
}
