// Package spin is what a busy loop needs to stay correct where goroutines
// are not preempted: under GOARCH=wasm (GOOS=js in a browser, wasip1) the
// program has one thread and a goroutine runs until it blocks or yields, so
// a loop that polls for something another goroutine does — a reader of a
// stress test waiting for its stop channel, a wait for a flag — hangs the
// program unless it yields.
package spin

import "runtime"

// cooperative reports whether the runtime never preempts a running
// goroutine: true for GOARCH=wasm.
const cooperative = runtime.GOARCH == "wasm"

// Yield lets the other goroutines run where the runtime does not preempt
// (GOARCH=wasm), with runtime.Gosched. Elsewhere it does nothing, so the
// readers of a stress test spin as fast as they did without it. Call it in
// every iteration of a loop that polls.
func Yield() {
	if cooperative {
		runtime.Gosched()
	}
}
