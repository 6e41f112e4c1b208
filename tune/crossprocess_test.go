//go:build !js

package tune_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// childMain runs one tune, in a child process of TestCrossProcessCache.
func childMain() (code int, ok bool) {
	path := os.Getenv("STREAMGATE_TUNE_CHILD")
	if path == "" {
		return 0, false
	}
	return child(path), true
}

// TestCrossProcessCache runs two real processes on one cache file: the
// first measures, the second finds the winner and launches nothing.
func TestCrossProcessCache(t *testing.T) { testCrossProcess(t, "fake") }

// childServices builds, in a child process, the service and candidates it
// tunes, by name: "fake" here, "gpu" where cgo builds the wgpu service.
var childServices = map[string]func() (gpu.Service, tune.Op, func(), error){
	"fake": func() (gpu.Service, tune.Op, func(), error) {
		return streamgatetest.NewService(), pure("k", sleeper("slow", 2*time.Millisecond, nil), sleeper("fast", 0, nil)), func() {}, nil
	},
}

func testCrossProcess(t *testing.T, service string) {
	path := filepath.Join(t.TempDir(), "cache", "tune.db")
	run := func() childReport {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "STREAMGATE_TUNE_CHILD="+path, "STREAMGATE_TUNE_CHILD_SERVICE="+service)
		out, err := cmd.Output()
		require.NoError(t, err, "child: %s", out)
		var rep childReport
		require.NoError(t, json.Unmarshal(out, &rep), "child said %q", out)
		return rep
	}
	first := run()
	second := run()
	assert.False(t, first.Cached)
	assert.NotZero(t, first.Executed)
	assert.True(t, second.Cached, "the second process finds the winner")
	assert.Zero(t, second.Executed, "and measures nothing")
	assert.Equal(t, first.Winner, second.Winner)
	assert.Equal(t, "fast", second.Winner)
}

type childReport struct {
	Winner   string
	Cached   bool
	Executed uint64
}

func child(path string) int {
	cache, err := sqlitecache.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer cache.Close()
	svc, op, done, err := childServices[os.Getenv("STREAMGATE_TUNE_CHILD_SERVICE")]()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer done()
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	c := client.New(svc, client.WithRegistry(r))
	_, res, err := tune.New(c, tune.WithCache(cache)).Pick(context.Background(), op)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_ = json.NewEncoder(os.Stdout).Encode(childReport{Winner: res.Winner, Cached: res.Cached, Executed: c.Stats().Executed})
	return 0
}
