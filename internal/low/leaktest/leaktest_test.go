package leaktest_test

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/streamgate/streamgate/internal/low/leaktest"
)

// TestOptionsFindLeaks checks the options still see a real leak, and nothing
// once it ends; under GOOS=js the sleep makes the runtime handle a timer
// event, which leaves its parked goroutine for the check to ignore.
func TestOptionsFindLeaks(t *testing.T) {
	time.Sleep(time.Millisecond)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { <-stop; close(done) }()
	if err := goleak.Find(leaktest.Options()...); err == nil {
		t.Error("Find found no leak while a goroutine waits")
	}
	close(stop)
	<-done
	if err := goleak.Find(leaktest.Options()...); err != nil {
		t.Errorf("Find after the goroutine ended: %v", err)
	}
}

// TestRunFailsOnlyPassingBinariesThatLeak: Run passes a failing code
// through unchanged, fails a passing run that leaves a goroutine running,
// and passes a clean one.
func TestRunFailsOnlyPassingBinariesThatLeak(t *testing.T) {
	stop := make(chan struct{})
	done := make(chan struct{})
	leaky := func() int {
		go func() { <-stop; close(done) }()
		return 0
	}
	for _, tc := range []struct {
		name string
		run  func() int
		want int
	}{
		{"clean", func() int { return 0 }, 0},
		{"failed", func() int { return 3 }, 3},
		{"leaks", leaky, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := leaktest.Run(tc.run); got != tc.want {
				t.Errorf("Run(%s) = %d, want %d", tc.name, got, tc.want)
			}
		})
	}
	close(stop)
	<-done
}
