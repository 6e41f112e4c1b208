package tune_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
)

func TestStats(t *testing.T) {
	_, c := setup(t)
	cache := tune.NewMemoryCache()
	before := tune.TotalStats()
	tu := tune.New(c, tune.WithCache(cache))
	op := pure("stats", sleeper("fast", 0, nil), sleeper("slow", time.Millisecond, nil))
	ctx := context.Background()
	_, _, err := tu.Pick(ctx, op)
	require.NoError(t, err)
	_, _, err = tu.Pick(ctx, op) // from memory: counts nothing
	require.NoError(t, err)
	_, _, err = tu.Pick(ctx, pure("broken", failing("x", errors.New("no"))))
	require.Error(t, err)
	assert.Equal(t, tune.Stats{CacheMisses: 2, Tuned: 1, TuneErrors: 1}, tu.Stats())

	again := tune.New(c, tune.WithCache(cache)) // a second process, as it were
	_, res, err := again.Pick(ctx, op)
	require.NoError(t, err)
	assert.True(t, res.Cached)
	assert.Equal(t, tune.Stats{CacheHits: 1}, again.Stats())
	assert.Equal(t, "cache_hits=1 cache_misses=0 tuned=0 tune_errors=0", again.Stats().String())

	after := tune.TotalStats()
	assert.GreaterOrEqual(t, after.CacheHits-before.CacheHits, uint64(1))
	assert.GreaterOrEqual(t, after.Tuned-before.Tuned, uint64(1))
}

// failingCache stores nothing: a Tuner warns that its result is not
// remembered.
type failingCache struct{ tune.Cache }

func (failingCache) Store(tune.CacheKey, tune.Entry) error { return errors.New("disk full") }

func TestDefaultLoggerWarnsToSlogDefault(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(prev)

	_, c := setup(t)
	tu := tune.New(c, tune.WithCache(failingCache{tune.NewMemoryCache()}))
	_, _, err := tu.Pick(context.Background(), pure("warn", sleeper("a", 0, nil)))
	require.NoError(t, err)
	assert.Contains(t, buf.String(), `level=WARN msg="tune: the result is not remembered" key=warn err="disk full"`)
}
