//go:build cgo || (js && wasm)

// Package gputest opens real WebGPU devices for tests: on a GPU, or on Mesa's
// lavapipe (Vulkan on the CPU) where there is none.
package gputest

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"go.uber.org/goleak"

	"github.com/streamgate/streamgate/wgpu"
)

// Main runs a test binary's tests with a quiet driver (wgpu-native logs
// only errors) and exits. Call it from TestMain; run is m.Run, or a wrapper
// of it. (wgpu itself gives lavapipe the XDG_RUNTIME_DIR it complains
// about when unset.)
func Main(run func() int) {
	wgpu.SetLogLevel(wgpu.LogError)
	os.Exit(run())
}

// RunLeakChecked runs m's tests and then, if they passed, fails the binary
// when goroutines are left running (goleak). Pass it to [Main]:
//
//	func TestMain(m *testing.M) { gputest.Main(func() int { return gputest.RunLeakChecked(m) }) }
func RunLeakChecked(m *testing.M) int {
	code := m.Run()
	if code == 0 {
		var opts []goleak.Option
		if runtime.GOOS == "js" {
			// The runtime's own goroutine that runs js.FuncOf callbacks
			// (syscall/js), parked between events.
			opts = append(opts, goleak.IgnoreAnyFunction("runtime.handleEvent"))
		}
		if err := goleak.Find(opts...); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			return 1
		}
	}
	return code
}

// Required reports whether tests must fail, rather than skip, without an
// adapter: STREAMGATE_REQUIRE_ADAPTER=1, as make test and CI set.
func Required() bool { return os.Getenv("STREAMGATE_REQUIRE_ADAPTER") == "1" }
