//go:build unix

package rediscache_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/low/leaktest"
	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

func TestMain(m *testing.M) {
	if url := os.Getenv("STREAMGATE_REDIS_CHILD"); url != "" {
		os.Exit(fleetChild(url))
	}
	if url := os.Getenv("STREAMGATE_REDIS_QUIET_CHILD"); url != "" {
		os.Exit(quietChild(url))
	}
	os.Exit(leaktest.Run(m.Run))
}

// deadline bounds a test that a regression would hang: it then fails.
func deadline(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// logBuf is a logger into a buffer, safe for concurrent use.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuf) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

func open(t *testing.T, url string, local tune.Cache, opts ...rediscache.Option) *rediscache.Cache {
	t.Helper()
	c, err := rediscache.Open(url, local, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func entry(names ...string) tune.Entry {
	return tune.Entry{Ranking: names, Timing: tune.TimingWall, Created: time.Unix(1e9, 0).UTC()}
}

// sleeper costs d per run and counts its runs.
func sleeper(name string, d time.Duration, runs *int64, mu *sync.Mutex) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error {
		if mu != nil {
			mu.Lock()
			*runs++
			mu.Unlock()
		}
		time.Sleep(d)
		return nil
	}}
}

func op(key string) tune.Op {
	return tune.Op{Key: key, Pure: true, Candidates: []tune.Candidate{sleeper("slow", 5*time.Millisecond, nil, nil), sleeper("fast", 0, nil, nil)}}
}

func tuner(c tune.Cache, opts ...tune.Option) *tune.Tuner {
	r := registry.New()
	r.SetProcessMode(registry.ProcessCompileAndAutotune)
	return tune.New(client.New(streamgatetest.NewService(), client.WithRegistry(r)), append([]tune.Option{tune.WithCache(c), tune.WithDevice("test-gpu")}, opts...)...)
}

// TestLoadAsksLocalThenRedis: a load asks the local cache, then Redis,
// and keeps what it finds locally; a store goes to both.
func TestLoadAsksLocalThenRedis(t *testing.T) {
	srv := redistest.Start(t)
	localA, localB := tune.NewMemoryCache(), tune.NewMemoryCache()
	a := open(t, srv.URL(0), localA)
	b := open(t, srv.URL(0), localB)
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, a.Store(k, entry("x", "y")))
	_, ok := localA.Load(k)
	assert.True(t, ok, "stored locally")
	e, ok := b.Load(k)
	require.True(t, ok, "found in Redis")
	assert.Equal(t, []string{"x", "y"}, e.Ranking)
	_, ok = localB.Load(k)
	assert.True(t, ok, "and kept locally")
	srv.Kill()
	e, ok = b.Load(k)
	assert.True(t, ok, "the local copy serves with Redis gone")
	assert.Equal(t, []string{"x", "y"}, e.Ranking)
	require.NoError(t, b.Delete(k))
	_, ok = b.Load(k)
	assert.False(t, ok)
}

// TestRedisKeyPartsKeptApart: every part of a CacheKey is kept apart,
// whatever bytes it holds.
func TestRedisKeyPartsKeptApart(t *testing.T) {
	srv := redistest.Start(t)
	w := open(t, srv.URL(0), tune.NewMemoryCache())
	keys := []tune.CacheKey{
		{Device: "dev|A", Key: "op", Candidates: "c"},
		{Device: "dev", Key: "A|op", Candidates: "c"},
		{Device: "1:a", Key: "b", Candidates: "c"},
		{Device: "1", Key: ":ab", Candidates: "c"},
		{Device: "gpu\xff", Key: "op", Candidates: "c"},
		{Device: "gpu\xfe", Key: "op", Candidates: "c"},
		{Device: "d", Key: "op", Candidates: "c\x00"},
	}
	for i, k := range keys {
		require.NoError(t, w.Store(k, entry(fmt.Sprintf("winner-%d", i), "n\xff")))
	}
	r := open(t, srv.URL(0), tune.NewMemoryCache())
	for i, k := range keys {
		e, ok := r.Load(k)
		require.True(t, ok, "Load(%s)", k)
		assert.Equal(t, []string{fmt.Sprintf("winner-%d", i), "n\xff"}, e.Ranking, "Load(%s)", k)
	}
}

