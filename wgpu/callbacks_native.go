//go:build cgo

package wgpu

// The C→Go callbacks of the package, all in this file: the C trampolines
// that wgpu-native calls, and the //export Go functions they call. The
// other callbacks of capi.h (error scopes, status and map words, adapter
// and device requests) stay in C: they write into C memory (or the
// caller's frame, for the synchronous ones) and call no Go.
//
// The uncaptured-error callback's userdata is the device's cgo.Handle, as
// a uintptr_t, cast in C (STYLE.md: no Go pointer is kept by C).

/*
#include "capi.h"

static uint64_t sg_uncaptured_count;

static void sg_uncaptured_cb(WGPUErrorType type, char const *message, void *userdata) {
	__atomic_add_fetch(&sg_uncaptured_count, 1, __ATOMIC_SEQ_CST);
	if (userdata != NULL) {
		sgUncapturedError((uintptr_t)userdata, (uint32_t)type, (char *)(message ? message : ""));
	} else {
		fprintf(stderr, "wgpu: uncaptured WebGPU error (type %u): %s\n", (unsigned)type, message ? message : "");
	}
}

static void sg_set_uncaptured(uintptr_t device, uintptr_t handle) {
	wgpuDeviceSetUncapturedErrorCallback((WGPUDevice)device, sg_uncaptured_cb, (void *)handle);
}

static uint64_t sg_uncaptured(void) { return __atomic_load_n(&sg_uncaptured_count, __ATOMIC_SEQ_CST); }

static void sg_log_cb(WGPULogLevel level, char const *message, void *userdata) {
	sgDriverLog((uint32_t)level, (char *)(message ? message : ""), userdata);
}

static void sg_set_log_callback(void) { wgpuSetLogCallback(sg_log_cb, NULL); }
*/
import "C"

import (
	"context"
	"runtime/cgo"
	"unsafe"
)

// init routes wgpu-native's log, which go-webgpu prints to standard error,
// to log/slog (logsink.go).
func init() { C.sg_set_log_callback() }

//export sgDriverLog
func sgDriverLog(level C.uint32_t, message *C.char, _ unsafe.Pointer) {
	l := driverLog.Load()
	if l == nil {
		l = defaultLogger()
	}
	lv := slogLevel(LogLevel(level))
	if !l.Enabled(context.Background(), lv) {
		return
	}
	l.Log(context.Background(), lv, C.GoString(message), "component", "wgpu-native")
}

// setUncapturedErrorCallback makes errors raised outside an error scope on
// dev count and go to the logger of the device h holds (a cgo.Handle of a
// *Device), instead of aborting the process.
func setUncapturedErrorCallback(dev nDevice, h cgo.Handle) {
	C.sg_set_uncaptured(C.uintptr_t(dev.ref), C.uintptr_t(h))
}

// uncapturedErrors returns how many errors escaped every error scope in this
// process.
func uncapturedErrors() uint64 { return uint64(C.sg_uncaptured()) }

// sgUncapturedError receives a WebGPU error that escaped every error scope
// on the device whose cgo.Handle is h, and logs it to that device's logger.
//
//export sgUncapturedError
func sgUncapturedError(h C.uintptr_t, typ C.uint32_t, msg *C.char) {
	d, ok := cgo.Handle(h).Value().(*Device)
	if !ok {
		return
	}
	d.reportUncaptured(errorTypeOf(uint32(typ)), C.GoString(msg))
}
