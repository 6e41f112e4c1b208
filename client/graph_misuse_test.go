package client_test

// Misuse of Capture and Replay through the public API, on the in-memory
// service: panicking steps, launches from goroutines a step starts (and
// one that outlives it), nesting, empty steps, Release in every order,
// and races of replays with Release and Close. graph_misuse_wgpu_test.go
// does the same on the real device, with exact GPU counts.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/low/leaktest"
	"github.com/streamgate/streamgate/internal/low/spin"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
)

// TestCaptureStepPanicsAndExits ends steps by panic(value), panic(error),
// panic(nil) and runtime.Goexit after they launched: the capture ends (no
// graph, nothing counted, the client no longer capturing), the panic
// reaches Capture's caller unchanged, nothing ran, and the client then
// launches and captures as before. No goroutine is left behind.
func TestCaptureStepPanicsAndExits(t *testing.T) {
	defer goleak.VerifyNone(t, leaktest.Options(goleak.IgnoreCurrent())...)
	boom := errors.New("boom")
	for _, tc := range []struct {
		name  string
		exit  func()
		check func(t *testing.T, v any)
	}{
		{"panic(value)", func() { panic(42) }, func(t *testing.T, v any) { assert.Equal(t, 42, v) }},
		{"panic(error)", func() { panic(boom) }, func(t *testing.T, v any) {
			err, _ := v.(error)
			assert.ErrorIs(t, err, boom)
		}},
		{"panic(nil)", func() { panic(nil) }, func(t *testing.T, v any) {
			var pn *runtime.PanicNilError
			err, _ := v.(error)
			assert.ErrorAs(t, err, &pn)
		}},
		{"Goexit", runtime.Goexit, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, _, c := newMem(t, registry.ProcessExecute)
			buf := svc.NewBuffer(16)
			stream := c.Stream().Stream
			var (
				recovered any
				returned  bool
				done      = make(chan struct{})
			)
			go func() { // Goexit must not end the test's goroutine
				defer close(done)
				defer func() { recovered = recover() }()
				_, _ = c.Capture(func() error {
					if err := step(c, buf); err != nil {
						return err
					}
					tc.exit()
					return nil
				})
				returned = true
			}()
			<-done
			assert.False(t, returned, "Capture returned past a step that did not")
			if tc.check != nil {
				tc.check(t, recovered)
			} else {
				assert.Nil(t, recovered, "Goexit is no panic")
			}
			assert.False(t, c.Capturing(), "the capture ended with the step")
			assert.Empty(t, svc.Pending(stream), "the step's launches were captured, not run")
			assert.Equal(t, client.Stats{}, c.Stats(), "a capture that did not finish counts nothing")

			require.NoError(t, c.Launch(gA, [3]uint32{1, 1, 1}, buf))
			assert.Len(t, svc.Pending(stream), 1, "after the panic a launch runs")
			g, err := c.Capture(func() error { return step(c, buf) })
			require.NoError(t, err)
			assert.Equal(t, 3, g.Len())
			require.NoError(t, c.Replay(g))
			assert.Len(t, svc.Pending(stream), 4)
			g.Release()
			require.NoError(t, c.Close())
		})
	}
}

