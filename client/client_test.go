package client_test

import (
	"context"
	"errors"
	"fmt"
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
	kA = gpu.NewKernel("a", "@compute @workgroup_size(1) fn main() {}", "main")
	kB = gpu.NewKernel("b", "@compute @workgroup_size(2) fn main() {}", "main")
)

func newFake(t *testing.T, p registry.ProcessMode, opts ...client.Option) (*streamgatetest.Service, *registry.Registry, *client.Client) {
	t.Helper()
	r := registry.New()
	r.SetProcessMode(p)
	svc := streamgatetest.NewService()
	c := client.New(svc, append([]client.Option{client.WithRegistry(r)}, opts...)...)
	return svc, r, c
}

func TestLaunchModes(t *testing.T) {
	tests := []struct {
		name    string
		process registry.ProcessMode
		want    client.Stats
		pending int
	}{
		{"Execute runs", registry.ProcessExecute, client.Stats{Executed: 3}, 3},
		{"Compile queues once", registry.ProcessCompile, client.Stats{Discarded: 3, Queued: 1}, 0},
		{"CompileAndAutotune compiles now", registry.ProcessCompileAndAutotune, client.Stats{Discarded: 3, CompiledNow: 1}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc, _, c := newFake(t, tc.process)
			buf := svc.NewBuffer(16)
			for i := 0; i < 3; i++ {
				require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}, buf))
			}
			assert.Equal(t, tc.want, c.Stats())
			assert.Len(t, svc.Pending(c.Stream().Stream), tc.pending)
			if tc.process == registry.ProcessCompile {
				assert.Equal(t, 0, svc.Compiles("a"), "queued, not compiled")
				assert.Equal(t, 1, c.Queued())
			}
		})
	}
}

func TestCompileQueued(t *testing.T) {
	svc, _, c := newFake(t, registry.ProcessCompile)
	for i := 0; i < 5; i++ {
		require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}))
		require.NoError(t, c.Launch(kB, [3]uint32{1, 1, 1}))
	}
	require.NoError(t, c.CompileQueued(context.Background()))
	assert.Equal(t, [][]string{{"a", "b"}}, svc.Batches(), "one batch, each kernel once, in launch order")
	assert.Equal(t, 1, svc.Compiles("a"))
	assert.Equal(t, 1, svc.Compiles("b"))
	assert.Equal(t, client.Stats{Discarded: 10, Queued: 2, BatchCompiled: 2}, c.Stats())
	// Compiled now: later discarded launches are cache hits, queue nothing.
	require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}))
	assert.Zero(t, c.Queued())
	require.NoError(t, c.CompileQueued(context.Background()))
	assert.Len(t, svc.Batches(), 1, "an empty queue makes no batch")
}

func TestCompileQueuedCanceled(t *testing.T) {
	svc, _, c := newFake(t, registry.ProcessCompile)
	require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, c.CompileQueued(ctx), context.Canceled)
	assert.Equal(t, 1, c.Queued(), "a canceled batch leaves the queue unchanged")
	assert.Zero(t, svc.Compiles("a"))
	assert.ErrorIs(t, c.Sync(ctx), context.Canceled)
	require.NoError(t, c.Sync(context.Background()))
	assert.Equal(t, 1, svc.Compiles("a"), "Sync compiles the queue")
}

func TestCompileErrors(t *testing.T) {
	bad := errors.New("syntax error")
	t.Run("batch", func(t *testing.T) {
		svc, _, c := newFake(t, registry.ProcessCompile)
		svc.Fail("b", bad)
		require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}))
		require.NoError(t, c.Launch(kB, [3]uint32{1, 1, 1}), "under Compile a discarded launch only queues")
		err := c.CompileQueued(context.Background())
		assert.ErrorIs(t, err, bad)
		assert.Contains(t, err.Error(), "b(main)")
		assert.Equal(t, uint64(1), c.Stats().BatchCompiled, "the good kernel compiled")
		assert.Zero(t, c.Queued(), "a failing kernel leaves the queue")
	})
	t.Run("now", func(t *testing.T) {
		svc, _, c := newFake(t, registry.ProcessCompileAndAutotune)
		svc.Fail("b", bad)
		assert.ErrorIs(t, c.Launch(kB, [3]uint32{1, 1, 1}), bad)
		assert.Equal(t, uint64(0), c.Stats().CompiledNow)
	})
	t.Run("execute", func(t *testing.T) {
		svc, _, c := newFake(t, registry.ProcessExecute)
		svc.Fail("b", bad)
		assert.ErrorIs(t, c.Launch(kB, [3]uint32{1, 1, 1}), bad)
		assert.Zero(t, c.Stats().Executed)
	})
}

