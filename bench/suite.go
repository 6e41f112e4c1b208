package bench

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// ErrNoCgo is what [OpenLaunchEnv] returns in a build without cgo: the
// launch benchmarks need the wgpu package.
var ErrNoCgo = errors.New("bench: the launch benchmarks need cgo (the wgpu package)")

// Case is one benchmark of a suite, runnable by go test (through the thin
// wrappers in this package's _test files) and by testing.Benchmark (the
// streamgate bench command) alike.
//
// Its name is the one go test prints, less the "Benchmark" prefix and the
// -N GOMAXPROCS suffix: <Thing>/impl=<name>[/<key>=<value>], e.g.
// "Mode/impl=seed/k=8", so that benchstat -col /impl compares the
// implementations of one Thing.
type Case struct {
	Thing string // "Mode", "LaunchLoop", ...
	Impl  string // the impl= value
	// Key and Value are the optional last element, e.g. "k" and "8" or
	// "goroutines" and "2"; Key is "" when the name has none.
	Key, Value string
	// Baseline is the impl= of the case of the same Thing, Key and Value
	// this one is compared with ("seed", "raw-one-pass"), or "" for none.
	Baseline string
	// PerCPU says the case reads under b.RunParallel, so the number of
	// readers is GOMAXPROCS: go test's -cpu list, or the command's, applies.
	// Other cases run at the machine's GOMAXPROCS.
	PerCPU bool
	// F is the benchmark body.
	F func(b *testing.B)
}

// Name returns "<Thing>/impl=<Impl>[/<Key>=<Value>]".
func (c Case) Name() string { return c.Thing + "/" + c.Sub() }

// Sub returns the name below Thing, as b.Run takes it.
func (c Case) Sub() string {
	if c.Key == "" {
		return "impl=" + c.Impl
	}
	return "impl=" + c.Impl + "/" + c.Key + "=" + c.Value
}

// Run runs, as sub-benchmarks of b, the cases whose Thing is thing: what a
// Benchmark<Thing> wrapper calls.
func runCases(b *testing.B, cases []Case, thing string) {
	n := 0
	for _, c := range cases {
		if c.Thing == thing {
			b.Run(c.Sub(), c.F)
			n++
		}
	}
	if n == 0 {
		b.Fatalf("bench: no case of %s", thing)
	}
}

// fatalf fails b with the message, also writing it to standard error:
// testing.Benchmark, which the streamgate command runs cases with, throws a
// failed benchmark's log away.
func fatalf(b *testing.B, format string, args ...any) {
	b.Helper()
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(os.Stderr, "bench: %s\n", strings.TrimSpace(msg))
	b.Fatal(msg)
}

// reportOps reports the ops/s metric: b.N operations over the timed
// interval.
func reportOps(b *testing.B) {
	reportRate(b, float64(b.N), "ops/s")
}

// reportRate reports n over the timed interval as the metric unit.
func reportRate(b *testing.B, n float64, unit string) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(n/s, unit)
	}
}