// TestCaptureStepGoroutines: launches from goroutines a step starts and
// waits for are all captured (the step's "while it runs" covers every
// goroutine). A goroutine that launches after the step returned is not
// captured, since the capture has ended: its launch runs as any launch
// does (Execute: on the stream; Discard: dropped) and the finished graph
// keeps its length. A launch made while a later capture runs belongs to
// that capture.
func TestCaptureStepGoroutines(t *testing.T) {
	const workers, each = 8, 25
	for _, pm := range []registry.ProcessMode{registry.ProcessExecute, registry.ProcessCompile} {
		t.Run(pm.String(), func(t *testing.T) {
			svc, _, c := newMem(t, pm)
			buf := svc.NewBuffer(16)
			stream := c.Stream().Stream
			late := make(chan struct{})
			lateErr := make(chan error, 1)
			g, err := c.Capture(func() error {
				var wg sync.WaitGroup
				errs := make([]error, workers)
				for w := range workers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range each {
							errs[w] = errors.Join(errs[w], c.Launch(gB, [3]uint32{1, 1, 1}, buf))
						}
					}()
				}
				wg.Wait()
				go func() { <-late; lateErr <- c.Launch(gA, [3]uint32{1, 1, 1}, buf) }()
				return errors.Join(errs...)
			})
			require.NoError(t, err)
			assert.Equal(t, workers*each, g.Len(), "every launch of the step's goroutines is captured")
			assert.Empty(t, svc.Pending(stream))

			close(late)
			require.NoError(t, <-lateErr, "a launch after the capture ended is an ordinary launch")
			assert.Equal(t, workers*each, g.Len(), "the late launch did not go into the finished graph")
			st := c.Stats()
			assert.Equal(t, uint64(workers*each), st.Captured)
			if pm == registry.ProcessExecute {
				require.Len(t, svc.Pending(stream), 1, "the late launch ran")
				assert.Equal(t, gA, svc.Pending(stream)[0].Kernel)
				assert.Equal(t, uint64(1), st.Executed)
			} else {
				assert.Empty(t, svc.Pending(stream), "the late launch was discarded")
				assert.Equal(t, uint64(1), st.Discarded)
			}

			// A goroutine of one capture launching while the next runs: it
			// is captured by the next.
			late2 := make(chan struct{})
			var wg sync.WaitGroup
			g1, err := c.Capture(func() error {
				wg.Add(1)
				go func() { defer wg.Done(); <-late2; assert.NoError(t, c.Launch(gA, [3]uint32{1, 1, 1}, buf)) }()
				return c.Launch(gB, [3]uint32{1, 1, 1}, buf)
			})
			require.NoError(t, err)
			g2, err := c.Capture(func() error {
				close(late2)
				wg.Wait()
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, 1, g1.Len())
			assert.Equal(t, 1, g2.Len(), "the earlier step's goroutine launched while the second capture ran")
			require.NoError(t, c.Close())
		})
	}
}

// TestCaptureNilKernelFailsCapture: a launch of a nil kernel during a
// capture is a failed launch of the capture, like any other refused
// launch, even when the step swallows its error.
func TestCaptureNilKernelFailsCapture(t *testing.T) {
	svc, _, c := newMem(t, registry.ProcessExecute)
	buf := svc.NewBuffer(16)
	g, err := c.Capture(func() error {
		_ = c.Launch(nil, [3]uint32{1, 1, 1}, buf) // swallowed
		return c.Launch(gA, [3]uint32{1, 1, 1}, buf)
	})
	assert.Nil(t, g)
	assert.ErrorContains(t, err, "nil kernel")
	assert.False(t, c.Capturing())
	assert.Zero(t, c.Stats().Captured)
	// Outside a capture a nil kernel is still just that launch's error.
	assert.ErrorContains(t, c.Launch(nil, [3]uint32{1, 1, 1}), "nil kernel")
	g, err = c.Capture(func() error { return c.Launch(gA, [3]uint32{1, 1, 1}, buf) })
	require.NoError(t, err)
	assert.Equal(t, 1, g.Len())
}

