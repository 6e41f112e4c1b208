//go:build cgo && unix

package wgpu_test

import (
	"os"
	"syscall"
)

// crashSignature is in the output of a child that crashNow killed.
const crashSignature = "SIGSEGV"

// crashNow kills the process as a driver abort would: with SIGSEGV.
func crashNow() { syscall.Kill(os.Getpid(), syscall.SIGSEGV) }
