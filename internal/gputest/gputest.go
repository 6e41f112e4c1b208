//go:build cgo || (js && wasm)

// Package gputest opens real WebGPU devices for tests: on a GPU, or on Mesa's
// lavapipe (Vulkan on the CPU) where there is none.
package gputest

import (
	"os"

	"github.com/streamgate/streamgate/wgpu"
)

// Main runs a test binary's tests with a quiet driver (wgpu-native logs
// only errors) and exits. Call it from TestMain; run is m.Run, or a wrapper
// of it. (wgpu itself gives lavapipe the XDG_RUNTIME_DIR it complains
// about when unset.)
//
// The binary's kernel cache is a directory of its own, removed at the end
// (unless STREAMGATE_KERNEL_CACHE names one already): what tests lower
// stays out of the user's cache, and no test finds a source lowered by
// another run.
func Main(run func() int) {
	wgpu.SetLogLevel(wgpu.LogError)
	var dir string
	if os.Getenv(wgpu.KernelCacheEnv) == "" {
		var err error
		if dir, err = os.MkdirTemp("", "streamgate-test-kernels-"); err == nil {
			os.Setenv(wgpu.KernelCacheEnv, dir)
		}
	}
	code := run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// Required reports whether tests must fail, rather than skip, without an
// adapter: STREAMGATE_REQUIRE_ADAPTER=1, as make test and CI set.
func Required() bool { return os.Getenv("STREAMGATE_REQUIRE_ADAPTER") == "1" }
