//go:build cgo

package wgpu_test

// heaps returns the Go heap after a collection; a desktop process has no
// JS heap (jsOK false).
func heaps() (goBytes, jsBytes int64, jsOK bool) { return goHeap(), 0, false }
