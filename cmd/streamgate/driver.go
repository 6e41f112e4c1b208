//go:build cgo

package main

import "github.com/streamgate/streamgate/wgpu"

// init quiets the driver before any device opens, as internal/gputest does
// for tests: wgpu-native logs only errors. (wgpu itself gives lavapipe the
// XDG_RUNTIME_DIR it complains about when unset.)
func init() { wgpu.SetLogLevel(wgpu.LogError) }
