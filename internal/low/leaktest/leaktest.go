// Package leaktest is the module's one goroutine-leak check of a test
// binary (Run) and the goleak options every leak check of the module
// passes (Options), so that checks agree across platforms.
package leaktest

import (
	"fmt"
	"os"
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

// Run calls run (a test binary's m.Run, or a wrapper of it) and returns
// its exit code; if the tests passed but goroutines are left running, it
// writes them to stderr and returns 1. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(leaktest.Run(m.Run)) }
func Run(run func() int) int {
	code := run()
	if code == 0 {
		if err := goleak.Find(Options()...); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			return 1
		}
	}
	return code
}
