//go:build unix

// Package crash kills a test's child process as a driver abort would, so
// that the parent's check of an abort can be shown to catch one.
package crash

import (
	"os"
	"syscall"
)

// Signature is in the output of a child that Now killed.
const Signature = "SIGSEGV"

// Now kills the process as a driver abort would: with SIGSEGV.
func Now() { syscall.Kill(os.Getpid(), syscall.SIGSEGV) }
