package tune_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/low/leaktest"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
)

// testMain runs the tests, or, in a child process of TestCrossProcessCache,
// one tune.
func testMain(m *testing.M) int {
	if code, ok := childMain(); ok {
		return code
	}
	return leaktest.Run(m.Run)
}

var kernel = gpu.NewKernel("k", "@compute @workgroup_size(1) fn main() {}", "main")

// sleeper is a candidate that launches once and costs d of wall time.
func sleeper(name string, d time.Duration, runs *atomic.Int64) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
		if runs != nil {
			runs.Add(1)
		}
		time.Sleep(d)
		return c.Launch(kernel, [3]uint32{1, 1, 1})
	}}
}

// pure is the op of key whose candidates touch no caller data: they may be
// measured on the caller's (here: no) buffers.
func pure(key string, cands ...tune.Candidate) tune.Op {
	return tune.Op{Key: key, Candidates: cands, Pure: true}
}

func failing(name string, err error) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error { return err }}
}

// setup returns a client on a fake service under ProcessCompileAndAutotune:
// everything discards except what a measurement opens.
func setup(t testing.TB) (*streamgatetest.Service, *client.Client) {
	t.Helper()
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	svc := streamgatetest.NewService()
	return svc, client.New(svc, client.WithRegistry(r))
}

func TestCheapestWins(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	assert.Equal(t, tune.TimingWall, tu.Timing())
	cands := []tune.Candidate{sleeper("slow", 15*time.Millisecond, nil), sleeper("fast", 0, nil), sleeper("mid", 4*time.Millisecond, nil)}
	got, res, err := tu.Pick(context.Background(), pure("op/small", cands...))
	require.NoError(t, err)
	assert.Equal(t, "fast", got.Name)
	assert.Equal(t, "fast", res.Winner)
	assert.False(t, res.Cached)
	t.Log("\n" + res.Table())
	require.Len(t, res.Rows, 3)
	for _, row := range res.Rows {
		assert.GreaterOrEqual(t, len(row.Samples), 1, row.Name)
		assert.LessOrEqual(t, len(row.Samples), tune.MaxSamples, row.Name)
		if row.Status != tune.StatusPruned {
			assert.GreaterOrEqual(t, len(row.Samples), tune.MinSamples, row.Name)
		}
	}
	assert.Equal(t, tune.StatusPruned, res.Rows[2].Status, "10x slower than the leader: pruned")
	assert.Equal(t, []string{"fast", "mid", "slow"}, res.Ranking())
	assert.Equal(t, uint64(0), c.Stats().Discarded, "measurements execute under the process's discard")
	assert.NotZero(t, c.Stats().Executed)
}

