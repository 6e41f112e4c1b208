//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/logging"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

// TestCacheURLSharedAcrossMachines: -cache-url puts a Redis cache in front
// of -cache; a second machine (another file) finds what the first stored.
func TestCacheURLSharedAcrossMachines(t *testing.T) {
	srv := redistest.Start(t)
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	var stdout, stderr bytes.Buffer
	open := func(path, url string) (tune.Cache, *cacheReport, error) {
		c, rep, err := openTuneCache(cacheFlags{path: path, url: url, explicit: true}, newCmdLog("warmup", &stderr))
		if err == nil {
			rep.status(&stdout)
		}
		return c, rep, err
	}
	c, rep, err := open(filepath.Join(t.TempDir(), "a.db"), srv.URL(0))
	require.NoError(t, err)
	_, ok := c.(*rediscache.Cache)
	require.True(t, ok, "a Redis cache; stdout %s stderr %s", &stdout, &stderr)
	assert.Contains(t, stdout.String(), "tune cache: shared through Redis at "+srv.URL(0)+"\n")
	assert.Empty(t, stderr.String())
	require.NoError(t, c.Store(k, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingGPU, Created: time.Now()}))
	assert.True(t, rep.shared())
	assert.Contains(t, rep.stored(), " and in Redis at "+srv.URL(0))
	require.NoError(t, c.Close())
	c, _, err = open(filepath.Join(t.TempDir(), "b.db"), srv.URL(0))
	require.NoError(t, err)
	defer c.Close()
	e, ok := c.Load(k)
	assert.True(t, ok, "found through Redis")
	assert.Equal(t, []string{"a"}, e.Ranking)

	for _, bad := range []string{"ftp://nowhere", "http://" + srv.Addr(), "redis://localhost:notaport"} {
		_, _, err = open("", bad)
		var ue *usageError
		assert.ErrorAs(t, err, &ue, "%s: a usage error", bad)
		assert.ErrorContains(t, err, "-cache-url ")
	}
}

// TestRedisErrorToldFromSilence: a Redis that answers with an error is told
// from one that does not answer, at the start and in where the winners
// went.
func TestRedisErrorToldFromSilence(t *testing.T) {
	srv := redistest.Start(t)
	down := redistest.Start(t)
	down.Kill()
	for _, tc := range []struct {
		name, url, status, why string
	}{
		{"db out of range", fmt.Sprintf("redis://%s/99", srv.Addr()), "tune cache: not shared: Redis at redis://" + srv.Addr() + "/99 answered with an error: ERR ", "answered with an error"},
		{"down", down.URL(0), "tune cache: not shared: Redis at " + down.URL(0) + " did not answer: ", "did not answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			c, rep, err := openTuneCache(cacheFlags{url: tc.url}, newCmdLog("warmup", &stderr))
			require.NoError(t, err)
			defer c.Close()
			rep.status(&stdout)
			assert.Contains(t, stdout.String(), tc.status)
			want := strings.TrimPrefix(tc.status, "tune cache: not shared: ")
			assert.True(t, strings.HasPrefix(stderr.String(), "streamgate warmup: warning: "+want), "stderr %q", &stderr)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one warning: %q", &stderr)
			assert.NotContains(t, stderr.String(), "level=")
			assert.Contains(t, rep.stored(), "in memory only (-cache \"\"), not in Redis (it "+tc.why)
			assert.False(t, rep.json().Shared)
		})
	}
}

