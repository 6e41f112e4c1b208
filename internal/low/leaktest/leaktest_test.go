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