func TestBrokenCandidateSkipped(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	broken := errors.New("invalid WGSL")
	cands := []tune.Candidate{failing("broken", broken), sleeper("ok", time.Millisecond, nil)}
	got, res, err := tu.Pick(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.Equal(t, "ok", got.Name)
	last := res.Rows[len(res.Rows)-1]
	assert.Equal(t, "broken", last.Name)
	assert.Equal(t, tune.StatusFailed, last.Status)
	assert.ErrorIs(t, last.Err, broken)
	assert.Contains(t, res.Table(), "failed: invalid WGSL")
}

func TestAllFail(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	_, _, err := tu.Pick(context.Background(), pure("k", failing("a", errors.New("bad a")), failing("b", errors.New("bad b"))))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a: bad a")
	assert.Contains(t, err.Error(), "b: bad b")
}

func TestBadCandidates(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	_, _, err := tu.Pick(context.Background(), pure("k"))
	assert.ErrorContains(t, err, "no candidates")
	_, _, err = tu.Pick(context.Background(), pure("k", sleeper("a", 0, nil), sleeper("a", 0, nil)))
	assert.ErrorContains(t, err, `two candidates named "a"`)
	_, _, err = tu.Pick(context.Background(), pure("k", tune.Candidate{Name: "x"}))
	assert.ErrorContains(t, err, "no name or no Run")
}

func TestCacheHitLaunchesNothing(t *testing.T) {
	cache, err := openCache(t, filepath.Join(t.TempDir(), "tune.db"))
	require.NoError(t, err)
	defer cache.Close()
	cands := []tune.Candidate{sleeper("slow", 3*time.Millisecond, nil), sleeper("fast", 0, nil)}

	_, c1 := setup(t)
	_, res, err := tune.New(c1, tune.WithDevice("dev"), tune.WithCache(cache)).Pick(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.False(t, res.Cached)

	_, c2 := setup(t)
	tu := tune.New(c2, tune.WithDevice("dev"), tune.WithCache(cache))
	got, res, err := tu.Pick(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.True(t, res.Cached)
	assert.Equal(t, tune.TimingWall, res.Timing, "a cached result says how it was measured")
	assert.Equal(t, "fast", got.Name)
	assert.Equal(t, client.Stats{}, c2.Stats(), "a cache hit performs zero launches")
	assert.Contains(t, res.Table(), "cache hit")

	// Another device, or other candidates, re-tune.
	_, c3 := setup(t)
	_, res, err = tune.New(c3, tune.WithDevice("other"), tune.WithCache(cache)).Pick(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.False(t, res.Cached, "another adapter identity is another key")
	_, res, err = tu.Pick(context.Background(), pure("k", append(cands, sleeper("new", time.Millisecond, nil))...))
	require.NoError(t, err)
	assert.False(t, res.Cached, "other candidate names are another key")
}

func TestConcurrentSameKeyMeasuresOnce(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	var runs atomic.Int64
	cands := []tune.Candidate{sleeper("a", 0, &runs), sleeper("b", 4*time.Millisecond, &runs)}
	var wg sync.WaitGroup
	names := make([]string, 6)
	for i := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, _, err := tu.Pick(context.Background(), pure("k", cands...))
			assert.NoError(t, err)
			names[i] = got.Name
		}()
	}
	wg.Wait()
	for _, n := range names {
		assert.Equal(t, "a", n)
	}
	measured := runs.Load()
	assert.LessOrEqual(t, measured, int64(2*(tune.MaxSamples+2)), "one tune's worth of runs")
	_, _, err := tu.Pick(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.Equal(t, measured, runs.Load(), "decided: no more runs")
}

func TestFallbackWhenWinnerFails(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	var breakFast atomic.Bool
	fast := tune.Candidate{Name: "fast", Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
		if breakFast.Load() {
			return errors.New("device lost")
		}
		return c.Launch(kernel, [3]uint32{1, 1, 1})
	}}
	cands := []tune.Candidate{sleeper("slow", 2*time.Millisecond, nil), fast}
	res, err := tu.Run(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.Equal(t, "fast", res.Ran)
	assert.Equal(t, "fast", res.Winner)
	breakFast.Store(true)
	res, err = tu.Run(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.Equal(t, "slow", res.Ran, "falls back to the next best")
	got, res2, err := tu.Pick(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.Equal(t, "slow", got.Name)
	assert.False(t, res2.Cached, "re-tuned without the failed winner")
	assert.Equal(t, []string{"slow"}, res2.Ranking())
}

func TestCanceled(t *testing.T) {
	_, c := setup(t)
	tu := tune.New(c, tune.WithDevice("test"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := tu.Pick(ctx, pure("k", sleeper("a", 0, nil), sleeper("b", 0, nil)))
	assert.ErrorIs(t, err, context.Canceled)
}

func TestScore(t *testing.T) {
	ms := time.Millisecond
	steady := tune.Score([]time.Duration{10 * ms, 10 * ms, 10 * ms})
	assert.Equal(t, 10*ms, steady)
	noisy := tune.Score([]time.Duration{9 * ms, 20 * ms, 30 * ms, 11 * ms})
	assert.Greater(t, noisy, steady, "a lower minimum does not win with a wide spread")
	assert.Zero(t, tune.Score(nil))
}

// timedService is a fake service with a GPU timer: a sample lasts whatever
// the candidate it runs says, so the tuner's ranking can be tested on
// durations no test would wait for.
type timedService struct {
	*streamgatetest.Service
	next atomic.Int64 // the duration the running candidate claims
}

var _ gpu.GPUTimer = (*timedService)(nil)

func (s *timedService) HasTimestamps() bool { return true }

func (s *timedService) TimeStream(_ context.Context, _ gpu.StreamID, record func() error) (time.Duration, error) {
	err := record()
	return time.Duration(s.next.Load()), err
}

// TestRankingOfSlowCandidates: candidates seconds apart rank by duration
// on every platform; on 32-bit ones int(a - b) of two Durations overflows.
func TestRankingOfSlowCandidates(t *testing.T) {
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	svc := &timedService{Service: streamgatetest.NewService()}
	c := client.New(svc, client.WithRegistry(r))
	tu := tune.New(c, tune.WithDevice("test"))
	require.Equal(t, tune.TimingGPU, tu.Timing())
	claim := func(name string, d time.Duration) tune.Candidate {
		return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
			svc.next.Store(int64(d))
			return c.Launch(kernel, [3]uint32{1, 1, 1})
		}}
	}
	cands := []tune.Candidate{claim("slow", 4*time.Second), claim("fast", time.Second), claim("mid", 1200*time.Millisecond), claim("slowest", 9*time.Second)}
	got, res, err := tu.Pick(context.Background(), pure("k", cands...))
	require.NoError(t, err)
	assert.Equal(t, "fast", got.Name)
	assert.Equal(t, []string{"fast", "mid", "slow", "slowest"}, res.Ranking())
	for _, row := range res.Rows {
		if row.Name == "slow" || row.Name == "slowest" {
			assert.Equal(t, tune.StatusPruned, row.Status, row.Name)
		}
	}
}

func TestProgress(t *testing.T) {
	_, c := setup(t)
	var got []tune.Progress
	_, _, err := tune.New(c, tune.WithDevice("test"), tune.WithProgress(func(p tune.Progress) { got = append(got, p) })).Pick(context.Background(),
		pure("op/progress", sleeper("a", 0, nil), sleeper("b", time.Millisecond, nil)))
	require.NoError(t, err)
	require.NotEmpty(t, got)
	for i, p := range got {
		assert.Equal(t, "op/progress", p.Key)
		assert.Equal(t, i+1, p.Done)
		assert.LessOrEqual(t, p.Done, p.Total)
	}
}

// TestDevicesTuneIndependently: a tune stuck on one device does not hold up
// a tune on another, even for the same key and a shared cache.
func TestDevicesTuneIndependently(t *testing.T) {
	cache := tune.NewMemoryCache()
	_, c1 := setup(t)
	_, c2 := setup(t)
	stuck := make(chan struct{})
	entered := make(chan struct{}, 1)
	blocking := tune.Candidate{Name: "a", Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-stuck
		return nil
	}}
	done1 := make(chan error, 1)
	go func() {
		_, _, err := tune.New(c1, tune.WithDevice("dev1"), tune.WithCache(cache)).Pick(context.Background(),
			pure("k", blocking, sleeper("b", 0, nil)))
		done1 <- err
	}()
	<-entered // device 1 is mid-tune
	got, _, err := tune.New(c2, tune.WithDevice("dev2"), tune.WithCache(cache)).Pick(context.Background(),
		pure("k", sleeper("a", 2*time.Millisecond, nil), sleeper("b", 0, nil)))
	require.NoError(t, err, "device 2 tuned while device 1 was stuck")
	assert.Equal(t, "b", got.Name)
	close(stuck)
	require.NoError(t, <-done1)
}
