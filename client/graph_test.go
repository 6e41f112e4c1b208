package client_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

var (
	gA = gpu.NewKernel("ga", "@compute @workgroup_size(1) fn main() {}", "main")
	gB = gpu.NewKernel("gb", "@compute @workgroup_size(2) fn main() {}", "main")
)

func newMem(t *testing.T, p registry.ProcessMode) (*streamgatetest.Service, *registry.Registry, *client.Client) {
	t.Helper()
	r := registry.New()
	r.SetProcessMode(p)
	svc := streamgatetest.NewService()
	return svc, r, client.New(svc, client.WithRegistry(r))
}

// step launches gA, gB, gA on buf: three launches.
func step(c *client.Client, buf gpu.Buffer) error {
	return errors.Join(c.Launch(gA, [3]uint32{1, 1, 1}, buf), c.Launch(gB, [3]uint32{2, 1, 1}, buf), c.Launch(gA, [3]uint32{3, 1, 1}, buf))
}

// TestCaptureReplay captures a step under each process mode: the capture
// compiles every kernel and records nothing on the stream; a replay under
// Execute puts the step's launches on the stream in order, and one under
// Discard records nothing; Stats count each.
func TestCaptureReplay(t *testing.T) {
	for _, pm := range []registry.ProcessMode{registry.ProcessExecute, registry.ProcessCompile, registry.ProcessCompileAndAutotune} {
		t.Run(pm.String(), func(t *testing.T) {
			svc, r, c := newMem(t, pm)
			buf := svc.NewBuffer(16)
			stream := c.Stream().Stream
			g, err := c.Capture(func() error { return step(c, buf) })
			require.NoError(t, err)
			require.Equal(t, 3, g.Len())
			assert.False(t, c.Capturing())
			assert.Empty(t, svc.Pending(stream), "a capture records nothing on the stream")
			assert.Equal(t, 1, svc.Compiles("ga"), "the capture compiled ga")
			assert.Equal(t, 1, svc.Compiles("gb"), "the capture compiled gb")
			assert.Equal(t, client.Stats{Captured: 3}, c.Stats())

			require.NoError(t, c.Replay(g))
			if pm == registry.ProcessExecute {
				require.Len(t, svc.Pending(stream), 3)
				for i, want := range []*gpu.Kernel{gA, gB, gA} {
					assert.Equal(t, want, svc.Pending(stream)[i].Kernel)
				}
				assert.Equal(t, [3]uint32{2, 1, 1}, svc.Pending(stream)[1].Workgroups)
				assert.Equal(t, client.Stats{Captured: 3, Executed: 3, Replays: 1, ReplayedLaunches: 3}, c.Stats())
			} else {
				assert.Empty(t, svc.Pending(stream))
				assert.Equal(t, client.Stats{Captured: 3, Discarded: 3, DiscardedReplays: 1}, c.Stats())
				// The real pass: the same graph executes under an override.
				o := r.Set(registry.Execute, c.Stream())
				require.NoError(t, c.Replay(g))
				o.Release()
				assert.Len(t, svc.Pending(stream), 3)
			}
			assert.Equal(t, 1, svc.Compiles("ga"), "replays compile nothing")
		})
	}
}

// TestReplayOverridesOutOfOrder replays under nested overrides released
// out of order, and checks each replay's fate against the registry's mode.
func TestReplayOverridesOutOfOrder(t *testing.T) {
	svc, r, c := newMem(t, registry.ProcessCompileAndAutotune)
	buf := svc.NewBuffer(16)
	g, err := c.Capture(func() error { return step(c, buf) })
	require.NoError(t, err)
	replay := func() {
		t.Helper()
		require.NoError(t, c.Replay(g))
	}
	replay() // discard
	o1 := r.Set(registry.Execute, c.Stream())
	replay() // execute
	o2 := r.Set(registry.Discard, c.Stream())
	replay() // discard
	o3 := r.Set(registry.Execute, c.Stream())
	replay()     // execute
	o2.Release() // out of order: o3 still decides
	replay()     // execute
	o3.Release() // o1 decides
	replay()     // execute
	o1.Release()
	replay() // discard
	want := client.Stats{Captured: 3, Executed: 12, Replays: 4, ReplayedLaunches: 12, Discarded: 9, DiscardedReplays: 3}
	assert.Equal(t, want, c.Stats())
	require.NoError(t, c.Sync(context.Background()))
	assert.Equal(t, 8, svc.Executed("ga"))
	assert.Equal(t, 4, svc.Executed("gb"))
	assert.Equal(t, 4, svc.Replays(c.Stream().Stream))
}