// TestCaptureNesting: a Capture of the same client inside its step is an
// error (the outer capture goes on: it fails only if the step returns the
// error); a capture of another client inside the step is independent of
// it, under PerClient and under Single (where both clients share one
// stream); a replay through another client inside the step runs then, on
// that client's stream, outside the graph; a replay of another client's
// graph through the capturing client is refused and runs nothing; a fork
// of a capturing client does not capture.
func TestCaptureNesting(t *testing.T) {
	for _, policy := range []client.StreamPolicy{client.PerClient, client.Single} {
		t.Run(policy.String(), func(t *testing.T) {
			r := registry.New()
			svc := streamgatetest.NewService()
			a := client.New(svc, client.WithRegistry(r), client.WithStreamPolicy(policy))
			b := client.New(svc, client.WithRegistry(r), client.WithStreamPolicy(policy))
			buf := svc.NewBuffer(16)
			gb0, err := b.Capture(func() error { return b.Launch(gB, [3]uint32{7, 1, 1}, buf) })
			require.NoError(t, err)

			var inner, viaA error
			var gInner *client.Graph
			var fork *client.Client
			ga, err := a.Capture(func() error {
				gi, err := a.Capture(func() error {
					t.Error("a nested step of the same client ran")
					return nil
				})
				inner = err
				assert.Nil(t, gi)
				if err := a.Launch(gA, [3]uint32{1, 1, 1}, buf); err != nil {
					return err
				}
				gInner, err = b.Capture(func() error {
					assert.True(t, a.Capturing() && b.Capturing())
					return errors.Join(b.Launch(gB, [3]uint32{2, 1, 1}, buf), a.Launch(gA, [3]uint32{3, 1, 1}, buf))
				})
				if err != nil {
					return err
				}
				if err := b.Replay(gb0); err != nil { // b is not capturing now: it runs
					return err
				}
				viaA = a.Replay(gb0)
				fork = a.Fork()
				assert.False(t, fork.Capturing(), "a fork of a capturing client does not capture")
				return fork.Launch(gB, [3]uint32{9, 1, 1}, buf)
			})
			require.NoError(t, err)
			assert.ErrorContains(t, inner, "another capture")
			assert.ErrorContains(t, viaA, "belongs to another client")
			require.Equal(t, 2, ga.Len(), "a's graph holds a's two launches")
			require.Equal(t, 1, gInner.Len(), "b's graph holds b's launch only")

			pendingA := svc.Pending(a.Stream().Stream)
			pendingF := svc.Pending(fork.Stream().Stream)
			if policy == client.PerClient {
				assert.Empty(t, pendingA, "nothing ran on a's stream")
				require.Len(t, svc.Pending(b.Stream().Stream), 1, "b's replay ran on b's stream")
				assert.Equal(t, [3]uint32{7, 1, 1}, svc.Pending(b.Stream().Stream)[0].Workgroups)
				require.Len(t, pendingF, 1, "the fork's launch ran on its own stream")
				assert.Equal(t, [3]uint32{9, 1, 1}, pendingF[0].Workgroups)
			} else {
				require.Len(t, pendingA, 2, "on the shared stream: b's replay and the fork's launch, nothing of a's capture")
				assert.Equal(t, [3]uint32{7, 1, 1}, pendingA[0].Workgroups)
				assert.Equal(t, [3]uint32{9, 1, 1}, pendingA[1].Workgroups)
			}

			// Each graph replays through its own client only.
			require.NoError(t, svc.Flush(a.Stream().Stream))
			require.NoError(t, svc.Flush(b.Stream().Stream))
			require.NoError(t, a.Replay(ga))
			require.NoError(t, b.Replay(gInner))
			assert.ErrorContains(t, b.Replay(ga), "belongs to another client")
			wgA := []uint32{}
			for _, l := range svc.Pending(a.Stream().Stream) {
				wgA = append(wgA, l.Workgroups[0])
			}
			if policy == client.PerClient {
				assert.Equal(t, []uint32{1, 3}, wgA)
				require.Len(t, svc.Pending(b.Stream().Stream), 1)
				assert.Equal(t, [3]uint32{2, 1, 1}, svc.Pending(b.Stream().Stream)[0].Workgroups)
			} else {
				assert.Equal(t, []uint32{1, 3, 2}, wgA)
			}
			assert.Equal(t, uint64(2), a.Stats().Captured)
			assert.Equal(t, uint64(2), b.Stats().Captured, "gb0 and gInner")
			require.NoError(t, fork.Close())
			require.NoError(t, a.Close())
			require.NoError(t, b.Close())
		})
	}
}

