//go:build js && wasm

package wgpu_test

import "syscall/js"

// heaps returns the Go heap and the page's JS heap, each after a
// collection (the JS heap's with gc() and performance.memory, which the
// test browser has exactly: internal/chromium's flags); jsOK is false
// where the page has neither.
func heaps() (goBytes, jsBytes int64, jsOK bool) {
	g := js.Global()
	if gc := g.Get("gc"); gc.Type() == js.TypeFunction {
		gc.Invoke()
		gc.Invoke()
	} else {
		return goHeap(), 0, false
	}
	m := g.Get("performance").Get("memory")
	if m.Type() != js.TypeObject {
		return goHeap(), 0, false
	}
	return goHeap(), int64(m.Get("usedJSHeapSize").Float()), true
}
