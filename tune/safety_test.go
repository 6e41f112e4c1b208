package tune_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/tune"
)

// deadline bounds a test that a regression would hang: it then fails.
func deadline(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// inPlace is a candidate that updates its first buffer in place (y += 1),
// the way y += a·x does: writes counts the updates each buffer received.
func inPlace(name string, d time.Duration, mu *sync.Mutex, writes map[gpu.Buffer]int) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
		if err := c.Launch(kernel, [3]uint32{1, 1, 1}, in...); err != nil {
			return err
		}
		mu.Lock()
		writes[in[0]]++
		mu.Unlock()
		time.Sleep(d)
		return nil
	}}
}

// TestMeasurementsLeaveCallerDataAlone: an in-place candidate tuned
// then run updates the caller's buffer exactly once; the measurements ran on
// NewInputs's buffers.
func TestMeasurementsLeaveCallerDataAlone(t *testing.T) {
	svc, c := setup(t)
	c.Registry().SetProcessMode(registry.ProcessExecute) // the real run runs
	var mu sync.Mutex
	writes := map[gpu.Buffer]int{}
	y := svc.NewBuffer(64)
	var made, released atomic.Int64
	op := tune.Op{
		Key:        "saxpy",
		Candidates: []tune.Candidate{inPlace("a", 0, &mu, writes), inPlace("b", time.Millisecond, &mu, writes)},
		NewInputs: func(context.Context) ([]gpu.Buffer, func(), error) {
			made.Add(1)
			return []gpu.Buffer{svc.NewBuffer(64)}, func() { released.Add(1) }, nil
		},
	}
	tu := tune.New(c, tune.WithDevice("test"))
	res, err := tu.Run(deadline(t), op, y)
	require.NoError(t, err)
	assert.Equal(t, "a", res.Ran)
	assert.Equal(t, 1, writes[y], "the caller's y was updated exactly once")
	total := 0
	for _, n := range writes {
		total += n
	}
	assert.Greater(t, total, 10, "the measurements ran, on other buffers")
	assert.Equal(t, int64(1), made.Load(), "one set of inputs per tune")
	assert.Equal(t, int64(1), released.Load(), "released when the tune ends")

	_, err = tu.Run(deadline(t), op, y)
	require.NoError(t, err)
	assert.Equal(t, 2, writes[y], "decided: each Run updates y once")
	assert.Equal(t, int64(1), made.Load(), "a decided key makes no inputs")
}

// TestUnsafeOpRefused: an op that neither makes inputs nor is Pure
// is refused before any candidate runs.
func TestUnsafeOpRefused(t *testing.T) {
	svc, c := setup(t)
	var mu sync.Mutex
	writes := map[gpu.Buffer]int{}
	y := svc.NewBuffer(64)
	tu := tune.New(c, tune.WithDevice("test"))
	op := tune.Op{Key: "saxpy", Candidates: []tune.Candidate{inPlace("a", 0, &mu, writes), inPlace("b", 0, &mu, writes)}}
	_, err := tu.Run(deadline(t), op, y)
	require.ErrorIs(t, err, tune.ErrUnsafeOp)
	_, _, err = tu.Pick(deadline(t), op, y)
	require.ErrorIs(t, err, tune.ErrUnsafeOp)
	assert.Empty(t, writes, "nothing ran")
	assert.Equal(t, client.Stats{}, c.Stats())

	// Pure: the caller says its buffers may be measured on.
	op.Pure = true
	_, err = tu.Run(deadline(t), op, y)
	require.NoError(t, err)
	assert.Greater(t, writes[y], 1, "Pure measures on the caller's buffers, as declared")
}

func panicking(name string, v any) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
		panic(v)
	}}
}