// TestCaptureMeetsTuneMisuse: a Pick inside a step measures an undecided
// key outside the graph (on a fork) and the candidate the step then runs
// itself is captured; a candidate that captures and replays a graph of
// its own runs as measured, but cannot itself be captured: its Capture is
// refused inside the capture, and the capture fails.
func TestCaptureMeetsTuneMisuse(t *testing.T) {
	ctx := context.Background()
	kFast := gpu.NewKernel("pick-fast", "@compute @workgroup_size(1) fn main() {}", "main")
	kSlow := gpu.NewKernel("pick-slow", "@compute @workgroup_size(2) fn main() {}", "main")

	t.Run("Pick", func(t *testing.T) {
		svc, _, c := newMem(t, registry.ProcessCompileAndAutotune)
		tu := tune.New(c, tune.WithTiming(tune.TimingWall))
		user := svc.NewBuffer(16)
		op := tune.Op{Key: "misuse/pick", Pure: true, Candidates: []tune.Candidate{
			{Name: "fast", Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
				return c.Launch(kFast, [3]uint32{1, 1, 1}, in...)
			}},
			{Name: "slow", Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
				time.Sleep(2 * time.Millisecond)
				return c.Launch(kSlow, [3]uint32{1, 1, 1}, in...)
			}},
		}}
		var picked tune.Candidate
		g, err := c.Capture(func() error {
			cand, _, err := tu.Pick(ctx, op, user)
			if err != nil {
				return err
			}
			picked = cand
			return cand.Run(ctx, c, []gpu.Buffer{user})
		})
		require.NoError(t, err)
		assert.Equal(t, "fast", picked.Name)
		assert.Equal(t, 1, g.Len(), "the graph holds the picked candidate's launch only")
		assert.Greater(t, svc.Executed("pick-fast"), 0, "the measurements executed, on a fork")
		assert.Empty(t, svc.Pending(c.Stream().Stream))
		assert.Empty(t, svc.Submitted(c.Stream().Stream), "nothing ran on the capturing stream")
		require.NoError(t, c.Close())
	})

	t.Run("another client's tuner", func(t *testing.T) {
		// The tuner's client is not the capturing one: its winner runs
		// through its own client, at once, and is not captured.
		svc, r, a := newMem(t, registry.ProcessExecute)
		tc := client.New(svc, client.WithRegistry(r))
		tu := tune.New(tc, tune.WithTiming(tune.TimingWall))
		user := svc.NewBuffer(16)
		op := tune.Op{Key: "misuse/other", Pure: true, Candidates: []tune.Candidate{{Name: "only", Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
			return c.Launch(kFast, [3]uint32{1, 1, 1}, in...)
		}}}}
		_, _, err := tu.Pick(ctx, op, user) // decided before the capture
		require.NoError(t, err)
		require.NoError(t, tc.Sync(ctx))
		ran := svc.Executed("pick-fast")
		g, err := a.Capture(func() error { _, err := tu.Run(ctx, op, user); return err })
		require.NoError(t, err)
		assert.Equal(t, 0, g.Len(), "nothing launched through the capturing client")
		require.Len(t, svc.Pending(tc.Stream().Stream), 1, "the winner ran through the tuner's client")
		require.NoError(t, tc.Sync(ctx))
		assert.Equal(t, ran+1, svc.Executed("pick-fast"))
		require.NoError(t, errors.Join(a.Close(), tc.Close()))
	})

	t.Run("candidate captures", func(t *testing.T) {
		svc, _, c := newMem(t, registry.ProcessCompileAndAutotune)
		tu := tune.New(c, tune.WithTiming(tune.TimingWall))
		user := svc.NewBuffer(16)
		var runs, captures int
		var mu sync.Mutex
		capturing := tune.Candidate{Name: "captures", Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
			mu.Lock()
			runs++
			mu.Unlock()
			g, err := c.Capture(func() error { return c.Launch(kFast, [3]uint32{1, 1, 1}, in...) })
			if err != nil {
				return err
			}
			defer g.Release()
			mu.Lock()
			captures++
			mu.Unlock()
			return c.Replay(g)
		}}
		slow := tune.Candidate{Name: "slow", Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
			time.Sleep(2 * time.Millisecond)
			return c.Launch(kSlow, [3]uint32{1, 1, 1}, in...)
		}}
		op := tune.Op{Key: "misuse/captures", Pure: true, Candidates: []tune.Candidate{capturing, slow}}

		// Outside a capture the candidate's own graph runs, measured and real.
		o := c.Measure()
		res, err := tu.Run(ctx, op, user)
		o.Release()
		require.NoError(t, err)
		assert.Equal(t, "captures", res.Ran)
		assert.Equal(t, runs, captures, "every run of the candidate captured its graph")
		assert.Greater(t, svc.Executed("pick-fast"), 1, "the candidate's replays executed")

		// Inside a capture of the tuner's client it cannot capture.
		g, err := c.Capture(func() error { _, err := tu.Run(ctx, op, user); return err })
		assert.Nil(t, g)
		assert.ErrorContains(t, err, "another capture")
		assert.False(t, c.Capturing())
		require.NoError(t, c.Launch(kFast, [3]uint32{1, 1, 1}, user), "the client still launches")
		require.NoError(t, c.Close())
	})
}

