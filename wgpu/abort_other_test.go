//go:build cgo && !unix

package wgpu_test

// crashSignature is in the output of a child that crashNow killed.
const crashSignature = "deliberate crash"

// crashNow kills the process from another goroutine, as close to a driver
// abort as this system allows.
func crashNow() { go panic("deliberate crash") }
