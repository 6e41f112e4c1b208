//go:build cgo || (js && wasm)

package client_test

// graph_misuse_test.go's misuse of Capture and Replay on the real device
// (lavapipe), with the device's counters read back: every count exact.

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
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

// captureN captures n launches of counter on buf through c.
func captureN(t *testing.T, c *client.Client, buf *wgpu.Buffer, n int) *client.Graph {
	t.Helper()
	g, err := c.Capture(func() error {
		for range n {
			if err := c.Launch(counter, [3]uint32{1, 1, 1}, buf); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, n, g.Len())
	return g
}

// TestGPUCaptureStepPanics: a step that panics (a value, an error) after
// launching on the device ends its capture, runs nothing, and leaves the
// client launching and capturing with exact counts.
func TestGPUCaptureStepPanics(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	d := streamgatetest.OpenDevice(t)
	c := client.New(d, client.WithRegistry(registry.New()))
	buf := newCounter(t, d)
	for _, v := range []any{"in step", fmt.Errorf("step failed: %w", context.Canceled)} {
		func() {
			defer func() { assert.Equal(t, v, recover()) }()
			_, _ = c.Capture(func() error {
				launchN(t, c, buf, 3)
				panic(v)
			})
		}()
		assert.False(t, c.Capturing())
	}
	assert.Equal(t, uint32(0), gpuCount(t, c, buf), "the panicking steps' launches never ran")
	launchN(t, c, buf, 2)
	g := captureN(t, c, buf, 3)
	for range 4 {
		require.NoError(t, c.Replay(g))
	}
	assert.Equal(t, uint32(2+12), gpuCount(t, c, buf))
	assert.Equal(t, client.Stats{Executed: 14, Captured: 3, Replays: 4, ReplayedLaunches: 12}, c.Stats())
	require.NoError(t, c.Close())
}

// TestGPUCaptureStepGoroutines: 8 goroutines the step starts and waits for
// launch 10 times each: all 80 launches are in the graph, and each replay
// adds exactly 80. A goroutine that launches after the step returned runs
// its launch outside the graph (once, under Execute; not at all under a
// discarding process mode).
func TestGPUCaptureStepGoroutines(t *testing.T) {
	for _, pm := range []registry.ProcessMode{registry.ProcessExecute, registry.ProcessCompileAndAutotune} {
		t.Run(pm.String(), func(t *testing.T) {
			d := streamgatetest.OpenDevice(t)
			r := registry.New()
			r.SetProcessMode(pm)
			c := client.New(d, client.WithRegistry(r))
			buf := newCounter(t, d)
			late := make(chan struct{})
			lateDone := make(chan error, 1)
			g, err := c.Capture(func() error {
				var wg sync.WaitGroup
				errs := make(chan error, 80)
				for range 8 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range 10 {
							errs <- c.Launch(counter, [3]uint32{1, 1, 1}, buf)
						}
					}()
				}
				wg.Wait()
				close(errs)
				go func() { <-late; lateDone <- c.Launch(counter2, [3]uint32{1, 1, 1}, buf) }()
				var all []error
				for err := range errs {
					all = append(all, err)
				}
				return errors.Join(all...)
			})
			require.NoError(t, err)
			require.Equal(t, 80, g.Len())
			close(late)
			require.NoError(t, <-lateDone)
			assert.Equal(t, 80, g.Len())
			var want uint32
			if pm == registry.ProcessExecute {
				want = 2 // the late launch of counter2 ran
			}
			assert.Equal(t, want, gpuCount(t, c, buf))
			o := r.Set(registry.Execute, c.Stream())
			for range 3 {
				require.NoError(t, c.Replay(g))
			}
			o.Release()
			assert.Equal(t, want+240, gpuCount(t, c, buf), "each replay adds the 80 captured launches, nothing else")
			require.NoError(t, c.Close())
		})
	}
}