// TestEmptyCapture: a step that launches nothing yields a graph of no
// launches; it replays (executed: one replay of no launches; discarded:
// one discarded replay), runs nothing, and releases like any graph.
func TestEmptyCapture(t *testing.T) {
	svc, r, c := newMem(t, registry.ProcessExecute)
	stream := c.Stream().Stream
	g, err := c.Capture(func() error { return nil })
	require.NoError(t, err)
	require.NotNil(t, g)
	assert.Equal(t, 0, g.Len())
	assert.NotZero(t, g.ID())
	assert.Same(t, c, g.Client())
	assert.Equal(t, fmt.Sprintf("graph %d (0 launches)", g.ID()), g.String())
	require.NoError(t, c.Replay(g))
	o := r.Set(registry.Discard, c.Stream())
	require.NoError(t, c.Replay(g))
	o.Release()
	assert.Empty(t, svc.Pending(stream))
	assert.Equal(t, client.Stats{Replays: 1, DiscardedReplays: 1}, c.Stats())
	g.Release()
	g.Release()
	assert.ErrorContains(t, c.Replay(g), "released")
	require.NoError(t, c.Close())
}

// TestGraphReleaseOrders releases graphs in every order with the
// client's Close: twice, before and after Close, a nil graph; a graph of a
// closed client replayed through another client (refused: it is not
// theirs) and through its own (ErrClosed); a replay after its buffer was
// released, executed and discarded.
func TestGraphReleaseOrders(t *testing.T) {
	svc, r, c := newMem(t, registry.ProcessExecute)
	buf := svc.NewBuffer(16)
	stream := c.Stream().Stream
	capt := func(cl *client.Client, b gpu.Buffer) *client.Graph {
		t.Helper()
		g, err := cl.Capture(func() error { return step(cl, b) })
		require.NoError(t, err)
		return g
	}
	var nilGraph *client.Graph
	nilGraph.Release() // harmless

	g1, g2 := capt(c, buf), capt(c, buf)
	g1.Release()
	g1.Release()
	assert.ErrorContains(t, c.Replay(g1), "is released")

	dead := svc.NewBuffer(16)
	g3 := capt(c, dead)
	dead.Release()
	assert.ErrorContains(t, c.Replay(g3), "buffer is released")
	o := r.Set(registry.Discard, c.Stream())
	assert.ErrorContains(t, c.Replay(g3), "buffer is released")
	o.Release()
	assert.Empty(t, svc.Pending(stream), "refused replays ran nothing")

	other := c.Fork()
	require.NoError(t, c.Close())
	assert.ErrorIs(t, c.Replay(g2), client.ErrClosed)
	assert.ErrorContains(t, other.Replay(g2), "belongs to another client", "a closed client's graph is no other client's")
	g2.Release() // after Close, which released it already
	g2.Release()
	g3.Release()
	assert.ErrorIs(t, c.Replay(g2), client.ErrClosed)
	assert.Equal(t, uint64(0), c.Stats().Replays+c.Stats().DiscardedReplays)
	assert.Empty(t, svc.Pending(other.Stream().Stream))
	require.NoError(t, other.Close())
}

