//go:build cgo

package bench_test

import (
	"errors"
	"testing"

	"github.com/streamgate/streamgate/bench"
	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/wgpu"
)

// The bodies live in bench.LaunchSuite, which the streamgate bench command
// runs too. Each wrapper opens the devices once for its sub-benchmarks.

// runLaunch runs thing's launch cases on devices opened for b.
func runLaunch(b *testing.B, thing string) {
	e, err := bench.OpenLaunchEnv(wgpu.Options{})
	if errors.Is(err, wgpu.ErrNoAdapter) && !gputest.Required() {
		b.Skipf("no WebGPU adapter: %v", err)
	}
	if err != nil {
		b.Fatalf("OpenLaunchEnv: %v", err)
	}
	defer e.Close()
	bench.Run(b, bench.LaunchSuite(e), thing)
}

func BenchmarkLaunchLoop(b *testing.B)       { runLaunch(b, "LaunchLoop") }
func BenchmarkExecutedLaunch(b *testing.B)   { runLaunch(b, "ExecutedLaunch") }
func BenchmarkDiscardedLaunch(b *testing.B)  { runLaunch(b, "DiscardedLaunch") }
func BenchmarkReplay(b *testing.B)           { runLaunch(b, "Replay") }
func BenchmarkLaunchRecord(b *testing.B)     { runLaunch(b, "LaunchRecord") }
func BenchmarkFloor(b *testing.B)            { runLaunch(b, "Floor") }
func BenchmarkDiscardedReplay(b *testing.B)  { runLaunch(b, "DiscardedReplay") }
func BenchmarkTextureLaunch(b *testing.B)    { runLaunch(b, "TextureLaunch") }
func BenchmarkLaunchThroughput(b *testing.B) { runLaunch(b, "LaunchThroughput") }
func BenchmarkCompile(b *testing.B)          { runLaunch(b, "Compile") }
func BenchmarkWarmupCompile(b *testing.B)    { runLaunch(b, "WarmupCompile") }
func BenchmarkCompileProfile(b *testing.B)   { runLaunch(b, "CompileProfile") }
func BenchmarkStep(b *testing.B)             { runLaunch(b, "Step") }
func BenchmarkModelStep(b *testing.B)        { runLaunch(b, "ModelStep") }
func BenchmarkDecode(b *testing.B)           { runLaunch(b, "Decode") }
