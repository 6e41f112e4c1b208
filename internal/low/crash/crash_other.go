//go:build !unix

package crash

// Signature is in the output of a child that Now killed.
const Signature = "deliberate crash"

// Now kills the process from another goroutine, as close to a driver abort
// as this system allows.
func Now() { go panic("deliberate crash") }