// TestReplayRacesReleaseAndClose replays one graph from 8 goroutines
// while another goroutine releases it, another closes the client and
// another captures until the close: every call returns nil or a clear
// error (ErrClosed once Close has begun, "released" once Release has; a
// replay while the capture runs is refused and fails that capture, as
// documented), no panic; each nil replay put its launches on the stream
// exactly once.
func TestReplayRacesReleaseAndClose(t *testing.T) {
	defer goleak.VerifyNone(t, leaktest.Options(goleak.IgnoreCurrent())...)
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		svc, _, c := newMem(t, registry.ProcessExecute)
		buf := svc.NewBuffer(16)
		g, err := c.Capture(func() error { return step(c, buf) })
		require.NoError(t, err)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, unexpected := 0, []error{}
		start := make(chan struct{})
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for i := 0; i < 200; i++ {
					err := c.Replay(g)
					mu.Lock()
					switch {
					case err == nil:
						ok++
					case errors.Is(err, client.ErrClosed):
						i = 200
					case isReleasedError(err), isInCaptureError(err):
					default:
						unexpected = append(unexpected, err)
					}
					mu.Unlock()
				}
			}()
		}
		wg.Add(3)
		go func() { defer wg.Done(); <-start; runtime.Gosched(); g.Release() }()
		go func() {
			defer wg.Done()
			<-start
			for range round % 5 {
				runtime.Gosched()
			}
			assert.NoError(t, c.Close())
		}()
		go func() { // captures racing Close
			defer wg.Done()
			<-start
			for {
				spin.Yield() // Capture may never block: let Close run
				g2, err := c.Capture(func() error { return step(c, buf) })
				if errors.Is(err, client.ErrClosed) {
					return
				}
				if isInCaptureError(err) {
					continue
				}
				if err != nil {
					mu.Lock()
					unexpected = append(unexpected, err)
					mu.Unlock()
					return
				}
				g2.Release()
			}
		}()
		close(start)
		wg.Wait()
		for _, err := range unexpected {
			t.Errorf("round %d: unexpected error: %v", round, err)
		}
		assert.ErrorIs(t, c.Replay(g), client.ErrClosed)
		st := c.Stats()
		assert.Equal(t, uint64(ok), st.Replays, "round %d: every nil replay counted once", round)
		assert.Equal(t, 3*ok, len(svc.Submitted(c.Stream().Stream))+len(svc.Pending(c.Stream().Stream)), "round %d: every nil replay's launches recorded once", round)
	}
}

// isReleasedError reports whether err says a graph is released (a replay
// that raced Release, or Close's release of the client's graphs).
func isReleasedError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "is released")
}

// isInCaptureError reports whether err is a replay refused because a
// capture of its client ran (or a capture failed by one).
func isInCaptureError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "inside a Capture of the same client")
}

// gatedService is the in-memory service whose graphs' Replay and Check
// wait at a gate, once armed: a test holds a replay inside the service
// while it closes the client.
type gatedService struct {
	*streamgatetest.Service
	armed   chan struct{} // closed: the next Replay or Check waits
	entered chan struct{} // a Replay or Check reached the gate
	gate    chan struct{} // closed: it goes on
}

func newGatedService() *gatedService {
	return &gatedService{Service: streamgatetest.NewService(), armed: make(chan struct{}), entered: make(chan struct{}, 1), gate: make(chan struct{})}
}

func (s *gatedService) Capture(stream gpu.StreamID) (gpu.GraphRecorder, error) {
	rec, err := s.Service.Capture(stream)
	return gatedRecorder{rec, s}, err
}

type gatedRecorder struct {
	gpu.GraphRecorder
	s *gatedService
}

