package cachetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/tune"
)

// KernelStore is [gpu.KernelStore], the contract of a cache of compiled
// kernels (wgpu's kernel cache reads it).
type KernelStore = gpu.KernelStore

// checkTimeout bounds one check: past it, the check fails as a deadlock.
var checkTimeout = 2 * time.Minute

// prompt bounds a call made with a context that is done already.
var prompt = 5 * time.Second

// check is one check of a suite on a fresh S; it returns what it found
// wrong.
type check[S any] struct {
	name string
	run  func(s S) error
}

// Run runs the [tune.Cache] checks, each as a subtest on a fresh cache
// from open, which it closes when the check ends (a Close that fails fails
// the check): open must not close the cache itself. open may use its t
// for the cache's resources (t.TempDir, t.Cleanup) and may call t.Fatal.
// Caches from one call of Run never share entries, unless the backend is
// shared (then open must give each cache a namespace of its own: a fresh
// file, prefix or database).
func Run(t *testing.T, open func(t *testing.T) tune.Cache) {
	t.Helper()
	for _, c := range cacheChecks() {
		t.Run(c.name, func(t *testing.T) {
			cache := open(t)
			if err := runCheck(c, cache, func(cache tune.Cache) error {
				if err := cache.Close(); err != nil {
					return fmt.Errorf("Close() = %v", err)
				}
				return nil
			}); err != nil {
				t.Error(err)
			}
		})
	}
}

// RunKernels runs the [KernelStore] checks, each as a subtest on a fresh
// store from open, which must release it (t.Cleanup) when the test ends.
// As for [Run], stores from one call of RunKernels never share entries.
func RunKernels(t *testing.T, open func(t *testing.T) KernelStore) {
	t.Helper()
	for _, c := range kernelChecks() {
		t.Run(c.name, func(t *testing.T) {
			if err := runCheck(c, open(t), nil); err != nil {
				t.Error(err)
			}
		})
	}
}

// runCheck runs c on s, then done (if not nil), within checkTimeout.
func runCheck[S any](c check[S], s S, done func(S) error) error {
	errc := make(chan error, 1)
	go func() {
		err := c.run(s)
		if done != nil {
			if derr := done(s); err == nil {
				err = derr
			}
		}
		errc <- err
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(checkTimeout):
		return fmt.Errorf("%s did not return within %v: a deadlock?", c.name, checkTimeout)
	}
}

// within runs f and fails if it does not return within d.
func within(d time.Duration, what string, f func()) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return nil
	case <-time.After(d):
		return fmt.Errorf("%s did not return within %v", what, d)
	}
}

// cancelled is a context that is done already.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
