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
	t := ErrorTypeValidation
	switch typ {
	case 2:
		t = ErrorTypeOutOfMemory
	case 3:
		t = ErrorTypeInternal
	}
	d.reportUncaptured(t, C.GoString(msg))
}
