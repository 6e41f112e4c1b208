package rediscache

import "github.com/streamgate/streamgate/tune"

// EntryKey is k's entry key in Redis.
func (c *Cache) EntryKey(k tune.CacheKey) string { return c.redisKey("e", k) }

// RedisKey is k's entry key in Redis under prefix.
func RedisKey(prefix string, k tune.CacheKey) string { return redisKey(prefix, "e", k) }

// ParseKey is the key whose entry key in Redis under prefix is raw.
func ParseKey(prefix, raw string) (tune.CacheKey, bool) { return parseKey(prefix, "e", raw) }

// GlobEscape is globEscape.
var GlobEscape = globEscape
