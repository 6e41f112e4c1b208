//go:build cgo

package main

import (
	"fmt"
	"io"
	"time"
)

// compileWorkersUsage is the help of -compile-workers.
const compileWorkersUsage = "kernels the warm-up compiles at once (wgpu.Options.CompileWorkers); 0: GOMAXPROCS, 1: one at a time"

// printWarmupCompile prints the warm-up's compile time: the wall time some
// pipeline was compiling (wgpu.Stats.CompileTime), with the workers and the
// pipelines.
func printWarmupCompile(w io.Writer, compile time.Duration, workers int, pipelines int64) {
	fmt.Fprintf(w, "  warm-up compile:           %.1f ms on %d workers (%d pipelines)\n", ms(compile), workers, pipelines)
}