// TestCaptureFailures: a step error, a launch error the step swallowed, a
// nested capture, a panic, a nil step and a service that cannot capture
// all yield no graph and leave the client usable.
func TestCaptureFailures(t *testing.T) {
	svc, _, c := newMem(t, registry.ProcessExecute)
	buf := svc.NewBuffer(16)
	stream := c.Stream().Stream

	boom := errors.New("boom")
	g, err := c.Capture(func() error { _ = step(c, buf); return boom })
	assert.Nil(t, g)
	assert.ErrorIs(t, err, boom)

	gC := gpu.NewKernel("gc", "@compute @workgroup_size(3) fn main() {}", "main")
	svc.Fail("gc", errors.New("no such kernel"))
	g, err = c.Capture(func() error {
		_ = step(c, buf)
		_ = c.Launch(gC, [3]uint32{1, 1, 1}, buf) // swallowed, as a tuner's fallback would
		return nil
	})
	assert.Nil(t, g)
	assert.ErrorContains(t, err, "no such kernel")

	other := streamgatetest.NewService().NewBuffer(16)
	g, err = c.Capture(func() error {
		if err := c.Launch(gA, [3]uint32{1, 1, 1}, other); err == nil {
			t.Error("capture Launch with another service's buffer = nil")
		}
		return nil
	})
	assert.Nil(t, g)
	assert.ErrorContains(t, err, "not a buffer of this service")

	g, err = c.Capture(func() error {
		g2, err := c.Capture(func() error { return nil })
		assert.Nil(t, g2)
		return err
	})
	assert.Nil(t, g)
	assert.ErrorContains(t, err, "another capture")

	assert.PanicsWithValue(t, "in step", func() {
		c.Capture(func() error { panic("in step") })
	})
	assert.False(t, c.Capturing(), "a panic ends the capture")

	_, err = c.Capture(nil)
	assert.Error(t, err)

	nc := client.New(noCapture{svc})
	_, err = nc.Capture(func() error { return nil })
	assert.ErrorContains(t, err, "does not implement gpu.Capturer")

	// Still usable: launches run, captures work.
	require.NoError(t, c.Launch(gA, [3]uint32{1, 1, 1}, buf))
	assert.Len(t, svc.Pending(stream), 1)
	g, err = c.Capture(func() error { return c.Launch(gA, [3]uint32{1, 1, 1}, buf) })
	require.NoError(t, err)
	assert.Equal(t, 1, g.Len())
	assert.Equal(t, uint64(1), c.Stats().Captured, "only the successful capture's launches count")
}

// noCapture hides the service's Capture method.
type noCapture struct{ *streamgatetest.Service }

func (n noCapture) Capture() {}

// TestReplayRefusals: a nil graph, another client's, a released one, one
// with a released buffer (under both modes), and every call after Close.
func TestReplayRefusals(t *testing.T) {
	svc, r, c := newMem(t, registry.ProcessExecute)
	buf, dead := svc.NewBuffer(16), svc.NewBuffer(16)
	stream := c.Stream().Stream
	g, err := c.Capture(func() error { return step(c, buf) })
	require.NoError(t, err)
	gd, err := c.Capture(func() error { return c.Launch(gA, [3]uint32{1, 1, 1}, dead) })
	require.NoError(t, err)

	assert.Error(t, c.Replay(nil))
	c2 := c.Fork()
	assert.ErrorContains(t, c2.Replay(g), "belongs to another client")

	dead.Release()
	assert.ErrorContains(t, c.Replay(gd), "buffer is released")
	o := r.Set(registry.Discard, c.Stream())
	assert.ErrorContains(t, c.Replay(gd), "buffer is released", "a discarded replay checks its buffers too")
	o.Release()

	gr, err := c.Capture(func() error { _ = c.Replay(g); return nil }) // even swallowed, it fails the capture
	assert.Nil(t, gr)
	assert.ErrorContains(t, err, "inside a Capture")
	assert.Empty(t, svc.Pending(stream), "the refused replay ran nothing")

	gd.Release()
	gd.Release()
	assert.ErrorContains(t, c.Replay(gd), "released")
	assert.Empty(t, svc.Pending(stream))

	require.NoError(t, c.Close())
	assert.ErrorIs(t, c.Replay(g), client.ErrClosed)
	_, err = c.Capture(func() error { return nil })
	assert.ErrorIs(t, err, client.ErrClosed)
	assert.Equal(t, uint64(0), c.Stats().Replays)
}

// TestCaptureConcurrentLaunches captures while other goroutines launch
// through the same client: every launch that returned nil is either in the
// graph or on the stream, never both, never lost.
func TestCaptureConcurrentLaunches(t *testing.T) {
	svc, _, c := newMem(t, registry.ProcessExecute)
	buf := svc.NewBuffer(16)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	start := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range 200 {
				if c.Launch(gB, [3]uint32{1, 1, 1}, buf) == nil {
					mu.Lock()
					ok++
					mu.Unlock()
				}
			}
		}()
	}
	close(start)
	var graphs int
	for range 20 {
		g, err := c.Capture(func() error { return c.Launch(gA, [3]uint32{1, 1, 1}, buf) })
		require.NoError(t, err)
		graphs += g.Len()
	}
	wg.Wait()
	require.NoError(t, c.Sync(context.Background()))
	launched := svc.Executed("gb")
	assert.Equal(t, ok, launched+graphs-20, "every gb launch either ran or was captured")
	assert.Equal(t, 0, svc.Executed("ga"), "no captured launch ran")
}

// TestDiscardedReplayAllocatesNothing checks that a replay, discarded or
// executed, does not allocate in the client.
func TestDiscardedReplayAllocatesNothing(t *testing.T) {
	svc, r, c := newMem(t, registry.ProcessCompileAndAutotune)
	buf := svc.NewBuffer(16)
	g, err := c.Capture(func() error { return step(c, buf) })
	require.NoError(t, err)
	assert.Zero(t, testing.AllocsPerRun(1000, func() { _ = c.Replay(g) }), "discarded")
	_ = r
}
