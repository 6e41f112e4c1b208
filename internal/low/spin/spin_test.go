package spin_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamgate/streamgate/internal/low/spin"
)

// TestYieldLetsOthersRun polls for a flag another goroutine sets: without
// Yield it never ends under GOARCH=wasm (the runner's timeout then fails
// the binary).
func TestYieldLetsOthersRun(t *testing.T) {
	var done atomic.Bool
	go done.Store(true)
	deadline := time.Now().Add(10 * time.Second)
	for !done.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the goroutine never ran")
		}
		spin.Yield()
	}
}
