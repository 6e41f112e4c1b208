//go:build cgo || (js && wasm)

package client_test

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

var counter2 = gpu.NewKernel("counter2", `
@group(0) @binding(0) var<storage, read_write> count: array<atomic<u32>>;

@compute @workgroup_size(1)
fn main() {
	atomicAdd(&count[0], 2u);
}
`, "main")

// TestGPUWarmupIsCapture captures a step under a process mode that
// discards: every kernel compiles, nothing runs; the real pass replays the
// graph and compiles nothing.
func TestGPUWarmupIsCapture(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompile)
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	before := d.Stats().Compiles
	g, err := c.Capture(func() error {
		return errors.Join(c.Launch(counter, [3]uint32{1, 1, 1}, buf), c.Launch(counter2, [3]uint32{1, 1, 1}, buf), c.Launch(counter, [3]uint32{1, 1, 1}, buf))
	})
	require.NoError(t, err)
	assert.Equal(t, int64(2), d.Stats().Compiles-before, "the capture compiled both kernels")
	assert.True(t, d.Compiled(counter) && d.Compiled(counter2))
	assert.Equal(t, uint32(0), gpuCount(t, c, buf), "a capture executes nothing")
	assert.Equal(t, 0, c.Queued(), "a capture queues nothing")

	r.SetProcessMode(registry.ProcessExecute)
	for range 10 {
		require.NoError(t, c.Replay(g))
	}
	assert.Equal(t, uint32(40), gpuCount(t, c, buf))
	assert.Equal(t, int64(2), d.Stats().Compiles-before, "the real pass compiles nothing")
	assert.Equal(t, client.Stats{Captured: 3, Executed: 30, Replays: 10, ReplayedLaunches: 30}, c.Stats())
}

// TestGPUReplayOverridesOutOfOrder replays a graph under random nested
// overrides released in random orders, from several goroutines, and checks
// the device's count against the registry's verdict for each replay.
func TestGPUReplayOverridesOutOfOrder(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	const perGraph = 5
	g, err := c.Capture(func() error {
		var errs []error
		for range perGraph {
			errs = append(errs, c.Launch(counter, [3]uint32{1, 1, 1}, buf))
		}
		return errors.Join(errs...)
	})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(21, 7))
	var executed uint32
	var total uint64
	for round := range 50 {
		var live []*registry.Override
		for range 1 + rng.IntN(4) {
			m := registry.Execute
			if rng.IntN(2) == 0 {
				m = registry.Discard
			}
			live = append(live, r.Set(m, c.Stream()))
		}
		rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
		for len(live) > 0 {
			if r.Resolve(c.Stream()) == registry.Execute {
				executed += perGraph
			}
			require.NoError(t, c.Replay(g), "round %d", round)
			total++
			// Release one from another goroutine, out of order.
			var wg sync.WaitGroup
			wg.Add(1)
			go func(o *registry.Override) { defer wg.Done(); o.Release() }(live[0])
			wg.Wait()
			live = live[1:]
		}
		require.NoError(t, c.Replay(g)) // no override: discarded
		total++
	}
	assert.Equal(t, executed, gpuCount(t, c, buf))
	st := c.Stats()
	assert.Equal(t, uint64(executed), st.Executed)
	assert.Equal(t, uint64(executed), st.ReplayedLaunches)
	assert.Equal(t, st.DiscardedReplays*perGraph, st.Discarded)
	assert.Equal(t, total, st.Replays+st.DiscardedReplays, "every replay counted once")
}

// TestGPUReplayAfterRelease checks that a replay of a graph whose buffer
// was released is an error naming it and runs nothing.
func TestGPUReplayAfterRelease(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	c := client.New(d, client.WithRegistry(registry.New()))
	keep := newCounter(t, d)
	gone, err := d.NewBuffer(4, 0)
	require.NoError(t, err)
	g, err := c.Capture(func() error {
		return errors.Join(c.Launch(counter, [3]uint32{1, 1, 1}, keep), c.Launch(counter, [3]uint32{1, 1, 1}, gone))
	})
	require.NoError(t, err)
	require.NoError(t, c.Replay(g))
	assert.Equal(t, uint32(1), gpuCount(t, c, keep))
	gone.Release()
	err = c.Replay(g)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "launch 1 (counter(main))")
	assert.Contains(t, err.Error(), "buffer is released")
	assert.Equal(t, uint32(1), gpuCount(t, c, keep), "the refused replay ran nothing")
	assert.Equal(t, uint64(1), c.Stats().Replays)
}

// TestGPUReplayRaces replays graphs of several clients while one client is
// closed, a buffer released and the device finally closed: every call
// returns nil or an error, none crashes (under -race and cgocheck2 in make
// test), and after the closes every replay returns ErrClosed.
func TestGPUReplayRaces(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	shared := newCounter(t, d)
	own, err := d.NewBuffer(4, 0)
	require.NoError(t, err)
	var clients []*client.Client
	var graphs []*client.Graph
	for i := range 3 {
		c := client.New(d, client.WithRegistry(r))
		b := shared
		if i == 1 {
			b = own
		}
		g, err := c.Capture(func() error {
			return errors.Join(c.Launch(counter, [3]uint32{1, 1, 1}, b), c.Launch(counter2, [3]uint32{1, 1, 1}, shared))
		})
		require.NoError(t, err)
		clients, graphs = append(clients, c), append(graphs, g)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, g := clients[i%3], graphs[i%3]
			for {
				select {
				case <-stop:
					return
				default:
				}
				runtime.Gosched() // without preemption (js/wasm), let the test's goroutine in
				_ = c.Replay(g)
				if i >= 3 {
					_ = c.Flush()
				}
			}
		}()
	}
	time.Sleep(30 * time.Millisecond)
	require.NoError(t, clients[0].Close())
	time.Sleep(10 * time.Millisecond)
	own.Release()
	time.Sleep(10 * time.Millisecond)
	graphs[2].Release()
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, d.Close())
	close(stop)
	wg.Wait()
	assert.ErrorIs(t, clients[0].Replay(graphs[0]), client.ErrClosed)
	assert.ErrorIs(t, clients[1].Replay(graphs[1]), wgpu.ErrClosed)
	assert.Error(t, clients[2].Replay(graphs[2]))
}
