package tune

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Cache remembers tune results across runs. Implementations are safe for
// concurrent use by multiple goroutines. Package tune/sqlitecache keeps them
// in a file that processes share; package tune/rediscache shares them with
// a fleet on Redis; [NewMemoryCache] keeps them for the process's life.
type Cache interface {
	// Load returns the entry stored under k.
	Load(k CacheKey) (e Entry, ok bool)
	// Store saves e under k, replacing any earlier entry.
	Store(k CacheKey, e Entry) error
	// Delete forgets k.
	Delete(k CacheKey) error
	// Range calls f for each entry, in key order, until f returns false.
	// It is not a snapshot of concurrent stores; f may call the cache.
	Range(f func(k CacheKey, e Entry) bool) error
	// Close releases the cache.
	Close() error
}

// ContextCache is a [Cache] whose loads and stores may wait on a server. A
// [Tuner] calls LoadContext and StoreContext with the context of the Pick or
// Run that needs the entry, so the caller's deadline bounds them; either
// returns by the time ctx ends (a miss, or an error).
type ContextCache interface {
	Cache
	LoadContext(ctx context.Context, k CacheKey) (e Entry, ok bool)
	StoreContext(ctx context.Context, k CacheKey, e Entry) error
}

// loadCache loads k from c, bounded by ctx when c is a [ContextCache].
func loadCache(ctx context.Context, c Cache, k CacheKey) (Entry, bool) {
	if cc, ok := c.(ContextCache); ok {
		return cc.LoadContext(ctx, k)
	}
	return c.Load(k)
}

// storeCache stores e under k in c, bounded by ctx when c is a
// [ContextCache].
func storeCache(ctx context.Context, c Cache, k CacheKey, e Entry) error {
	if cc, ok := c.(ContextCache); ok {
		return cc.StoreContext(ctx, k, e)
	}
	return c.Store(k, e)
}

// DefaultCachePath returns os.UserCacheDir()/streamgate/tune.db.
func DefaultCachePath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("tune: no user cache directory: %w", err)
	}
	return filepath.Join(dir, "streamgate", "tune.db"), nil
}

// CompareKeys orders cache keys by device, key, then candidates: the order
// of [Cache.Range].
func CompareKeys(a, b CacheKey) int {
	return cmp.Or(cmp.Compare(a.Device, b.Device), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Candidates, b.Candidates))
}

// memoryCache is a Cache in a map: what a process tunes with when it has no
// usable file.
type memoryCache struct {
	mu sync.Mutex         // guards m
	m  map[CacheKey]Entry // key → entry
}

// NewMemoryCache returns an empty cache that lives as long as the process.
func NewMemoryCache() Cache { return &memoryCache{m: map[CacheKey]Entry{}} }

func (c *memoryCache) Load(k CacheKey) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return e, ok
}

func (c *memoryCache) Store(k CacheKey, e Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = e
	return nil
}

func (c *memoryCache) Delete(k CacheKey) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
	return nil
}

func (c *memoryCache) Range(f func(CacheKey, Entry) bool) error {
	c.mu.Lock()
	keys := make([]CacheKey, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	c.mu.Unlock()
	slices.SortFunc(keys, CompareKeys)
	for _, k := range keys {
		e, ok := c.Load(k)
		if ok && !f(k, e) {
			break
		}
	}
	return nil
}

func (c *memoryCache) Close() error { return nil }
