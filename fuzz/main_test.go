package fuzz

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/streamgate/streamgate/internal/low/leaktest"
)

// afterTests run once the package's tests have ended (the cgo fuzz target
// closes its shared device there).
var afterTests []func()

// TestMain fails the package's tests if any goroutine they started is
// still running when they end.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range afterTests {
		f()
	}
	if code == 0 {
		if err := goleak.Find(leaktest.Options()...); err != nil {
			os.Stderr.WriteString("goleak: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}
