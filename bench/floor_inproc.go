//go:build cgo && linux

package bench

// The C floor in this process: floor.c compiled into the package
// (FLOOR_IN_PROCESS), its loop called once a pass of chunk dispatches, so
// that it runs on this process's heap, allocator and threads, as the Go
// paths do, with no Go on its path (one crossing per pass). Set beside the
// child process's floor, it tells what of a Go path's distance from the
// floor is the process it runs in and what is the Go layer.

/*
#cgo CFLAGS: -O2 -DFLOOR_IN_PROCESS -I${SRCDIR}/../wgpu
#include "cfloor/floor.c"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

var inproc struct {
	mu sync.Mutex // the floor's state is C statics: one call at a time
	n  int        // kernels opened; 0 until an open succeeds
}

// openInProcessFloor makes the in-process floor's device and a pipeline,
// buffer and bind group per source, once a process: after a success,
// later calls do nothing and return nil. An open that fails (a kernel the
// driver refuses) says why, and may be tried again; what it made is left
// (a benchmark's process, which ends soon).
func openInProcessFloor(srcs []string) error {
	inproc.mu.Lock()
	defer inproc.mu.Unlock()
	if inproc.n > 0 {
		return nil
	}
	n := len(srcs)
	if n < 1 || n > int(C.MAX_KERNELS) {
		return fmt.Errorf("bench: the in-process C floor takes 1 to %d kernels, not %d", int(C.MAX_KERNELS), n)
	}
	arr := (**C.char)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	defer C.free(unsafe.Pointer(arr))
	cs := unsafe.Slice(arr, n)
	for i, s := range srcs {
		cs[i] = C.CString(s)
	}
	msg := C.floor_open(arr, C.int(n))
	for _, c := range cs {
		C.free(unsafe.Pointer(c))
	}
	if msg != nil {
		return errors.New("bench: the in-process C floor: " + C.GoString(msg))
	}
	inproc.n = n
	return nil
}

// runInProcessFloor runs count dispatches over kernels pipelines in passes
// of at most chunk and returns the nanoseconds the passes' timed parts
// took (as the child's floor times them).
func runInProcessFloor(kernels, count, chunk int) (int64, error) {
	inproc.mu.Lock()
	defer inproc.mu.Unlock()
	if inproc.n == 0 {
		return 0, errors.New("bench: the in-process C floor is not open")
	}
	var msg *C.char
	ns := C.floor_run(C.int(kernels), C.int64_t(count), C.int(chunk), &msg)
	if ns < 0 {
		return 0, errors.New("bench: the in-process C floor: " + C.GoString(msg))
	}
	return int64(ns), nil
}
