package fuzz

import (
	"os"
	"testing"

	"github.com/streamgate/streamgate/internal/low/leaktest"
)

// afterTests run once the package's tests have ended (the cgo fuzz target
// closes its shared device there).
var afterTests []func()

// TestMain fails the package's tests if any goroutine they started is
// still running when they end.
func TestMain(m *testing.M) {
	os.Exit(leaktest.Run(func() int {
		code := m.Run()
		for _, f := range afterTests {
			f()
		}
		return code
	}))
}
