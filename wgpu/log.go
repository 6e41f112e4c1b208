package wgpu

import "fmt"

// SetLogLevel sets wgpu-native's log level for the whole process. It is
// safe to call at any time; it panics on an invalid level.
func SetLogLevel(l LogLevel) {
	if l > LogTrace {
		panic(fmt.Sprintf("wgpu: invalid LogLevel %d", l))
	}
	setLogLevel(l)
}
