package streamgatetest_test

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// recorder is a testing.TB that records what a check asks of it, so a test
// can run a check on a deliberately bad "test" and see it fail.
type recorder struct {
	testing.TB // the real test: anything not overridden goes there

	mu       sync.Mutex
	errors   []string
	failed   bool
	skipped  bool
	cleanups []func()
}

// stop is what Fatal and Skip panic with, to end the fake test's body.
type stop struct{}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	r.failed = true
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(stop{})
}

func (r *recorder) Skipf(format string, args ...any) {
	r.mu.Lock()
	r.skipped = true
	r.mu.Unlock()
	panic(stop{})
}

func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *recorder) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

// run runs body as a test on a fresh recorder, then its cleanups, last
// registered first, as testing does.
func run(t *testing.T, body func(tb testing.TB)) *recorder {
	t.Helper()
	r := &recorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil && p != (stop{}) {
				panic(p)
			}
		}()
		body(r)
	}()
	for _, f := range slices.Backward(r.cleanups) {
		f()
	}
	runtime.KeepAlive(r)
	return r
}