func TestLaunchBadInput(t *testing.T) {
	svc, _, c := newFake(t, registry.ProcessExecute)
	assert.ErrorContains(t, c.Launch(nil, [3]uint32{1, 1, 1}), "nil kernel")
	other := streamgatetest.NewService().NewBuffer(4)
	assert.ErrorContains(t, c.Launch(kA, [3]uint32{1, 1, 1}, other), "binding 0 is not a buffer of this service")
	assert.Empty(t, svc.Pending(c.Stream().Stream))
}

func TestMeasure(t *testing.T) {
	svc, r, a := newFake(t, registry.ProcessCompile)
	b := a.Fork()
	assert.NotEqual(t, a.Stream(), b.Stream(), "PerClient: a fork gets its own stream")
	assert.Equal(t, a.Stream().Service, b.Stream().Service)
	m := a.Measure()
	assert.Equal(t, registry.Execute, a.Mode())
	assert.Equal(t, registry.Discard, b.Mode(), "only the measured client's stream executes")
	require.NoError(t, a.Launch(kA, [3]uint32{1, 1, 1}))
	require.NoError(t, b.Launch(kA, [3]uint32{1, 1, 1}))
	m.Release()
	require.NoError(t, a.Launch(kA, [3]uint32{1, 1, 1}))
	assert.Equal(t, uint64(1), a.Stats().Executed)
	assert.Equal(t, uint64(1), a.Stats().Discarded)
	assert.Equal(t, uint64(1), b.Stats().Discarded)
	assert.Len(t, svc.Pending(a.Stream().Stream), 1)
	assert.Zero(t, r.Live(registry.Execute))
}

func TestSinglePolicy(t *testing.T) {
	svc, _, a := newFake(t, registry.ProcessCompile, client.WithStreamPolicy(client.Single))
	b := a.Fork()
	c := client.New(svc, client.WithRegistry(a.Registry()), client.WithStreamPolicy(client.Single))
	assert.Equal(t, client.SingleStream, a.Stream().Stream)
	assert.Equal(t, a.Stream(), b.Stream())
	assert.Equal(t, a.Stream(), c.Stream())
	m := a.Measure()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); assert.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1})) }()
	wg.Wait()
	m.Release()
	assert.Equal(t, uint64(1), c.Stats().Executed, "under Single a launch from another goroutine during a measurement executes")
}

func TestClose(t *testing.T) {
	svc, _, c := newFake(t, registry.ProcessExecute)
	require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}))
	require.NoError(t, c.Close())
	assert.Len(t, svc.Submitted(c.Stream().Stream), 1, "Close flushes")
	assert.ErrorIs(t, c.Launch(kA, [3]uint32{1, 1, 1}), client.ErrClosed)
	assert.ErrorIs(t, c.Flush(), client.ErrClosed)
	assert.ErrorIs(t, c.Sync(context.Background()), client.ErrClosed)
	assert.ErrorIs(t, c.CompileQueued(context.Background()), client.ErrClosed)
	assert.ErrorIs(t, c.Close(), client.ErrClosed)
	assert.Equal(t, 1, svc.Closed(c.Stream().Stream), "PerClient: Close closes the client's own stream")

	single := client.New(svc, client.WithStreamPolicy(client.Single))
	require.NoError(t, single.Close())
	assert.Zero(t, svc.Closed(client.SingleStream), "Single: the shared stream stays open")
}

