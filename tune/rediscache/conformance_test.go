//go:build unix

package rediscache_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/cachetest"
	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// forgetful is a local cache that keeps no kernels: every kernel load of a
// Redis cache in front of it reads Redis.
type forgetful struct{ tune.Cache }

func (forgetful) LoadKernel(context.Context, [32]byte) ([]byte, bool) { return nil, false }
func (forgetful) StoreKernel(context.Context, [32]byte, []byte) error { return nil }

// locals are the local caches the suite runs the Redis cache in front of.
var locals = []struct {
	name string
	open func(t *testing.T) tune.Cache
}{
	{"memory", func(*testing.T) tune.Cache { return tune.NewMemoryCache() }},
	{"sqlite", func(t *testing.T) tune.Cache {
		c, err := sqlitecache.Open(filepath.Join(t.TempDir(), "local.db"))
		require.NoError(t, err)
		return c
	}},
	{"no local kernels", func(*testing.T) tune.Cache { return forgetful{tune.NewMemoryCache()} }},
}

// TestConformance: the Redis cache passes tune/cachetest in front of each
// local cache, each check under a prefix of its own on one server.
func TestConformance(t *testing.T) {
	srv := redistest.Start(t, "--appendonly", "no")
	var n atomic.Int64
	for _, local := range locals[:2] {
		t.Run(local.name, func(t *testing.T) {
			cachetest.Run(t, func(t *testing.T) tune.Cache {
				c, err := rediscache.Open(srv.URL(0), local.open(t), rediscache.WithPrefix(fmt.Sprintf("conf%d:", n.Add(1))))
				require.NoError(t, err)
				return c
			})
		})
	}
}

// TestKernelConformance: the Redis cache passes tune/cachetest's kernel
// checks in front of a local cache that keeps kernels (SQLite), one that
// does not (memory: the cache keeps them in memory), and one that drops
// them (every load reads Redis).
func TestKernelConformance(t *testing.T) {
	srv := redistest.Start(t, "--appendonly", "no")
	var n atomic.Int64
	for _, local := range locals {
		t.Run(local.name, func(t *testing.T) {
			cachetest.RunKernels(t, func(t *testing.T) cachetest.KernelStore {
				c, err := rediscache.Open(srv.URL(0), local.open(t), rediscache.WithPrefix(fmt.Sprintf("kconf%d:", n.Add(1))))
				require.NoError(t, err)
				t.Cleanup(func() { c.Close() })
				return c
			})
		})
	}
}
