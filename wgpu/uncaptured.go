//go:build cgo

package wgpu

/*
#include <stdint.h>
*/
import "C"

import "runtime/cgo"

// sgUncapturedError receives, from native.go's callback, a WebGPU error
// that escaped every error scope on the device whose cgo.Handle is h, and
// logs it to that device's logger.
//
//export sgUncapturedError
func sgUncapturedError(h C.uintptr_t, typ C.uint32_t, msg *C.char) {
	d, ok := cgo.Handle(h).Value().(*Device)
	if !ok {
		return
	}
	d.reportUncaptured(errorTypeOf(uint32(typ)), C.GoString(msg))
}
