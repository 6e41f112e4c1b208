//go:build unix

package main

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

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