// TestTuneExportImportCacheURL: a fleet's cache goes through tune import
// -cache-url into Redis, and out again through tune export -cache-url,
// byte for byte, with the local entries Redis lacks; no password is
// printed.
func TestTuneExportImportCacheURL(t *testing.T) {
	srv := redistest.Start(t, "--requirepass", "s3cret")
	url := fmt.Sprintf("redis://:s3cret@%s/2", srv.Addr())
	shown := fmt.Sprintf("redis://:xxxxx@%s/2", srv.Addr())
	dir := t.TempDir()
	created := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	entries := map[tune.CacheKey]tune.Entry{
		{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"}: {Ranking: []string{"tiled-8", "naive-8x8"}, Timing: tune.TimingGPU, Created: created},
		{Device: "gpu\xff:1:", Key: "3:abc\x00", Candidates: "4567"}:                                    {Ranking: []string{"2pass-wg64-g64"}, Timing: tune.TimingWall, Created: created},
		{Device: "another adapter", Key: "matmul/64x64x32", Candidates: "0123"}:                         {Ranking: []string{"naive-8x8"}, Timing: tune.TimingGPU, Created: created},
	}
	src := filepath.Join(dir, "src.db")
	newCache(t, src, entries)
	fleet := filepath.Join(dir, "fleet.jsonl")
	code, _, stderr := runCmd(t, "tune", "export", "-cache", src, "-o", fleet)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	want, err := os.ReadFile(fleet)
	require.NoError(t, err)

	noPassword := func(outs ...string) {
		t.Helper()
		for _, s := range outs {
			assert.NotContains(t, s, "s3cret")
		}
	}

	// Into Redis alone; out of Redis alone, as it went in.
	code, stdout, stderr := runCmd(t, "tune", "import", "-cache", "", "-cache-url", url, "-i", fleet)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, "imported 3 entries into "+shown+"\n", stdout)
	noPassword(stdout, stderr)
	out := filepath.Join(dir, "out.jsonl")
	code, stdout, stderr = runCmd(t, "tune", "export", "-cache", "", "-cache-url", url, "-o", out)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, "streamgate tune export: 3 entries from "+shown+"\n", stderr)
	noPassword(stdout, stderr)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "the fleet's cache, byte for byte")

	// With a local file: its entries that Redis lacks too, each key once.
	local := filepath.Join(dir, "local.db")
	extra := tune.CacheKey{Device: "another adapter", Key: "only here", Candidates: "89ab"}
	newCache(t, local, map[tune.CacheKey]tune.Entry{extra: {Ranking: []string{"x"}, Timing: tune.TimingGPU, Created: created}})
	code, stdout, stderr = runCmd(t, "tune", "export", "-cache", local, "-cache-url", url)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, "streamgate tune export: 4 entries from "+shown+" and "+local+"\n", stderr)
	assert.Equal(t, 4, strings.Count(stdout, "\n"))
	assert.Contains(t, stdout, `"key":"only here"`)

	// Import with a local file: the entries land in both.
	both := filepath.Join(dir, "both.db")
	srvKeys := func() int64 {
		rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), Password: "s3cret", DB: 2})
		defer rdb.Close()
		n, err := rdb.DBSize(context.Background()).Result()
		require.NoError(t, err)
		return n
	}
	require.NoError(t, redis.NewClient(&redis.Options{Addr: srv.Addr(), Password: "s3cret", DB: 2}).FlushDB(context.Background()).Err())
	code, stdout, stderr = runCmd(t, "tune", "import", "-cache", both, "-cache-url", url, "-i", fleet)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, "imported 3 entries into "+shown+" and "+both+"\n", stdout)
	assert.Equal(t, entries, readCache(t, both))
	assert.Equal(t, int64(3), srvKeys())

	// -device keeps to one adapter, in Redis's entries too.
	code, stdout, stderr = runCmd(t, "tune", "export", "-cache", "", "-cache-url", url, "-device", "another adapter")
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, 1, strings.Count(stdout, "\n"))
}