// TestGPUCaptureNesting: client B captures inside client A's step, B
// replays an earlier graph there, and A tries to replay B's graph, under
// both stream policies: each graph holds its own client's launches only,
// B's replay ran at once (exactly once), A's refused replay ran nothing.
func TestGPUCaptureNesting(t *testing.T) {
	for _, policy := range []client.StreamPolicy{client.PerClient, client.Single} {
		t.Run(policy.String(), func(t *testing.T) {
			d := streamgatetest.OpenDevice(t)
			r := registry.New()
			a := client.New(d, client.WithRegistry(r), client.WithStreamPolicy(policy))
			b := client.New(d, client.WithRegistry(r), client.WithStreamPolicy(policy))
			bufA, bufB := newCounter(t, d), newCounter(t, d)
			gb0 := captureN(t, b, bufB, 2)
			var gb *client.Graph
			ga, err := a.Capture(func() error {
				if err := a.Launch(counter, [3]uint32{1, 1, 1}, bufA); err != nil {
					return err
				}
				var err error
				gb, err = b.Capture(func() error {
					return errors.Join(b.Launch(counter2, [3]uint32{1, 1, 1}, bufB), a.Launch(counter2, [3]uint32{1, 1, 1}, bufA))
				})
				if err != nil {
					return err
				}
				if err := b.Replay(gb0); err != nil {
					return err
				}
				if err := a.Replay(gb0); err == nil || !strings.Contains(err.Error(), "belongs to another client") {
					return fmt.Errorf("a.Replay(b's graph) = %v, want refused", err)
				}
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, 2, ga.Len())
			assert.Equal(t, 1, gb.Len())
			assert.Equal(t, uint32(0), gpuCount(t, a, bufA), "nothing of a's capture ran")
			assert.Equal(t, uint32(2), gpuCount(t, b, bufB), "b's replay inside a's step ran once, b's capture not at all")
			require.NoError(t, a.Replay(ga))
			require.NoError(t, b.Replay(gb))
			assert.Equal(t, uint32(3), gpuCount(t, a, bufA))
			assert.Equal(t, uint32(4), gpuCount(t, b, bufB))
			require.NoError(t, a.Close())
			require.NoError(t, b.Close())
		})
	}
}

// TestGPUEmptyGraph: a capture of no launches, through the client and
// through the device's recorder, replays (executed and discarded),
// checks, and releases, before and after the device's Close.
func TestGPUEmptyGraph(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	c := client.New(d, client.WithRegistry(r))
	g, err := c.Capture(func() error { return nil })
	require.NoError(t, err)
	assert.Equal(t, 0, g.Len())
	require.NoError(t, c.Replay(g))
	o := r.Set(registry.Discard, c.Stream())
	require.NoError(t, c.Replay(g))
	o.Release()
	require.NoError(t, c.Sync(context.Background()))
	assert.Equal(t, client.Stats{Replays: 1, DiscardedReplays: 1}, c.Stats())
	g.Release()
	assert.ErrorContains(t, c.Replay(g), "released")

	rec, err := d.Capture(c.Stream().Stream)
	require.NoError(t, err)
	g0, err := rec.Finish()
	require.NoError(t, err)
	wg := g0.(*wgpu.Graph)
	assert.Equal(t, 0, wg.Len())
	require.NoError(t, wg.Check())
	require.NoError(t, wg.Replay())
	wg.Release()
	assert.ErrorContains(t, wg.Check(), "released")
	assert.ErrorContains(t, wg.Replay(), "released")

	wg2, err := func() (*wgpu.Graph, error) {
		rec, err := d.Capture(1)
		if err != nil {
			return nil, err
		}
		g, err := rec.Finish()
		if err != nil {
			return nil, err
		}
		return g.(*wgpu.Graph), nil
	}()
	require.NoError(t, err)
	require.NoError(t, c.Close())
	require.NoError(t, d.Close())
	assert.ErrorIs(t, wg2.Check(), wgpu.ErrClosed)
	assert.ErrorIs(t, wg2.Replay(), wgpu.ErrClosed)
	wg2.Release()
	wg2.Release()
}

// TestGPUGraphLifecycle releases graphs in every order with the client's
// and the device's Close: Release twice, Replay and Check after Release,
// Release after the device's Close, the client's Close then Release, a
// closed client's graph replayed through another client.
func TestGPUGraphLifecycle(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	g1, g2, g3 := captureN(t, c, buf, 1), captureN(t, c, buf, 2), captureN(t, c, buf, 3)

	require.NoError(t, c.Replay(g1))
	g1.Release() // the replay recorded before still runs
	g1.Release()
	assert.ErrorContains(t, c.Replay(g1), "is released")
	assert.Equal(t, uint32(1), gpuCount(t, c, buf))

	require.NoError(t, c.Replay(g2))
	other := c.Fork()
	require.NoError(t, c.Close()) // flushes the replay; releases g2 and g3
	assert.ErrorIs(t, c.Replay(g2), client.ErrClosed)
	assert.ErrorContains(t, other.Replay(g3), "belongs to another client")
	g3.Release()
	g3.Release()
	require.NoError(t, other.Sync(context.Background()))
	v, err := wgpu.Read[uint32](context.Background(), buf, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, uint32(3), v[0], "the replay before Close ran; nothing after it")

	// The device's own graphs: Check after Release, Release after Close.
	stream := other.Stream().Stream
	rec, err := d.Capture(stream)
	require.NoError(t, err)
	require.NoError(t, rec.Launch(counter, [3]uint32{1, 1, 1}, buf))
	g0, err := rec.Finish()
	require.NoError(t, err)
	wg := g0.(*wgpu.Graph)
	_, err = rec.Finish()
	assert.Error(t, err, "a recorder finishes once")
	assert.Error(t, rec.Launch(counter, [3]uint32{1, 1, 1}, buf), "a finished recorder records nothing")
	wg.Release()
	assert.ErrorContains(t, wg.Check(), "released")
	og := captureN(t, other, buf, 1)
	require.NoError(t, d.Close())
	assert.ErrorIs(t, other.Replay(og), wgpu.ErrClosed)
	og.Release() // after the device's Close: harmless
	og.Release()
	assert.ErrorIs(t, other.Close(), wgpu.ErrClosed, "the client's Close reports the device's")
	_, err = d.Capture(stream)
	assert.ErrorIs(t, err, wgpu.ErrClosed)
}

// TestGPUReplayBufferChanges replays after a bound buffer was released,
// recycled, written in part, or refused an oversized write; and captures
// a buffer of another device, and a buffer released inside the step.
func TestGPUReplayBufferChanges(t *testing.T) {
	ctx := context.Background()
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	c := client.New(d, client.WithRegistry(r))

	t.Run("written in part", func(t *testing.T) {
		buf, err := wgpu.NewBufferFrom(d, 0, []uint32{0, 0, 0, 0})
		require.NoError(t, err)
		defer buf.Release()
		g := captureN(t, c, buf, 3)
		defer g.Release()
		require.NoError(t, c.Replay(g))
		require.NoError(t, wgpu.Write(buf, 0, []uint32{100})) // shorter than the buffer: the rest stays
		require.NoError(t, c.Replay(g))
		v, err := wgpu.Read[uint32](ctx, buf, 0, 4)
		require.NoError(t, err)
		assert.Equal(t, []uint32{103, 0, 0, 0}, v, "the write landed between the replays")
		assert.Error(t, wgpu.Write(buf, 0, make([]uint32, 5)), "a write past the end is refused")
		require.NoError(t, c.Replay(g))
		v, err = wgpu.Read[uint32](ctx, buf, 0, 4)
		require.NoError(t, err)
		assert.Equal(t, []uint32{106, 0, 0, 0}, v, "the refused write changed nothing")
	})

	t.Run("recycled", func(t *testing.T) {
		tmp, err := d.TempBuffer(4, 0)
		require.NoError(t, err)
		require.NoError(t, wgpu.Write(tmp, 0, []uint32{0}))
		g := captureN(t, c, tmp, 2)
		require.NoError(t, c.Replay(g))
		v, err := wgpu.Read[uint32](ctx, tmp, 0, 1)
		require.NoError(t, err)
		assert.Equal(t, uint32(2), v[0])
		tmp.Recycle()
		for _, m := range []registry.StreamMode{registry.Execute, registry.Discard} {
			o := r.Set(m, c.Stream())
			err := c.Replay(g)
			o.Release()
			assert.ErrorContains(t, err, "recycled", "mode %v", m)
		}
		// Handed out again by TempBuffer: another user's buffer now.
		require.NoError(t, c.Sync(ctx))
		for i := 0; ; i++ {
			nb, err := d.TempBuffer(4, 0)
			require.NoError(t, err)
			if nb == tmp {
				break
			}
			require.Less(t, i, 100, "TempBuffer never handed the recycled buffer out again")
			time.Sleep(5 * time.Millisecond)
			nb.Recycle()
		}
		require.NoError(t, wgpu.Write(tmp, 0, []uint32{7}))
		assert.ErrorContains(t, c.Replay(g), "recycled since the capture")
		require.NoError(t, c.Sync(ctx))
		v, err = wgpu.Read[uint32](ctx, tmp, 0, 1)
		require.NoError(t, err)
		assert.Equal(t, uint32(7), v[0], "the refused replay did not touch the new user's data")
		g.Release()
		tmp.Release()
	})

	t.Run("released", func(t *testing.T) {
		keep, gone := newCounter(t, d), newCounter(t, d)
		g, err := c.Capture(func() error {
			return errors.Join(c.Launch(counter, [3]uint32{1, 1, 1}, keep), c.Launch(counter2, [3]uint32{1, 1, 1}, gone))
		})
		require.NoError(t, err)
		require.NoError(t, c.Replay(g)) // pending when gone is released: it runs first
		gone.Release()
		assert.ErrorContains(t, c.Replay(g), "buffer is released")
		assert.Equal(t, uint32(1), gpuCount(t, c, keep))
		g.Release()
	})

	t.Run("another device", func(t *testing.T) {
		d2 := streamgatetest.OpenDevice(t)
		foreign := newCounter(t, d2)
		mine := newCounter(t, d)
		g, err := c.Capture(func() error {
			_ = c.Launch(counter, [3]uint32{1, 1, 1}, mine)
			_ = c.Launch(counter, [3]uint32{1, 1, 1}, foreign) // swallowed: still fails the capture
			return nil
		})
		assert.Nil(t, g)
		assert.ErrorContains(t, err, "another device")
		assert.Equal(t, uint32(0), gpuCount(t, c, mine))
	})

	t.Run("released inside the step", func(t *testing.T) {
		b := newCounter(t, d)
		g, err := c.Capture(func() error {
			if err := c.Launch(counter, [3]uint32{1, 1, 1}, b); err != nil {
				return err
			}
			b.Release()
			return nil
		})
		assert.Nil(t, g)
		assert.ErrorContains(t, err, "buffer is released")
		assert.Zero(t, c.Stats().Failed)
	})
	require.NoError(t, c.Close())
}

// TestGPUGraphOverMaxBatch replays a graph longer than the device's
// MaxBatch thousands of times, interleaved with launches, Syncs and
// read-backs: every read-back, and the end, sees the exact count.
func TestGPUGraphOverMaxBatch(t *testing.T) {
	ctx := context.Background()
	d := streamgatetest.OpenDevice(t, wgpu.Options{MaxBatch: 5})
	c := client.New(d, client.WithRegistry(registry.New()))
	buf := newCounter(t, d)
	g, err := c.Capture(func() error {
		var errs []error
		for i := range 12 { // 6 × counter (+1), 6 × counter2 (+2): +18 a replay
			k := counter
			if i%2 == 1 {
				k = counter2
			}
			errs = append(errs, c.Launch(k, [3]uint32{1, 1, 1}, buf))
		}
		return errors.Join(errs...)
	})
	require.NoError(t, err)
	n := 2000
	if testing.Short() {
		n = 300
	}
	var want uint32
	for i := range n {
		require.NoError(t, c.Replay(g), "replay %d", i)
		want += 18
		switch {
		case i%7 == 3:
			require.NoError(t, c.Launch(counter, [3]uint32{1, 1, 1}, buf))
			want++
		case i%97 == 50:
			require.NoError(t, c.Sync(ctx))
		case i%250 == 249:
			v, err := wgpu.Read[uint32](ctx, buf, 0, 1) // flushes the stream's replays first
			require.NoError(t, err)
			require.Equal(t, want, v[0], "after replay %d", i)
		}
	}
	assert.Equal(t, want, gpuCount(t, c, buf))
	st := c.Stats()
	assert.Equal(t, uint64(n), st.Replays)
	assert.Equal(t, uint64(12*n), st.ReplayedLaunches)
	assert.Equal(t, uint64(12*n)+uint64((n+3)/7), st.Executed)
	assert.Zero(t, st.Failed)
	require.NoError(t, c.Close())
}

// TestGPUReplayRacesCloses: 8 goroutines replay one graph (and flush)
// while others release it, close its client, capture through a second
// client and close the device, in several orders. Every call returns nil
// or a clear error; after the closes every replay and capture returns
// ErrClosed (the client's or the device's). Nothing crashes or leaks
// (-race, cgocheck2 in make test, goleak).
func TestGPUReplayRacesCloses(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	rounds := 6
	if testing.Short() {
		rounds = 3
	}
	for round := range rounds {
		d, err := wgpu.Open(wgpu.Options{})
		require.NoError(t, err)
		r := registry.New()
		c := client.New(d, client.WithRegistry(r))
		c2 := client.New(d, client.WithRegistry(r))
		buf, err := d.NewBuffer(4, 0)
		require.NoError(t, err)
		g := captureN(t, c, buf, 3)

		var mu sync.Mutex
		var unexpected []error
		check := func(op string, err error) {
			switch {
			case err == nil, errors.Is(err, client.ErrClosed), errors.Is(err, wgpu.ErrClosed), isReleasedError(err):
				return
			}
			var le *gpu.LaunchError
			if errors.As(err, &le) {
				return // a batch cut by the device's Close
			}
			mu.Lock()
			unexpected = append(unexpected, fmt.Errorf("%s: %w", op, err))
			mu.Unlock()
		}
		start := make(chan struct{})
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for {
					select {
					case <-stop:
						return
					default:
					}
					runtime.Gosched() // without preemption (js/wasm), let the closes in
					err := c.Replay(g)
					check("Replay", err)
					if i%4 == 0 {
						check("Flush", c.Flush())
					}
					if errors.Is(err, client.ErrClosed) || errors.Is(err, wgpu.ErrClosed) {
						return
					}
				}
			}()
		}
		wg.Add(1)
		go func() { // captures and replays through c2, racing the device's Close
			defer wg.Done()
			<-start
			for {
				runtime.Gosched()
				g2, err := c2.Capture(func() error { return c2.Launch(counter, [3]uint32{1, 1, 1}, buf) })
				check("Capture", err)
				if err != nil {
					if errors.Is(err, client.ErrClosed) || errors.Is(err, wgpu.ErrClosed) {
						return
					}
					continue
				}
				check("Replay c2", c2.Replay(g2))
				g2.Release()
			}
		}()
		sleep := func(ms int) { time.Sleep(time.Duration(ms) * time.Millisecond) }
		closes := []func(){
			func() { g.Release() },
			func() { check("Close c", c.Close()) },
			func() { check("Close c2", c2.Close()) },
			func() { check("Close device", d.Close()) },
		}
		// Rotate the order of the closes by round; the device is closed in
		// every round (last or not).
		order := append(closes[round%len(closes):], closes[:round%len(closes)]...)
		close(start)
		var cw sync.WaitGroup
		for i, f := range order {
			cw.Add(1)
			go func() { defer cw.Done(); sleep(3 + 4*i); f() }()
		}
		cw.Wait()
		close(stop)
		wg.Wait()
		for _, err := range unexpected {
			t.Errorf("round %d: unexpected: %v", round, err)
		}
		for _, err := range []error{c.Replay(g), c2.Launch(counter, [3]uint32{1, 1, 1}, buf)} {
			assert.True(t, errors.Is(err, client.ErrClosed) || errors.Is(err, wgpu.ErrClosed), "round %d: after the closes: %v", round, err)
		}
		_, err = c2.Capture(func() error { return nil })
		assert.True(t, errors.Is(err, client.ErrClosed) || errors.Is(err, wgpu.ErrClosed), "round %d: Capture after the closes: %v", round, err)
		runtime.Gosched()
	}
}