// TestCandidatePanicContained: a candidate's panic is recovered and reported
// with its value and stack; a key whose every candidate panics returns an
// error to every waiter and leaves nothing in flight.
func TestCandidatePanicContained(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	got, res, err := tu.Pick(deadline(t), pure("k", panicking("boom", "kaboom"), sleeper("ok", 0, nil)))
	require.NoError(t, err)
	assert.Equal(t, "ok", got.Name)
	last := res.Rows[len(res.Rows)-1]
	assert.Equal(t, tune.StatusFailed, last.Status)
	var pe *tune.PanicError
	require.ErrorAs(t, last.Err, &pe)
	assert.Equal(t, "kaboom", pe.Value)
	assert.Contains(t, string(pe.Stack), "panicking", "the stack shows where it panicked")
	assert.Contains(t, res.Table(), "failed: panic: kaboom")

	// Every candidate panics: every concurrent caller gets an error, and
	// the key is not left in flight.
	boom := errors.New("boom")
	all := pure("all", panicking("a", boom), panicking("b", boom))
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = tu.Pick(deadline(t), all)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		require.Error(t, err, "caller %d", i)
		assert.ErrorIs(t, err, boom, "caller %d: the panic value is in the error", i)
		assert.NotErrorIs(t, err, context.DeadlineExceeded, "caller %d got an answer, not a timeout", i)
	}
	// Not in flight: a later Pick with no deadline returns.
	done := make(chan error, 1)
	go func() {
		_, _, err := tu.Pick(context.Background(), all)
		done <- err
	}()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, boom)
	case <-deadline(t).Done():
		t.Fatal("Pick of a key whose tune panicked hangs")
	}
}

// TestRunFallsBackOnPanic: the winner panicking in a real run falls
// back to the next best, as an error does.
func TestRunFallsBackOnPanic(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	var broken atomic.Bool
	fast := tune.Candidate{Name: "fast", Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
		if broken.Load() {
			panic("device lost")
		}
		return c.Launch(kernel, [3]uint32{1, 1, 1})
	}}
	op := pure("k", sleeper("slow", 2*time.Millisecond, nil), fast)
	res, err := tu.Run(deadline(t), op)
	require.NoError(t, err)
	require.Equal(t, "fast", res.Ran)
	broken.Store(true)
	res, err = tu.Run(deadline(t), op)
	require.NoError(t, err, "the panic does not escape Run")
	assert.Equal(t, "slow", res.Ran, "falls back to the next best")
	assert.Equal(t, "fast", res.Winner)

	// Every candidate panics in the real run: an error naming the panics.
	_, err = tu.Run(deadline(t), pure("k2", panicking("a", "x"), panicking("b", "y")))
	require.Error(t, err)
}

// TestNestedTuningDecidesBoth: a candidate of one key runs another undecided
// key through the same tuner; both are decided, before the deadline.
// Meanwhile another goroutine asks for the inner key from outside: it
// registers the key and waits for the token the outer tune holds, so the
// nested call must measure the key itself rather than wait for that
// goroutine, which waits for it.
func TestNestedTuningDecidesBoth(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	inner := pure("inner", sleeper("i-slow", time.Millisecond, nil), sleeper("i-fast", 0, nil))
	var innerErrs atomic.Int64
	entered := make(chan struct{})
	var once sync.Once
	outerCand := func(name string, d time.Duration) tune.Candidate {
		return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
			once.Do(func() {
				close(entered)
				time.Sleep(100 * time.Millisecond) // the outside Pick registers the inner key
			})
			if _, err := tu.Run(ctx, inner, in...); err != nil {
				innerErrs.Add(1)
				return err
			}
			time.Sleep(d)
			return nil
		}}
	}
	outer := pure("outer", outerCand("o-slow", 2*time.Millisecond), outerCand("o-fast", 0))

	ctx := deadline(t)
	type outcome struct {
		res *tune.Result
		err error
	}
	outerDone := make(chan outcome, 1)
	go func() {
		res, err := tu.Run(ctx, outer)
		outerDone <- outcome{res, err}
	}()
	<-entered
	got, _, err := tu.Pick(ctx, inner) // from outside the outer tune
	require.NoError(t, err)
	assert.Equal(t, "i-fast", got.Name)
	o := <-outerDone
	require.NoError(t, o.err)
	assert.Equal(t, "o-fast", o.res.Ran)
	assert.Zero(t, innerErrs.Load())
	require.NoError(t, ctx.Err(), "finished before the deadline")
}