func (r gatedRecorder) Finish() (gpu.Graph, error) {
	g, err := r.GraphRecorder.Finish()
	if err != nil {
		return nil, err
	}
	return gatedGraph{g, r.s}, nil
}

type gatedGraph struct {
	gpu.Graph
	s *gatedService
}

func (g gatedGraph) wait() {
	select {
	case <-g.s.armed:
		g.s.entered <- struct{}{}
		<-g.s.gate
	default:
	}
}

func (g gatedGraph) Replay() error { g.wait(); return g.Graph.Replay() }
func (g gatedGraph) Check() error  { g.wait(); return g.Graph.Check() }

// TestReplayRacingCloseIsErrClosed: a replay that passed the
// client's closed check and reaches the service after Close released its
// graph returns ErrClosed, as the doc says calls after Close do, not the
// service's "graph is released" (Close's release is an implementation
// detail); executed and discarded replays alike, and nothing runs.
func TestReplayRacingCloseIsErrClosed(t *testing.T) {
	for _, m := range []registry.StreamMode{registry.Execute, registry.Discard} {
		t.Run(m.String(), func(t *testing.T) {
			svc := newGatedService()
			r := registry.New()
			c := client.New(svc, client.WithRegistry(r))
			buf := svc.NewBuffer(16)
			g, err := c.Capture(func() error { return step(c, buf) })
			require.NoError(t, err)
			o := r.Set(m, c.Stream())
			defer o.Release()
			close(svc.armed)
			done := make(chan error, 1)
			go func() { done <- c.Replay(g) }()
			<-svc.entered
			require.NoError(t, c.Close())
			close(svc.gate)
			assert.ErrorIs(t, <-done, client.ErrClosed)
			assert.Empty(t, svc.Pending(c.Stream().Stream))
			assert.Empty(t, svc.Submitted(c.Stream().Stream))
			assert.Equal(t, client.Stats{Captured: 3}, c.Stats())
		})
	}
}

// TestReplayRacesCloseOnly replays from 8 goroutines while the client is
// closed, with no other Release: each replay returns nil or ErrClosed,
// nothing else.
func TestReplayRacesCloseOnly(t *testing.T) {
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		svc, _, c := newMem(t, registry.ProcessExecute)
		buf := svc.NewBuffer(16)
		g, err := c.Capture(func() error { return step(c, buf) })
		require.NoError(t, err)
		start := make(chan struct{})
		errs := make(chan error, 8)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for {
					spin.Yield() // Replay may never block: let Close run
					if err := c.Replay(g); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		close(start)
		for range round % 4 {
			runtime.Gosched()
		}
		require.NoError(t, c.Close())
		wg.Wait()
		close(errs)
		for err := range errs {
			if !errors.Is(err, client.ErrClosed) {
				t.Errorf("round %d: Replay racing Close = %v, want ErrClosed", round, err)
			}
		}
	}
}

// TestSingleCloseKeepsOthersGraphs: under Single, closing one client of
// the shared stream releases its graphs only; another client's graph on
// the same stream still replays.
func TestSingleCloseKeepsOthersGraphs(t *testing.T) {
	r := registry.New()
	svc := streamgatetest.NewService()
	a := client.New(svc, client.WithRegistry(r), client.WithStreamPolicy(client.Single))
	b := a.Fork()
	buf := svc.NewBuffer(16)
	ga, err := a.Capture(func() error { return step(a, buf) })
	require.NoError(t, err)
	gb, err := b.Capture(func() error { return step(b, buf) })
	require.NoError(t, err)
	require.NoError(t, a.Replay(ga))
	require.NoError(t, a.Close())
	assert.ErrorIs(t, a.Replay(ga), client.ErrClosed)
	require.NoError(t, b.Replay(gb))
	assert.Len(t, svc.Submitted(client.SingleStream), 3, "a's replay, flushed by its Close")
	assert.Len(t, svc.Pending(client.SingleStream), 3, "b's replay")
	require.NoError(t, b.Close())
}