// TestGPUCaptureStepSideEffects: what a step does besides launching. A
// Measure override inside it changes nothing (its launches are captured,
// not run). An upload, a Sync, a Flush and a read-back inside it run at
// once, in the capture, and are not part of the graph: the upload happens
// once, the replays repeat only the launches. A step that closes its
// client, closes the device, or recycles a buffer it bound yields no
// graph.
func TestGPUCaptureStepSideEffects(t *testing.T) {
	ctx := context.Background()
	d := streamgatetest.OpenDevice(t)
	r := registry.New()
	c := client.New(d, client.WithRegistry(r))
	buf := newCounter(t, d)
	g, err := c.Capture(func() error {
		o := c.Measure()
		defer o.Release()
		var read []uint32
		err := errors.Join(
			c.Launch(counter, [3]uint32{1, 1, 1}, buf),
			c.Flush(),
			wgpu.Write(buf, 0, []uint32{100}),
			c.Sync(ctx),
			func() (err error) { read, err = wgpu.Read[uint32](ctx, buf, 0, 1); return err }(),
			c.Launch(counter2, [3]uint32{1, 1, 1}, buf),
		)
		if err == nil && read[0] != 100 {
			err = fmt.Errorf("read in the step = %d, want 100: the captured launch ran", read[0])
		}
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, 2, g.Len())
	assert.Equal(t, uint32(100), gpuCount(t, c, buf), "the upload ran at capture, the launches did not")
	require.NoError(t, c.Replay(g))
	require.NoError(t, c.Replay(g))
	assert.Equal(t, uint32(106), gpuCount(t, c, buf), "replays repeat the launches only")

	tmp, err := d.TempBuffer(4, 0)
	require.NoError(t, err)
	g, err = c.Capture(func() error {
		err := c.Launch(counter, [3]uint32{1, 1, 1}, tmp)
		tmp.Recycle()
		return err
	})
	assert.Nil(t, g)
	assert.ErrorContains(t, err, "recycled")

	g, err = c.Capture(func() error {
		err := c.Launch(counter, [3]uint32{1, 1, 1}, buf)
		return errors.Join(err, c.Close())
	})
	assert.Nil(t, g)
	assert.ErrorIs(t, err, client.ErrClosed)
	assert.False(t, c.Capturing())

	d2 := streamgatetest.OpenDevice(t)
	c2 := client.New(d2, client.WithRegistry(r))
	buf2 := newCounter(t, d2)
	g, err = c2.Capture(func() error {
		err := c2.Launch(counter, [3]uint32{1, 1, 1}, buf2)
		return errors.Join(err, d2.Close())
	})
	assert.Nil(t, g)
	assert.ErrorIs(t, err, wgpu.ErrClosed)
	_, err = c2.Capture(func() error { return nil })
	assert.ErrorIs(t, err, wgpu.ErrClosed)
	assert.False(t, c2.Capturing())
}