// TestTuneCacheURLDown: a Redis server that does not answer makes export
// warn and export -cache's entries, and import fail, saying where the
// entries are; a malformed URL is an error; the default -cache may be
// missing with -cache-url, an explicit one may not.
func TestTuneCacheURLDown(t *testing.T) {
	down := redistest.Start(t)
	down.Kill()
	dir := t.TempDir()
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	src := filepath.Join(dir, "src.db")
	newCache(t, src, map[tune.CacheKey]tune.Entry{k: {Ranking: []string{"a"}, Timing: tune.TimingGPU, Created: time.Unix(1e9, 0).UTC()}})
	fleet := filepath.Join(dir, "fleet.jsonl")
	code, _, stderr := runCmd(t, "tune", "export", "-cache", src, "-cache-url", down.URL(0), "-o", fleet)
	require.Equal(t, 1, code, "stderr:\n%s", stderr)
	noAnswer := "Redis at " + down.URL(0) + " did not answer: dial tcp " + down.Addr()
	assert.True(t, strings.HasPrefix(stderr, "streamgate tune export: warning: "+noAnswer), "stderr:\n%s", stderr)
	assert.Regexp(t, "\nstreamgate tune export: "+regexp.QuoteMeta(noAnswer)+"[^\n]*: the export holds 1 entries, from "+regexp.QuoteMeta(src)+" only\n$", stderr)
	assert.NotContains(t, stderr, "tuning", "nothing is tuned")
	assert.Equal(t, 2, strings.Count(stderr, "\n"), "a warning and the failure:\n%s", stderr)

	dst := filepath.Join(dir, "dst.db")
	code, _, stderr = runCmd(t, "tune", "import", "-cache", dst, "-cache-url", down.URL(0), "-i", fleet)
	assert.Equal(t, 1, code)
	assert.True(t, strings.HasPrefix(stderr, "streamgate tune import: warning: "+noAnswer), "stderr:\n%s", stderr)
	assert.Contains(t, stderr, "streamgate tune import: 1 of 1 entries did not reach Redis ("+noAnswer)
	assert.Contains(t, stderr, "); they are in "+dst+" only\n")
	assert.NotContains(t, stderr, "tuning", "nothing is tuned")
	assert.Len(t, readCache(t, dst), 1)
	code, _, stderr = runCmd(t, "tune", "import", "-cache", "", "-cache-url", down.URL(0), "-i", fleet)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `they are nowhere: -cache is ""`)
	assert.NotContains(t, stderr, "local cache", "no line says they are in a local cache")

	for _, args := range [][]string{{"export", "-o", os.DevNull}, {"import", "-i", os.DevNull}} {
		code, _, stderr = runCmd(t, append([]string{"tune", args[0], "-cache", "", "-cache-url", "ftp://nowhere"}, args[1:]...)...)
		assert.Equal(t, 2, code, "%s: stderr:\n%s", args[0], stderr)
		assert.Contains(t, stderr, "streamgate tune "+args[0]+": -cache-url ftp://nowhere: redis: invalid URL scheme: ftp: want redis://")
	}

	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // no default cache file
	code, _, stderr = runCmd(t, "tune", "export", "-cache-url", down.URL(0))
	assert.Equal(t, 1, code, "stderr:\n%s", stderr)
	assert.Contains(t, stderr, ": the export holds nothing: there is no -cache file\n")
	code, _, stderr = runCmd(t, "tune", "export")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no tune cache at")
	code, _, stderr = runCmd(t, "tune", "export", "-cache", filepath.Join(dir, "typo.db"), "-cache-url", down.URL(0))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no tune cache at "+filepath.Join(dir, "typo.db"))
}

// TestGoRedisLogToDebug: once the command opens a Redis cache, go-redis's
// own lines (a dial that failed) go to the command's logger at Debug, not
// to stderr beside the command's warning; the cache's own warning about
// the ping at open is silenced, the command reading OpenErr instead.
func TestGoRedisLogToDebug(t *testing.T) {
	down := redistest.Start(t)
	down.Kill()
	t.Cleanup(logging.Enable) // go-redis's own logger again
	var buf syncBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := openShared(down.URL(0), tune.NewMemoryCache(), log, 0)
	require.NoError(t, err)
	defer c.Close()
	// A client that dials through its pool, as the cache does when a call
	// finds Redis gone.
	rdb := redis.NewClient(&redis.Options{Addr: down.Addr(), MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	require.Error(t, rdb.Ping(context.Background()).Err())
	assert.Regexp(t, `level=DEBUG msg="redis: connection pool: failed to dial after 1 attempts: [^"]*" from=go-redis`, buf.String())
	assert.NotContains(t, buf.String(), `level=WARN`)
	assert.Error(t, c.OpenErr())
	assert.False(t, c.OpenAnswered())
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