// TestUndecodableValueRetuned: a value in Redis that does not decode is
// logged and ignored; the key is then tuned and the value replaced.
func TestUndecodableValueRetuned(t *testing.T) {
	srv := redistest.Start(t)
	var logs logBuf
	c := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(logs.logger()))
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer rdb.Close()
	tu := tuner(c)
	o := op("bad")
	_, res, err := tu.Pick(deadline(t), o) // learn the cache key by tuning once
	require.NoError(t, err)
	var key tune.CacheKey
	require.NoError(t, c.Range(func(k tune.CacheKey, _ tune.Entry) bool { key = k; return false }))
	for _, bad := range []string{"not json", `{"ranking":[],"timing":"gpu"}`, `{"ranking":["a","a"],"timing":"gpu"}`, `{"ranking":["a"],"timing":"sundial"}`} {
		require.NoError(t, rdb.Set(context.Background(), c.EntryKey(key), bad, 0).Err())
		fresh := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(logs.logger()))
		_, ok := fresh.Load(key)
		assert.False(t, ok, "%q is not trusted", bad)
		require.NoError(t, fresh.Close(), "releases the claim its miss took")
	}
	assert.Equal(t, 4, strings.Count(logs.String(), "Redis entry ignored"), logs.String())
	fresh := open(t, srv.URL(0), tune.NewMemoryCache())
	_, res2, err := tuner(fresh).Pick(deadline(t), o)
	require.NoError(t, err)
	assert.False(t, res2.Cached, "tuned afresh")
	assert.NotEmpty(t, res.Winner)
	v, err := rdb.Get(context.Background(), c.EntryKey(key)).Result()
	require.NoError(t, err)
	assert.Contains(t, v, `"ranking":[`+strconv.Quote(res2.Winner), "the bad value was replaced by the new tuning's ranking")
	e, ok := open(t, srv.URL(0), tune.NewMemoryCache()).Load(key)
	require.True(t, ok, "the replacement decodes")
	assert.Equal(t, res2.Winner, e.Ranking[0])
}

// TestURLSettingsAndWarnings: a password and a database number from the URL; a
// wrong password or a TLS URL against a plain server is a warning, not an
// error; a malformed URL is an error that does not repeat the password.
func TestURLSettingsAndWarnings(t *testing.T) {
	srv := redistest.Start(t, "--requirepass", "s3cret")
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	c := open(t, fmt.Sprintf("redis://:s3cret@%s/3", srv.Addr()), tune.NewMemoryCache())
	require.NoError(t, c.Store(k, entry("a")))
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), Password: "s3cret", DB: 3})
	defer rdb.Close()
	n, err := rdb.DBSize(context.Background()).Result()
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "the entry is in database 3")
	assert.Zero(t, c.Pending())

	for _, url := range []string{
		fmt.Sprintf("redis://:wrong@%s/3", srv.Addr()),
		fmt.Sprintf("rediss://:s3cret@%s/3", srv.Addr()),
	} {
		var logs logBuf
		local := tune.NewMemoryCache()
		c := open(t, url, local, rediscache.WithLogger(logs.logger()))
		require.NoError(t, c.Store(k, entry("b")), "a Redis fault is not the caller's error")
		e, ok := c.Load(k)
		assert.True(t, ok)
		assert.Equal(t, []string{"b"}, e.Ranking, "served locally")
		assert.Contains(t, logs.String(), "Redis unavailable")
		assert.NotContains(t, logs.String(), "s3cret", "no password in the log")
		assert.Equal(t, 1, strings.Count(logs.String(), "Redis unavailable"), "one warning per outage: %s", logs.String())
	}

	_, err = rediscache.Open("redis://:s3cret@[::1:bad/0", tune.NewMemoryCache())
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "s3cret")
	_, err = rediscache.Open("http://localhost/0", tune.NewMemoryCache())
	require.Error(t, err)
}

// TestUnreachableAtOpenCatchesUp: a server that is not there at open is a
// warning; tuning goes on locally, and the stores made meanwhile reach it
// once it is up.
func TestUnreachableAtOpenCatchesUp(t *testing.T) {
	srv := redistest.Start(t)
	srv.Kill()
	var logs logBuf
	c := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(logs.logger()))
	assert.Contains(t, logs.String(), "Redis unavailable")
	tu := tuner(c)
	for i := range 3 {
		_, res, err := tu.Pick(deadline(t), op(fmt.Sprintf("k%d", i)))
		require.NoError(t, err, "decided by tuning")
		assert.False(t, res.Cached)
	}
	assert.Equal(t, 3, c.Pending())
	srv.Restart()
	waitPending(t, c)
	assert.Contains(t, logs.String(), "Redis is back")
	other := open(t, srv.URL(0), tune.NewMemoryCache())
	for i := range 3 {
		_, res, err := tuner(other).Pick(deadline(t), op(fmt.Sprintf("k%d", i)))
		require.NoError(t, err)
		assert.True(t, res.Cached, "k%d reached Redis", i)
	}
}

