package client_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

func TestStatsString(t *testing.T) {
	s := client.Stats{Executed: 21, Discarded: 1, CompiledNow: 2, Queued: 3, BatchCompiled: 4, Failed: 5}
	assert.Equal(t, "executed=21 discarded=1 compiled_now=2 queued=3 batch_compiled=4 failed=5", s.String())
	assert.Equal(t, "executed=0 discarded=0 compiled_now=0 queued=0 batch_compiled=0 failed=0", client.Stats{}.String())
}

func TestServiceStats(t *testing.T) {
	reg := registry.New()
	svc, other := streamgatetest.NewService(), streamgatetest.NewService()
	launch := func(c *client.Client, n int) {
		for range n {
			require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}))
		}
	}
	c1 := client.New(svc, client.WithRegistry(reg))
	c2 := c1.Fork()
	launch(c1, 2)
	launch(c2, 3)
	launch(client.New(other, client.WithRegistry(reg)), 1)
	func() { // a client the program drops: its counts stay in the totals
		c := client.New(svc, client.WithRegistry(reg))
		launch(c, 4)
		require.NoError(t, c.Close())
	}()
	reg.SetProcessMode(registry.ProcessCompile)
	launch(c1, 1)
	require.NoError(t, c1.Sync(context.Background()))

	want := client.Stats{Executed: 9, Discarded: 1}
	got := client.ServiceStats()
	assert.Equal(t, want, got[svc.ServiceID()])
	assert.Equal(t, client.Stats{Executed: 1}, got[other.ServiceID()])
	// Collect the dropped client (and any other test's): nothing goes down.
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	assert.Equal(t, want, client.ServiceStats()[svc.ServiceID()])
	runtime.KeepAlive(c2)
}