func TestOptionsPanic(t *testing.T) {
	assert.PanicsWithValue(t, "client: WithRegistry(nil)", func() { client.WithRegistry(nil) })
	assert.PanicsWithValue(t, "client: invalid StreamPolicy 9", func() { client.WithStreamPolicy(9) })
	assert.PanicsWithValue(t, "client: New(nil)", func() { client.New(nil) })
	assert.Equal(t, "Single", client.Single.String())
}

func TestDiscardedLaunchAllocs(t *testing.T) {
	svc, _, c := newFake(t, registry.ProcessCompile)
	require.NoError(t, svc.Compile(context.Background(), kA))
	buf := svc.NewBuffer(4)
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		_ = c.Launch(kA, [3]uint32{1, 1, 1}, buf)
	}))
}

func TestDefaultRegistry(t *testing.T) {
	c := client.New(streamgatetest.NewService())
	assert.Same(t, registry.Default, c.Registry())
	assert.NotEqual(t, client.SingleStream, c.Stream().Stream)
}

// failingService is the fake service whose Sync reports the stream's
// launches number 2 and 5 as not run, as a device does when the driver
// rejects them at submit.
type failingService struct{ *streamgatetest.Service }

func (f failingService) Sync(ctx context.Context, stream gpu.StreamID) error {
	if err := f.Service.Sync(ctx, stream); err != nil {
		return err
	}
	return &gpu.LaunchError{Stream: stream, Failed: []gpu.FailedLaunch{
		{Seq: 2, Kernel: "a(main)", Err: errors.New("rejected")},
		{Seq: 5, Kernel: "a(main)", Err: errors.New("rejected")},
	}}
}

// TestStatsCountOnlyLaunchesThatRan: launches the service reports as not
// run move from Executed to Failed; another stream's failures do not count.
func TestStatsCountOnlyLaunchesThatRan(t *testing.T) {
	r := registry.New()
	c := client.New(failingService{streamgatetest.NewService()}, client.WithRegistry(r))
	for range 6 {
		require.NoError(t, c.Launch(kA, [3]uint32{1, 1, 1}))
	}
	err := c.Sync(context.Background())
	var le *gpu.LaunchError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, client.Stats{Executed: 4, Failed: 2}, c.Stats())

	other := &gpu.LaunchError{Stream: c.Stream().Stream + 1000, Failed: []gpu.FailedLaunch{{Seq: 1, Err: errors.New("x")}}}
	assert.Zero(t, gpu.FailedLaunches(fmt.Errorf("wrapped: %w", other), c.Stream().Stream))
	assert.Equal(t, 1, gpu.FailedLaunches(errors.Join(errors.New("a"), fmt.Errorf("w: %w", other)), other.Stream))
}

// TestInMemoryTextureBindings: the in-memory service takes its texture
// and sampler stand-ins as bindings, records them in order, and refuses
// a released one and another service's.
func TestInMemoryTextureBindings(t *testing.T) {
	s := streamgatetest.NewService()
	c := client.New(s)
	tex, st, smp, buf := s.NewTexture(), s.NewStorageTexture(), s.NewSampler(), s.NewBuffer(16)
	k := gpu.NewKernel("k", "k", "main")
	require.NoError(t, c.Launch(k, [3]uint32{1, 1, 1}, tex, smp, st, buf))
	require.NoError(t, c.Flush())
	l := s.Submitted(c.Stream().Stream)
	require.Len(t, l, 1)
	kinds := make([]gpu.BindingKind, len(l[0].Bindings))
	for i, b := range l[0].Bindings {
		kinds[i] = gpu.KindOf(b)
	}
	assert.Equal(t, []gpu.BindingKind{gpu.KindTexture, gpu.KindSampler, gpu.KindStorageTexture, gpu.KindBuffer}, kinds)
	smp.Release()
	assert.ErrorContains(t, c.Launch(k, [3]uint32{1, 1, 1}, tex, smp), "binding 1: sampler is released")
	assert.ErrorContains(t, c.Launch(k, [3]uint32{1, 1, 1}, streamgatetest.NewService().NewTexture()), "binding 0 is not a texture of this service")
}
