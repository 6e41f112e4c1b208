//go:build cgo

package wgpu

// go-webgpu carries wgpu-native: its package links the static
// libwgpu_native (and the system libraries it needs) for every platform
// it ships, and this package calls that library through its own shims
// (capi.h), over a copy of the header go-webgpu ships beside it. Nothing of
// go-webgpu's Go API is used.
import _ "github.com/rajveermalviya/go-webgpu/wgpu"
