package rediscache

import (
	"context"

	"github.com/streamgate/streamgate/tune"
)

// EntryKey is k's entry key in Redis.
func (c *Cache) EntryKey(k tune.CacheKey) string { return c.redisKey("e", k) }

// ClaimKey is k's claim key in Redis.
func (c *Cache) ClaimKey(k tune.CacheKey) string { return c.redisKey("c", k) }

// RedisKey is k's entry key in Redis under prefix.
func RedisKey(prefix string, k tune.CacheKey) string { return redisKey(prefix, "e", k) }

// ParseKey is the key whose entry key in Redis under prefix is raw.
func ParseKey(prefix, raw string) (tune.CacheKey, bool) { return parseKey(prefix, "e", raw) }

// GlobEscape is globEscape.
var GlobEscape = globEscape

// StoreOutcome is StoreContext, saying how the store went: sent, it is in
// Redis; tried, its send failed and it is queued (and may have reached a
// server that was only slow); neither, it was queued without a send.
func (c *Cache) StoreOutcome(ctx context.Context, k tune.CacheKey, e tune.Entry) (sent, tried bool, err error) {
	return c.store(ctx, k, e)
}

// WithBrokenFlusher restores the flusher that let a queued store overtake
// a newer one: a store sent directly leaves an older queued store of its
// key queued, and the flusher sends that over it.
func WithBrokenFlusher() Option { return optionFunc(func(c *config) { c.brokenFlush = true }) }

// WithFlushHook has the flusher call f before it sends each pending store,
// with the store's key.
func WithFlushHook(f func(tune.CacheKey)) Option {
	return optionFunc(func(c *config) { c.flushHook = f })
}

// KernelKey is key's kernel key in Redis.
func (c *Cache) KernelKey(key [32]byte) string { return c.kernelRedisKey(key) }
