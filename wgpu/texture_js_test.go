//go:build js && wasm

package wgpu_test

import (
	"runtime"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// soakNative has nothing to count in a browser: the page keeps no report
// of live objects.
func soakNative(*testing.T, *wgpu.Device, int) {}
