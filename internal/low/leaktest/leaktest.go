// Package leaktest holds the goleak options every leak check of the module
// passes, so that checks agree across platforms.
package leaktest

import (
	"runtime"

	"go.uber.org/goleak"
)

// Options returns opts with the options of this platform added. Under
// GOOS=js the runtime keeps a goroutine parked in runtime.handleEvent
// while Go code runs on behalf of a call from JavaScript (a timer firing,
// a file call's callback): it is the event's, not a leak, and it is there
// whenever the check runs after such a call.
func Options(opts ...goleak.Option) []goleak.Option {
	if runtime.GOOS == "js" {
		opts = append(opts, goleak.IgnoreAnyFunction("runtime.handleEvent"))
	}
	return opts
}
