//go:build js && wasm

package wgpu_test

import (
	"syscall/js"
	"time"
)

// heaps returns the Go heap and the page's JS heap, each after a
// collection (the JS heap's with gc() and performance.memory, which the
// test browser has exactly: internal/chromium's flags); jsOK is false
// where the page has neither.
func heaps() (goBytes, jsBytes int64, jsOK bool) {
	goBytes = goHeap()
	// The collection queued the finalizers of the js.Values it freed;
	// they release their references in the page once they have run.
	time.Sleep(20 * time.Millisecond)
	g := js.Global()
	if gc := g.Get("gc"); gc.Type() == js.TypeFunction {
		gc.Invoke()
		gc.Invoke()
	} else {
		return goBytes, 0, false
	}
	m := g.Get("performance").Get("memory")
	if m.Type() != js.TypeObject {
		return goBytes, 0, false
	}
	return goBytes, int64(m.Get("usedJSHeapSize").Float()), true
}