// TestCycleReturnsErrCycle: a candidate that needs its own key's decision,
// directly or through another key, gets ErrCycle instead of waiting
// forever.
func TestCycleReturnsErrCycle(t *testing.T) {
	for _, tc := range []struct {
		name string
		via  bool // A's candidate runs B, whose candidate runs A
		path string
	}{
		{name: "direct", path: "A → A"},
		{name: "via B", via: true, path: "A → B → A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := setup(t)
			tu := tune.New(c, tune.WithDevice("test"))
			var opA, opB tune.Op
			var cycleErr atomic.Pointer[error]
			call := func(target *tune.Op) tune.Candidate {
				return tune.Candidate{Name: "calls-" + fmt.Sprint(target == &opA), Run: func(ctx context.Context, c *client.Client, in []gpu.Buffer) error {
					_, err := tu.Run(ctx, *target, in...)
					if errors.Is(err, tune.ErrCycle) {
						cycleErr.CompareAndSwap(nil, &err)
					}
					return err
				}}
			}
			if tc.via {
				opB = pure("B", call(&opA))
				opA = pure("A", call(&opB), sleeper("plain", 0, nil))
			} else {
				opA = pure("A", call(&opA), sleeper("plain", 0, nil))
			}
			ctx := deadline(t)
			got, res, err := tu.Pick(ctx, opA)
			require.NoError(t, err, "A is decided among the candidates that do not cycle")
			assert.Equal(t, "plain", got.Name)
			require.NoError(t, ctx.Err(), "no hang")
			perr := cycleErr.Load()
			require.NotNil(t, perr, "the nested call got ErrCycle")
			assert.Contains(t, (*perr).Error(), tc.path)
			t.Log("\n" + res.Table())
		})
	}
}

// TestWaitHonorsContext: a Pick waiting for another goroutine's
// tune of the same key returns when its own context ends.
func TestWaitHonorsContext(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	stuck := tune.Candidate{Name: "stuck", Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release
		return nil
	}}
	op := pure("k", stuck, sleeper("b", 0, nil))
	done := make(chan error, 1)
	go func() {
		_, _, err := tu.Pick(deadline(t), op)
		done <- err
	}()
	<-entered
	for _, key := range []string{"k", "other"} { // the same key, and the token for another
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, _, err := tu.Pick(ctx, pure(key, sleeper("a", 0, nil), sleeper("b", 0, nil)))
		cancel()
		assert.ErrorIs(t, err, context.DeadlineExceeded, key)
	}
	close(release)
	require.NoError(t, <-done)
}

// TestCacheKeyPartsApart: device "dev|A" with key "op" and device
// "dev" with key "A|op" are two entries.
func TestCacheKeyPartsApart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cache func(t *testing.T) tune.Cache
	}{
		{"memory", func(*testing.T) tune.Cache { return tune.NewMemoryCache() }},
		{"persistent", func(t *testing.T) tune.Cache {
			c, err := openCache(t, t.TempDir()+"/tune.db")
			require.NoError(t, err)
			t.Cleanup(func() { c.Close() })
			return c
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := tc.cache(t)
			cands := []tune.Candidate{sleeper("slow", 2*time.Millisecond, nil), sleeper("fast", 0, nil)}
			_, c1 := setup(t)
			_, res, err := tune.New(c1, tune.WithDevice("dev|A"), tune.WithCache(cache)).Pick(deadline(t), pure("op", cands...))
			require.NoError(t, err)
			require.False(t, res.Cached)
			_, c2 := setup(t)
			_, res, err = tune.New(c2, tune.WithDevice("dev"), tune.WithCache(cache)).Pick(deadline(t), pure("A|op", cands...))
			require.NoError(t, err)
			assert.False(t, res.Cached, "another device and key: another entry")
			n := 0
			require.NoError(t, cache.Range(func(k tune.CacheKey, e tune.Entry) bool { n++; return true }))
			assert.Equal(t, 2, n)
		})
	}
}

func TestTimingAndStatusStrings(t *testing.T) {
	assert.Equal(t, "gpu", tune.TimingGPU.String())
	assert.Equal(t, "wall", tune.TimingWall.String())
	for s, want := range map[tune.Status]string{tune.StatusOK: "ok", tune.StatusWinner: "winner", tune.StatusPruned: "pruned", tune.StatusFailed: "failed"} {
		assert.Equal(t, want, s.String())
	}
	assert.True(t, strings.HasPrefix(tune.Status(99).String(), "Status("))
}

// TestCallbackPanicClearsFlight: a panic outside the candidates
// (here the progress callback) reaches the caller, and the key is still
// not left in flight: the next Pick measures it.
func TestCallbackPanicClearsFlight(t *testing.T) {
	_, c := setup(t)
	var armed atomic.Bool
	armed.Store(true)
	tu := tune.New(c, tune.WithDevice("test"), tune.WithProgress(func(tune.Progress) {
		if armed.Load() {
			panic("progress")
		}
	}))
	op := pure("k", sleeper("a", 0, nil), sleeper("b", time.Millisecond, nil))
	assert.PanicsWithValue(t, "progress", func() { _, _, _ = tu.Pick(deadline(t), op) })
	armed.Store(false)
	got, _, err := tu.Pick(deadline(t), op)
	require.NoError(t, err, "the key was not left in flight")
	assert.Equal(t, "a", got.Name)
}
