package fuzz

import (
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/streamgate/streamgate/registry"
)

// checkTimeout bounds one linearizability check. The histories checked
// here are small enough that an honest check takes milliseconds; a timeout
// is reported as a failure, never taken as a pass.
const checkTimeout = 30 * time.Second

// FuzzRegistry applies the decoded ops (see decodeOps) to a new
// registry and to the sequential model, failing on the first difference.
func FuzzRegistry(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := runSequential(wrap(registry.New()), decodeOps(data)); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzLockfree applies the decoded ops (see decodeSliceOps) to a
// lockfree.Slice and to a plain slice, failing on the first difference.
func FuzzLockfree(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := runSlice(decodeSliceOps(data)); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzConcurrent runs the decoded program (see decodeProgram) on a new
// registry, two to four goroutines at once, and checks the recorded history
// for linearizability. Its writers lose races on purpose (see contend):
// they retry their compare-and-swaps, after a copy or after the other
// goroutines' writes, while those goroutines' calls are recorded.
func FuzzConcurrent(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		contend(t)
		checkConcurrent(t, wrap(registry.New()), decodeProgram(data))
	})
}

// checkConcurrent runs p on r, checks the history, and checks r is empty
// afterwards.
func checkConcurrent(t *testing.T, r registryAPI, p program) {
	t.Helper()
	h := run(r, p)
	switch res := checkHistory(h, checkTimeout); res {
	case porcupine.Ok:
	case porcupine.Illegal:
		t.Fatalf("history not linearizable\nprogram:\n%vhistory:\n%v", p, h)
	default:
		t.Fatalf("linearizability check gave %q after %v\nprogram:\n%vhistory:\n%v", res, checkTimeout, p, h)
	}
	checkEmpty(t, r)
}

// checkEmpty checks that r has no live override: zero live counts, and
// every stream of streams (and one never used) at its default.
func checkEmpty(t *testing.T, r registryAPI) {
	t.Helper()
	for _, mode := range []registry.StreamMode{registry.Execute, registry.Discard} {
		if n := r.Live(mode); n != 0 {
			t.Errorf("Live(%v) = %d, want 0", mode, n)
		}
	}
	def := r.ProcessMode().StreamMode()
	for _, s := range append(streams[:], registry.ServiceStream{Service: 9, Stream: 9}) {
		for _, d := range []registry.StreamMode{registry.Execute, registry.Discard} {
			if got := r.Mode(s, d); got != d {
				t.Errorf("Mode(%v, %v) = %v, want %v", s, d, got, d)
			}
		}
		if got := r.Resolve(s); got != def {
			t.Errorf("Resolve(%v) = %v, want %v", s, got, def)
		}
	}
}
