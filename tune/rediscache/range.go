package rediscache

import (
	"context"
	"iter"
	"maps"
	"slices"

	"github.com/streamgate/streamgate/tune"
)

// Batch sizes of a Range: keys per SCAN (a hint to Redis) and per MGET.
const (
	scanCount  = 1000
	rangeBatch = 100
)

// Range is RangeContext with a background context.
func (c *Cache) Range(f func(tune.CacheKey, tune.Entry) bool) error {
	return c.RangeContext(context.Background(), f)
}

// RangeContext calls f for each entry in Redis under the cache's prefix,
// whichever process stored it, and for each entry of the local cache that
// Redis lacks (a store still pending while Redis was down, say): each key
// once, in key order ([tune.CompareKeys]), until f returns false. A key's
// entry is Redis's, unless this cache has a store of it pending: then that
// store's, which is newer and which Redis gets once it is back. (A store
// pending when the listing began and sent since is listed from the local
// cache, which holds this cache's newest store of the key.) It keeps
// nothing in the local cache.
//
// It lists the keys in Redis with SCAN, then reads their values in
// batches, each call bounded by ctx and the cache's timeout. A Redis key
// under the prefix that is not an entry's key is logged (once per key) and
// skipped; a value that does not decode is logged as [Cache.Load] logs it,
// and the key's local entry, if any, is listed instead. When Redis is
// down, or fails before the listing ends, RangeContext logs a warning and
// lists the local cache instead (the rest of it, past the keys f has
// seen): it does not fail. Like every [tune.Cache.Range] it is not a
// snapshot: a store or delete made meanwhile, here or by another process,
// may be seen or not.
//
// It returns ctx.Err() if ctx ends first, else the local cache's error.
// f may call the cache.
func (c *Cache) RangeContext(ctx context.Context, f func(tune.CacheKey, tune.Entry) bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.Down() {
		if c.silenced&WarnRangeLocal == 0 {
			c.log.Warn("tune: Redis unavailable; Range lists the local cache only", "server", c.server)
		}
		return c.local.Range(f)
	}
	remote, err := c.scan(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.rangeFault(err)
		return c.local.Range(f)
	}
	inLocal := map[tune.CacheKey]bool{}
	if err := c.local.Range(func(k tune.CacheKey, _ tune.Entry) bool { inLocal[k] = true; return true }); err != nil {
		return err
	}
	c.mu.Lock()
	pending := maps.Clone(c.pending)
	c.mu.Unlock()
	most := len(remote) + len(inLocal) + len(pending)
	seen := make(map[tune.CacheKey]bool, most)
	keys := make([]tune.CacheKey, 0, most)
	for _, set := range []iter.Seq[tune.CacheKey]{maps.Keys(remote), maps.Keys(inLocal), maps.Keys(pending)} {
		for k := range set {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, tune.CompareKeys)

	up := true // Redis answers; once false, the rest comes from local
	for i := 0; i < len(keys); i += rangeBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := keys[i:min(i+rangeBatch, len(keys))]
		var values map[tune.CacheKey][]byte
		if up {
			var ask []tune.CacheKey
			for _, k := range batch {
				if _, p := pending[k]; remote[k] && !p {
					ask = append(ask, k)
				}
			}
			if values, err = c.mget(ctx, ask); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				lost := 0
				for _, k := range keys[i:] {
					if _, p := pending[k]; remote[k] && !inLocal[k] && !p {
						lost++
					}
				}
				c.rangeFault(err, "entries in Redis not listed", lost)
				up = false
			}
		}
		for _, k := range batch {
			if e, ok := c.pendingEntry(k); ok { // as of now: one pending at the listing may be sent, replaced
				if !f(k, e) {
					return nil
				}
				continue
			}
			if v, ok := values[k]; ok {
				if e, ok := c.decode(k, v); ok {
					if !f(k, e) {
						return nil
					}
					continue
				}
			}
			// Not in Redis (deleted since the SCAN), not decoded, or
			// Redis down: the local entry, if there is one.
			if !inLocal[k] {
				continue
			}
			if e, ok := c.local.Load(k); ok && !f(k, e) {
				return nil
			}
		}
	}
	return nil
}

// pendingEntry returns the entry of k's store pending, if there is one.
func (c *Cache) pendingEntry(k tune.CacheKey) (tune.Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pending[k]
	return p.entry, ok
}

// scan returns the keys of the entries in Redis under the cache's prefix.
// A Redis key that does not parse is logged, once, and left out.
func (c *Cache) scan(ctx context.Context) (map[tune.CacheKey]bool, error) {
	prefix := kindPrefix(c.prefix, "e")
	match := globEscape(prefix) + "*"
	keys := map[tune.CacheKey]bool{} // a set: SCAN may return a key twice
	var cursor uint64
	for {
		cctx, cancel := c.call(ctx)
		raws, next, err := c.rdb.Scan(cctx, cursor, match, scanCount).Result()
		cancel()
		if err != nil {
			return nil, err
		}
		for _, raw := range raws {
			k, ok := parseKey(c.prefix, "e", raw)
			if !ok {
				c.badKey(raw)
				continue
			}
			keys[k] = true
		}
		if next == 0 {
			return keys, nil
		}
		cursor = next
	}
}

// badKey logs, once per key, a Redis key under the entries' prefix that
// does not parse.
func (c *Cache) badKey(raw string) {
	c.mu.Lock()
	logged := c.badKeys[raw]
	c.badKeys[raw] = true
	c.mu.Unlock()
	if !logged {
		c.log.Warn("tune: Redis key ignored: it is not an entry's key", "redis key", raw)
	}
}

// mget returns the values in Redis of keys; a key that has none is left
// out.
func (c *Cache) mget(ctx context.Context, keys []tune.CacheKey) (map[tune.CacheKey][]byte, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	raws := make([]string, len(keys))
	for i, k := range keys {
		raws[i] = c.redisKey("e", k)
	}
	cctx, cancel := c.call(ctx)
	defer cancel()
	vs, err := c.rdb.MGet(cctx, raws...).Result()
	if err != nil {
		return nil, err
	}
	values := make(map[tune.CacheKey][]byte, len(keys))
	for i, v := range vs {
		if s, ok := v.(string); ok {
			values[keys[i]] = []byte(s)
		}
	}
	return values, nil
}

// rangeFault records that Redis failed during a Range, which lists the
// local cache instead. It logs a warning of its own (unless WarnRangeLocal
// is silenced), attrs added, whether or not the outage is logged already:
// the caller's listing is partial. A
// call that Redis refused ([refused]) leaves Redis in use.
func (c *Cache) rangeFault(err error, attrs ...any) {
	if !refused(err) {
		c.markDown()
		c.poke()
	}
	if c.silenced&WarnRangeLocal == 0 {
		c.log.Warn("tune: Redis unavailable; Range lists the local cache only",
			append([]any{"server", c.server, "op", "range", "err", err}, attrs...)...)
	}
}
