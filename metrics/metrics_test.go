package metrics_test

import (
	"encoding/json"
	"errors"
	"expvar"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/metrics"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	_ "github.com/streamgate/streamgate/tune"
)

func TestMain(m *testing.M) {
	// Importing every package (this binary links them all) publishes
	// nothing: only Publish does.
	if v := expvar.Get(metrics.Name); v != nil {
		fmt.Fprintf(os.Stderr, "expvar.Get(%q) = %v before Publish, want nil\n", metrics.Name, v)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestRead(t *testing.T) {
	reg := registry.New()
	svc := streamgatetest.NewService()
	c := client.New(svc, client.WithRegistry(reg))
	defer c.Close()
	require.NoError(t, c.Launch(kernel, [3]uint32{1, 1, 1}))
	o := c.Measure()
	reg.SetProcessMode(registry.ProcessCompile)
	require.NoError(t, c.Launch(kernel, [3]uint32{1, 1, 1}))
	o.Release()
	require.NoError(t, c.Launch(kernel, [3]uint32{1, 1, 1}))

	s := metrics.Read(metrics.WithRegistry(reg))
	id := strconv.FormatUint(uint64(svc.ServiceID()), 10)
	assert.Equal(t, metrics.Service{LaunchesExecuted: 2, LaunchesDiscarded: 1}, s.Services[id])
	assert.Equal(t, metrics.Registry{ProcessMode: "Compile"}, s.Registry)

	o = c.Measure()
	defer o.Release()
	assert.Equal(t, 1, metrics.Read(metrics.WithRegistry(reg)).Registry.OverridesLiveExecute)
}

// TestReadGraphs: captures and replays are counted per service.
func TestReadGraphs(t *testing.T) {
	reg := registry.New()
	svc := streamgatetest.NewService()
	c := client.New(svc, client.WithRegistry(reg))
	defer c.Close()
	g, err := c.Capture(func() error {
		return errors.Join(c.Launch(kernel, [3]uint32{1, 1, 1}), c.Launch(kernel, [3]uint32{2, 1, 1}))
	})
	require.NoError(t, err)
	require.NoError(t, c.Replay(g))
	require.NoError(t, c.Replay(g))
	reg.SetProcessMode(registry.ProcessCompile)
	require.NoError(t, c.Replay(g))

	s := metrics.Read(metrics.WithRegistry(reg))
	id := strconv.FormatUint(uint64(svc.ServiceID()), 10)
	assert.Equal(t, metrics.Service{LaunchesExecuted: 4, LaunchesDiscarded: 2, LaunchesCaptured: 2, GraphReplays: 2,
		LaunchesReplayed: 4, GraphReplaysDropped: 1}, s.Services[id])
}

func TestPublish(t *testing.T) {
	const name = "streamgate_test_publish"
	v := metrics.Publish(name)
	require.NotNil(t, expvar.Get(name))
	var s metrics.Snapshot
	require.NoError(t, json.Unmarshal([]byte(v.String()), &s))
	assert.Equal(t, registry.Default.ProcessMode().String(), s.Registry.ProcessMode)
	assert.NotNil(t, s.Services)
	assert.NotPanics(t, func() {
		assert.JSONEq(t, v.String(), metrics.Publish(name).String(), "a second Publish of a name returns the first Var")
	})
	other := "streamgate_test_taken"
	if expvar.Get(other) == nil {
		expvar.NewInt(other)
	}
	assert.Panics(t, func() { metrics.Publish(other) }, "a name another package published panics, as expvar.Publish does")
}
