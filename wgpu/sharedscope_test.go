//go:build cgo

package wgpu

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentCompilesKeepTheirErrors: shader modules created at once from many
// goroutines (sharedScope), valid ones and ones the driver's compiler
// refuses, interleaved with exclusively scoped calls: every error lands on
// its own call, every valid module is made, nothing escapes the scopes.
func TestConcurrentCompilesKeepTheirErrors(t *testing.T) {
	d, err := Open(Options{})
	if err != nil {
		t.Skip(err) // gputest's policy lives in the external tests; TestOpenAdapter requires one
	}
	defer d.Close()
	uncaptured := uncapturedErrors()
	const n = 32
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			leave, err := d.enter("Compile")
			if err != nil {
				errs <- err
				return
			}
			defer leave()
			ident := fmt.Sprintf("missing_ident_%d", i)
			src := fmt.Sprintf("@compute @workgroup_size(1) fn main() { var x: u32 = %du; }", i)
			if i%3 == 1 {
				src = fmt.Sprintf("@compute @workgroup_size(1) fn main() { var x: u32 = %s; }", ident)
			}
			m, err := d.createShaderModule("Compile", fmt.Sprint("m", i), src)
			switch {
			case i%3 != 1 && err != nil:
				errs <- fmt.Errorf("valid module %d: %v", i, err)
			case i%3 == 1 && err == nil:
				errs <- fmt.Errorf("invalid module %d: no error", i)
			case i%3 == 1 && !strings.Contains(err.Error(), ident):
				errs <- fmt.Errorf("invalid module %d got another call's error: %v", i, err)
			}
			if err == nil {
				m.release()
			}
			if i%4 == 0 { // an exclusive scoped call in between
				b, err := d.createBuffer("NewBuffer", "b", 64, BufferUsageStorage)
				if err != nil {
					errs <- err
				} else {
					b.release()
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := uncapturedErrors(); got != uncaptured {
		t.Errorf("uncaptured errors = %d, want %d", got, uncaptured)
	}
}
