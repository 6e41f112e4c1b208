package rediscache

import "github.com/streamgate/streamgate/tune"

// EntryKey is k's entry key in Redis.
func (c *Cache) EntryKey(k tune.CacheKey) string { return c.redisKey("e", k) }