func waitPending(t *testing.T, c *rediscache.Cache) {
	t.Helper()
	ctx := deadline(t)
	for c.Pending() > 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("%d stores still pending", c.Pending())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestServerKilledMidRunLosesNothing: the server is killed (SIGKILL) in the
// middle of a run of tunes and restarted: no Pick fails, no entry is lost
// locally or in Redis, and the stores made while it was down reach it.
func TestServerKilledMidRunLosesNothing(t *testing.T) {
	srv := redistest.Start(t)
	var logs logBuf
	local := tune.NewMemoryCache()
	c := open(t, srv.URL(0), local, rediscache.WithLogger(logs.logger()))
	tu := tuner(c)
	const keys = 30
	var during int
	for i := range keys {
		switch i {
		case 10:
			srv.Kill()
		case 20:
			during = c.Pending()
			srv.Restart()
		}
		_, _, err := tu.Pick(deadline(t), op(fmt.Sprintf("k%d", i)))
		require.NoError(t, err, "Pick k%d", i)
	}
	waitPending(t, c)
	other := open(t, srv.URL(0), tune.NewMemoryCache())
	lostLocal, lostRedis := 0, 0
	n := 0
	require.NoError(t, local.Range(func(tune.CacheKey, tune.Entry) bool { n++; return true }))
	lostLocal = keys - n
	for i := range keys {
		_, res, err := tuner(other).Pick(deadline(t), op(fmt.Sprintf("k%d", i)))
		require.NoError(t, err)
		if !res.Cached {
			lostRedis++
		}
	}
	t.Logf("%d keys tuned, server killed after 10 and restarted after 20: %d stores queued while down, entries lost: %d locally, %d in Redis; warnings: %d",
		keys, during, lostLocal, lostRedis, strings.Count(logs.String(), "level=WARN"))
	assert.Equal(t, 10, during, "the ten stores made while down were queued")
	assert.Zero(t, lostLocal)
	assert.Zero(t, lostRedis)
	assert.Equal(t, 1, strings.Count(logs.String(), "Redis unavailable"), "one warning for the outage: %s", logs.String())
}

// TestPausedServerBoundedByTimeout: a server that hangs (SIGSTOP:
// connections are accepted, nothing answers) bounds a load by the context
// and by the cache's timeout; Pick still decides, by tuning.
func TestPausedServerBoundedByTimeout(t *testing.T) {
	srv := redistest.Start(t)
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	// The caller's deadline, shorter than the cache's own timeout.
	slow := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithTimeout(30*time.Second))
	var logs logBuf
	c := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithTimeout(200*time.Millisecond), rediscache.WithLogger(logs.logger()))
	require.Zero(t, strings.Count(logs.String(), "Redis unavailable"), "up at open")
	srv.Pause()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	t0 := time.Now()
	_, ok := slow.LoadContext(ctx, k)
	elapsed := time.Since(t0)
	cancel()
	assert.False(t, ok)
	t.Logf("LoadContext on a paused server with a 300ms context: returned after %v", elapsed.Round(time.Millisecond))
	assert.Less(t, elapsed, 2*time.Second, "bounded by the context")

	// The cache's timeout, shorter than the caller's deadline.
	t0 = time.Now()
	_, res, err := tuner(c).Pick(deadline(t), op("paused"))
	elapsed = time.Since(t0)
	require.NoError(t, err, "a slow cache is no error")
	assert.False(t, res.Cached)
	t.Logf("Pick on a paused server, 200ms cache timeout: decided by tuning in %v", elapsed.Round(time.Millisecond))
	assert.GreaterOrEqual(t, elapsed, 200*time.Millisecond, "it did ask the paused server")
	assert.Less(t, elapsed, 5*time.Second)
	assert.Contains(t, logs.String(), "Redis unavailable")
	srv.Resume()
	waitPending(t, c)
}

// The fleet test: procs processes share one Redis and tune the same keys,
// each in its own order; each key is measured by exactly one of them.
const (
	procs     = 4
	fleetKeys = 8
)

