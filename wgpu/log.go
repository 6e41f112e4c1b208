//go:build cgo

package wgpu

import (
	"fmt"

	gowgpu "github.com/rajveermalviya/go-webgpu/wgpu"
)

// LogLevel is how much wgpu-native writes to standard error.
type LogLevel uint8

const (
	LogOff   LogLevel = iota // nothing
	LogError                 // errors only: what tests and the command use
	LogWarn                  // also warnings, e.g. every backend probed and unusable
	LogInfo
	LogDebug
	LogTrace
)

// SetLogLevel sets wgpu-native's log level for the whole process. It is
// safe to call at any time; it panics on an invalid level.
func SetLogLevel(l LogLevel) {
	if l > LogTrace {
		panic(fmt.Sprintf("wgpu: invalid LogLevel %d", l))
	}
	gowgpu.SetLogLevel(gowgpu.LogLevel(l))
}
