//go:build cgo

package client_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

// TestGPULaunchRacesClose: launches of a PerClient client racing its
// Close either return ErrClosed or run: the GPU's counter equals the
// launches that returned nil, and no stream outlives the client (a launch
// that got past the closed check after Close retired the stream used to
// make the stream anew, return nil and never run).
func TestGPULaunchRacesClose(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	buf := newCounter(t, d)
	streams := d.Stats().StreamsLive
	rounds := 200
	if testing.Short() {
		rounds = 50
	}
	var ok uint32
	for range rounds {
		c := client.New(d, client.WithRegistry(r))
		start := make(chan struct{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for {
					err := c.Launch(counter, [3]uint32{1, 1, 1}, buf)
					if errors.Is(err, client.ErrClosed) {
						return
					}
					if !assert.NoError(t, err) {
						return
					}
					mu.Lock()
					ok++
					mu.Unlock()
				}
			}()
		}
		close(start)
		err := c.Close()
		wg.Wait()
		require.NoError(t, err)
	}
	v, err := wgpu.Read[uint32](context.Background(), buf, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, ok, v[0], "every launch that returned nil ran")
	assert.Equal(t, streams, d.Stats().StreamsLive, "no stream outlives its client")
}
