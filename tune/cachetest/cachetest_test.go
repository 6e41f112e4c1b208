package cachetest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// The wgpu contract and this package's copy of it have one method set.
var (
	_ KernelStore      = wgpu.KernelStore(nil)
	_ wgpu.KernelStore = KernelStore(nil)
)

// TestMain shortens the suite's bounds, so that the broken variants that
// deadlock or wait past a done context fail in seconds.
func TestMain(m *testing.M) {
	checkTimeout, prompt = 30*time.Second, 500*time.Millisecond
	os.Exit(m.Run())
}

func TestMemoryCache(t *testing.T) {
	Run(t, func(*testing.T) tune.Cache { return tune.NewMemoryCache() })
}

func TestMemoryKernelStore(t *testing.T) {
	RunKernels(t, func(*testing.T) KernelStore { return wgpu.NewMemoryKernelStore() })
}

// contextCache is a memory cache that is a tune.ContextCache, checking
// its context first, as a server-backed cache would.
type contextCache struct{ tune.Cache }

func (c contextCache) LoadContext(ctx context.Context, k tune.CacheKey) (tune.Entry, bool) {
	if ctx.Err() != nil {
		return tune.Entry{}, false
	}
	return c.Load(k)
}

func (c contextCache) StoreContext(ctx context.Context, k tune.CacheKey, e tune.Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.Store(k, e)
}

func TestContextCache(t *testing.T) {
	Run(t, func(*testing.T) tune.Cache { return contextCache{tune.NewMemoryCache()} })
}
