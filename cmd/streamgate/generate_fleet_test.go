//go:build cgo && unix

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
)

// TestGenerateFleetSharesKernels: with -cache-url, two machines (each its
// own -cache file and kernel directory) share one Redis: the second finds
// every winner there and lowers nothing, every source read through Redis.
func TestGenerateFleetSharesKernels(t *testing.T) {
	needAdapter(t)
	srv := redistest.Start(t)
	dir := t.TempDir()
	a := runGenerate(t, "-cache", filepath.Join(dir, "a.db"), "-cache-url", srv.URL(0), "-out", "", "-cold=false", "-restart=false")
	assert.Equal(t, "the tune cache, shared through Redis", a.KernelCache.Store)
	useKernelDir(t, filepath.Join(dir, "b-kernels")) // machine b's own, empty
	b := runGenerate(t, "-cache", filepath.Join(dir, "b.db"), "-cache-url", srv.URL(0), "-out", "", "-cold=false", "-restart=false")
	assert.Zero(t, b.TunedKeys, "the winners came through Redis")
	assert.Zero(t, b.KernelCache.Misses, "every source came through Redis")
	assert.Positive(t, b.KernelCache.StoreHits)
	assert.Equal(t, a.Generated, b.Generated)
	entries, err := os.ReadDir(filepath.Join(dir, "b-kernels"))
	require.NoError(t, err)
	assert.Empty(t, entries, "with Redis, kernels live in the tune cache")
}
