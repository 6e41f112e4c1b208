//go:build unix

package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
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

// TestIssue22_CacheURL: -cache-url puts a Redis cache in front of -cache;
// a second machine (another file) finds what the first stored.
func TestIssue22_CacheURL(t *testing.T) {
	srv := redistest.Start(t)
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	var stdout, stderr bytes.Buffer
	c := openTuneCache(filepath.Join(t.TempDir(), "a.db"), nil, srv.URL(0), &stdout, &stderr)
	_, ok := c.(*rediscache.Cache)
	require.True(t, ok, "a Redis cache; stdout %s stderr %s", &stdout, &stderr)
	assert.Contains(t, stdout.String(), "shared through Redis")
	require.NoError(t, c.Store(k, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingGPU, Created: time.Now()}))
	require.NoError(t, c.Close())
	c = openTuneCache(filepath.Join(t.TempDir(), "b.db"), nil, srv.URL(0), &stdout, &stderr)
	defer c.Close()
	e, ok := c.Load(k)
	assert.True(t, ok, "found through Redis")
	assert.Equal(t, []string{"a"}, e.Ranking)

	stderr.Reset()
	c2 := openTuneCache("", nil, "ftp://nowhere", &stdout, &stderr)
	defer c2.Close()
	assert.Contains(t, stderr.String(), "tuning without the shared cache")
}

// TestGoRedisLogToDebug: once the command opens a Redis cache, go-redis's
// own lines (a dial that failed) go to the command's logger at Debug, not
// to stderr beside the cache's warning.
func TestGoRedisLogToDebug(t *testing.T) {
	down := redistest.Start(t)
	down.Kill()
	t.Cleanup(logging.Enable) // go-redis's own logger again
	var buf syncBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := openShared(down.URL(0), tune.NewMemoryCache(), log)
	require.NoError(t, err)
	defer c.Close()
	// A client that dials through its pool, as the cache does when a call
	// finds Redis gone.
	rdb := redis.NewClient(&redis.Options{Addr: down.Addr(), MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	require.Error(t, rdb.Ping(context.Background()).Err())
	assert.Regexp(t, `level=DEBUG msg="redis: connection pool: failed to dial after 1 attempts: [^"]*" from=go-redis`, buf.String())
	assert.Contains(t, buf.String(), `level=WARN msg="tune: Redis unavailable`)
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