type fleetReport struct {
	Tuned    []string // keys this process measured
	Cached   []string // keys it found
	Measured int64    // candidate runs in measurements
	Elapsed  time.Duration
}

// TestProcessesSharingRedisMeasureEachKeyOnce: 4 processes, each with its
// own local cache, tune the same keys on one Redis: each key is measured
// by exactly one of them, the others find its winner in the cache.
func TestProcessesSharingRedisMeasureEachKeyOnce(t *testing.T) {
	srv := redistest.Start(t)
	dir := t.TempDir()
	start := time.Now().Add(time.Second)
	cmds := make([]*exec.Cmd, procs)
	outs := make([]strings.Builder, procs)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "STREAMGATE_REDIS_CHILD="+srv.URL(0),
			"STREAMGATE_REDIS_CHILD_DB="+filepath.Join(dir, fmt.Sprintf("local-%d.db", i)),
			"STREAMGATE_REDIS_CHILD_SEED="+strconv.Itoa(i),
			"STREAMGATE_REDIS_CHILD_START="+strconv.FormatInt(start.UnixNano(), 10))
		cmd.Stdout = &outs[i]
		cmd.Stderr = os.Stderr
		require.NoError(t, cmd.Start())
		cmds[i] = cmd
	}
	tunedBy := map[string][]int{}
	cached := 0
	for i, cmd := range cmds {
		require.NoError(t, cmd.Wait(), "child %d", i)
		var rep fleetReport
		require.NoError(t, json.Unmarshal([]byte(outs[i].String()), &rep), "child %d said %q", i, outs[i].String())
		t.Logf("process %d: measured %d keys (%d candidate runs), found %d in the cache, %v", i, len(rep.Tuned), rep.Measured, len(rep.Cached), rep.Elapsed.Round(time.Millisecond))
		for _, k := range rep.Tuned {
			tunedBy[k] = append(tunedBy[k], i)
		}
		cached += len(rep.Cached)
	}
	for k := range fleetKeys {
		key := fmt.Sprintf("fleet/%d", k)
		assert.Len(t, tunedBy[key], 1, "%s measured by exactly one process: %v", key, tunedBy[key])
	}
	t.Logf("%d processes × %d keys on one Redis: %d decisions measured, %d shared (found in the cache)", procs, fleetKeys, len(tunedBy), cached)
	assert.Equal(t, procs*fleetKeys-fleetKeys, cached)

	// This process stored nothing: its Range lists what the others did.
	var listed []string
	require.NoError(t, open(t, srv.URL(0), tune.NewMemoryCache()).Range(func(k tune.CacheKey, _ tune.Entry) bool {
		listed = append(listed, k.Key)
		return true
	}))
	assert.Equal(t, []string{"fleet/0", "fleet/1", "fleet/2", "fleet/3", "fleet/4", "fleet/5", "fleet/6", "fleet/7"}, listed)
}

// fleetChild is one process of TestProcessesSharingRedisMeasureEachKeyOnce.
func fleetChild(url string) int {
	seed, _ := strconv.Atoi(os.Getenv("STREAMGATE_REDIS_CHILD_SEED"))
	ns, _ := strconv.ParseInt(os.Getenv("STREAMGATE_REDIS_CHILD_START"), 10, 64)
	local, err := sqlitecache.Open(os.Getenv("STREAMGATE_REDIS_CHILD_DB"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	c, err := rediscache.Open(url, local)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer c.Close()
	var mu sync.Mutex
	var runs int64
	tu := tuner(c)
	order := rand.New(rand.NewPCG(uint64(seed), 1)).Perm(fleetKeys)
	var rep fleetReport
	time.Sleep(time.Until(time.Unix(0, ns)))
	t0 := time.Now()
	for _, k := range order {
		o := tune.Op{Key: fmt.Sprintf("fleet/%d", k), Pure: true, Candidates: []tune.Candidate{
			sleeper("slow", 3*time.Millisecond, &runs, &mu), sleeper("fast", time.Millisecond, &runs, &mu)}}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, res, err := tu.Pick(ctx, o)
		cancel()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if res.Cached {
			rep.Cached = append(rep.Cached, o.Key)
		} else {
			rep.Tuned = append(rep.Tuned, o.Key)
		}
	}
	rep.Elapsed = time.Since(t0)
	rep.Measured = runs
	if err := json.NewEncoder(os.Stdout).Encode(rep); err != nil {
		return 1
	}
	return 0
}
