package naga_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/streamgate/streamgate/wgpu/internal/naga"
)

// cacheDirEnv names the compilation cache directory of a test run, which
// TestMain makes and passes on to the child processes tests start, so that
// the module is compiled once per run. (A test binary records no wazero
// version, so it would not use the user's cache directory anyway.)
const cacheDirEnv = "NAGA_TEST_CACHE_DIR"

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir := os.Getenv(cacheDirEnv)
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "naga-test-cache-"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		os.Setenv(cacheDirEnv, dir)
	}
	naga.SetCacheDir(dir)
	defer naga.ResetSandbox()
	return m.Run()
}
