//go:build unix

package rediscache_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

// listed is what a Range called f with, in order.
type listed struct {
	keys    []tune.CacheKey
	entries map[tune.CacheKey]tune.Entry
}

// rangeAll ranges over c to the end.
func rangeAll(t *testing.T, c tune.Cache) listed {
	t.Helper()
	l := listed{entries: map[tune.CacheKey]tune.Entry{}}
	require.NoError(t, c.Range(func(k tune.CacheKey, e tune.Entry) bool {
		l.keys = append(l.keys, k)
		l.entries[k] = e
		return true
	}))
	return l
}

// check asserts that l lists each key once, in key order.
func (l listed) check(t *testing.T) {
	t.Helper()
	assert.Len(t, l.entries, len(l.keys), "each key once")
	assert.True(t, slices.IsSortedFunc(l.keys, tune.CompareKeys), "in key order")
}

func count(t *testing.T, c tune.Cache) int {
	t.Helper()
	n := 0
	require.NoError(t, c.Range(func(tune.CacheKey, tune.Entry) bool { n++; return true }))
	return n
}

// TestRangeListsRedis: Range lists what other caches on the Redis stored,
// every byte of their keys intact, beside this cache's own stores and the
// local entries Redis lacks, each key once and in key order; it keeps
// nothing locally.
func TestRangeListsRedis(t *testing.T) {
	srv := redistest.Start(t)
	localA := tune.NewMemoryCache()
	a := open(t, srv.URL(0), localA)
	b := open(t, srv.URL(0), tune.NewMemoryCache())
	want := map[tune.CacheKey]tune.Entry{}
	for i, k := range nastyKeys {
		e := entry(fmt.Sprintf("b-%d", i), "n\xff")
		require.NoError(t, b.Store(k, e))
		want[k] = e
	}
	mine := tune.CacheKey{Device: "a", Key: "stored by a", Candidates: "c"}
	require.NoError(t, a.Store(mine, entry("a")))
	want[mine] = entry("a")
	localOnly := tune.CacheKey{Device: "a", Key: "only in a's local cache", Candidates: "c"}
	require.NoError(t, localA.Store(localOnly, entry("l")))
	want[localOnly] = entry("l")
	// A key both caches hold: Redis has b's later store.
	shared := tune.CacheKey{Device: "a", Key: "shared", Candidates: "c"}
	require.NoError(t, a.Store(shared, entry("a's")))
	require.NoError(t, b.Store(shared, entry("b's")))
	want[shared] = entry("b's")

	got := rangeAll(t, a)
	got.check(t)
	assert.Equal(t, want, got.entries)
	assert.Equal(t, 3, count(t, localA), "Range kept nothing locally")
	assert.Len(t, rangeAll(t, b).entries, len(want)-1, "b: all but a's local-only entry")
}

// TestRangePrefixIsolates: a cache lists only the entries under its own
// prefix, whatever bytes of a glob the prefixes hold.
func TestRangePrefixIsolates(t *testing.T) {
	srv := redistest.Start(t)
	var logs logBuf
	prefixes := []string{rediscache.DefaultPrefix, "", "a*:", "ab:", "a?:", "a[b]:", `a\:`, "other:"}
	caches := make([]*rediscache.Cache, len(prefixes))
	for i, p := range prefixes {
		caches[i] = open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithPrefix(p), rediscache.WithLogger(logs.logger()))
		require.NoError(t, caches[i].Store(tune.CacheKey{Device: "d", Key: p, Candidates: "c"}, entry("x")))
	}
	for i, c := range caches {
		got := rangeAll(t, c)
		assert.Equal(t, []tune.CacheKey{{Device: "d", Key: prefixes[i], Candidates: "c"}}, got.keys, "prefix %q", prefixes[i])
	}
	assert.NotContains(t, logs.String(), "level=WARN", "no other prefix's key was even looked at")
}

// TestRangeStopsEarly: Range stops at the first false from f.
func TestRangeStopsEarly(t *testing.T) {
	srv := redistest.Start(t)
	local := tune.NewMemoryCache()
	c := open(t, srv.URL(0), local)
	var all []tune.CacheKey
	for i := range 250 { // more than one batch
		k := tune.CacheKey{Device: "d", Key: fmt.Sprintf("k%03d", i), Candidates: "c"}
		require.NoError(t, c.Store(k, entry("x")))
		all = append(all, k)
	}
	for _, stop := range []int{1, 2, 100, 101} {
		var seen []tune.CacheKey
		require.NoError(t, c.Range(func(k tune.CacheKey, _ tune.Entry) bool {
			seen = append(seen, k)
			return len(seen) < stop
		}))
		assert.Equal(t, all[:stop], seen, "stop after %d", stop)
	}
}

// TestRangeRedisKilledMidway: a Redis killed in the middle of a Range
// leaves it listing the rest from the local cache: no error, no key twice,
// every local entry listed, and a warning that says how many entries in
// Redis it could not list. A Range while Redis is down lists the local
// cache, with a warning each time.
func TestRangeRedisKilledMidway(t *testing.T) {
	srv := redistest.Start(t)
	var logs logBuf
	local := tune.NewMemoryCache()
	c := open(t, srv.URL(0), local, rediscache.WithLogger(logs.logger()))
	other := open(t, srv.URL(0), tune.NewMemoryCache())
	const n = 250
	wantLocal := map[tune.CacheKey]tune.Entry{}
	for i := range n {
		k := tune.CacheKey{Device: "d", Key: fmt.Sprintf("k%03d", i), Candidates: "c"}
		switch {
		case i%10 == 3: // stored by this cache: in Redis and locally
			require.NoError(t, c.Store(k, entry("mine")))
			wantLocal[k] = entry("mine")
		case i%10 == 7: // only in the local cache
			require.NoError(t, local.Store(k, entry("local")))
			wantLocal[k] = entry("local")
		default: // only in Redis
			require.NoError(t, other.Store(k, entry("other")))
		}
	}
	got := listed{entries: map[tune.CacheKey]tune.Entry{}}
	require.NoError(t, c.Range(func(k tune.CacheKey, e tune.Entry) bool {
		if len(got.keys) == 0 {
			srv.Kill()
		}
		got.keys = append(got.keys, k)
		got.entries[k] = e
		return true
	}))
	got.check(t)
	for k, e := range wantLocal {
		assert.Equal(t, e, got.entries[k], "%s listed from the local cache", k)
	}
	fromRedis := len(got.keys) - len(wantLocal)
	t.Logf("Redis killed at the first of %d entries: %d listed, %d of them only in Redis; the warning: %s",
		n, len(got.keys), fromRedis, logs.String())
	assert.Equal(t, 80, fromRedis, "the first batch's, read before the kill: 100 keys, 20 of them local")
	assert.Contains(t, logs.String(), "Range lists the local cache only")
	assert.Contains(t, logs.String(), `"entries in Redis not listed"=120`, "the 150 keys after the first batch, less the 30 local")

	again := rangeAll(t, c)
	again.check(t)
	assert.Equal(t, wantLocal, again.entries, "down: the local cache")
	assert.Equal(t, 2, strings.Count(logs.String(), "Range lists the local cache only"), "a warning per partial Range: %s", logs.String())
}

// TestRangeRedisDown: with Redis unreachable from the start, Range lists
// the local cache, the stores made meanwhile among them.
func TestRangeRedisDown(t *testing.T) {
	srv := redistest.Start(t)
	srv.Kill()
	var logs logBuf
	c := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(logs.logger()))
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, c.Store(k, entry("x")))
	assert.Equal(t, 1, c.Pending())
	assert.Equal(t, map[tune.CacheKey]tune.Entry{k: entry("x")}, rangeAll(t, c).entries)
	assert.Contains(t, logs.String(), "Range lists the local cache only")
}

// TestRangeSkipsWhatDoesNotDecode: a Redis key under the prefix that is
// not an entry's key is logged once and skipped; a value that does not
// decode is logged once and the local entry, if any, listed instead.
func TestRangeSkipsWhatDoesNotDecode(t *testing.T) {
	srv := redistest.Start(t)
	var logs logBuf
	local := tune.NewMemoryCache()
	c := open(t, srv.URL(0), local, rediscache.WithLogger(logs.logger()))
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer rdb.Close()
	good := tune.CacheKey{Device: "d", Key: "good", Candidates: "c"}
	require.NoError(t, c.Store(good, entry("g")))
	p := rediscache.DefaultPrefix + "v2:e:"
	for _, raw := range []string{p + "garbage", p + "01:d4:good1:c", p + "1:d4:good1:cx", p, p + "\xff\x00"} {
		require.NoError(t, rdb.Set(context.Background(), raw, `{"ranking":["x"],"timing":"gpu"}`, 0).Err())
	}
	badValue := tune.CacheKey{Device: "d", Key: "bad value", Candidates: "c"}
	require.NoError(t, rdb.Set(context.Background(), c.EntryKey(badValue), "not json", 0).Err())
	badButLocal := tune.CacheKey{Device: "d", Key: "bad value, good local entry", Candidates: "c"}
	require.NoError(t, local.Store(badButLocal, entry("l")))
	require.NoError(t, rdb.Set(context.Background(), c.EntryKey(badButLocal), `{"ranking":[],"timing":"gpu"}`, 0).Err())

	for range 2 {
		got := rangeAll(t, c)
		got.check(t)
		assert.Equal(t, map[tune.CacheKey]tune.Entry{good: entry("g"), badButLocal: entry("l")}, got.entries)
	}
	assert.Equal(t, 5, strings.Count(logs.String(), "Redis key ignored"), "once per key: %s", logs.String())
	assert.Equal(t, 2, strings.Count(logs.String(), "Redis entry ignored"), "once per key: %s", logs.String())
	assert.NotContains(t, logs.String(), "Range lists the local cache only", "Redis answered")
}

// TestRangeContext: a context that has ended lists nothing; a server that
// hangs is given the cache's timeout, then the local cache is listed.
func TestRangeContext(t *testing.T) {
	srv := redistest.Start(t)
	var logs logBuf
	local := tune.NewMemoryCache()
	c := open(t, srv.URL(0), local, rediscache.WithTimeout(200*time.Millisecond), rediscache.WithLogger(logs.logger()))
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, c.Store(k, entry("x")))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err := c.RangeContext(ctx, func(tune.CacheKey, tune.Entry) bool { called = true; return true })
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, called)

	srv.Pause()
	defer srv.Resume()
	t0 := time.Now()
	var got []tune.CacheKey
	require.NoError(t, c.RangeContext(deadline(t), func(k tune.CacheKey, _ tune.Entry) bool { got = append(got, k); return true }))
	elapsed := time.Since(t0)
	t.Logf("Range on a paused server, 200ms cache timeout: the local cache listed after %v", elapsed.Round(time.Millisecond))
	assert.Equal(t, []tune.CacheKey{k}, got)
	assert.GreaterOrEqual(t, elapsed, 200*time.Millisecond, "it did ask the paused server")
	assert.Less(t, elapsed, 2*time.Second)
	assert.Contains(t, logs.String(), "Range lists the local cache only")
}

// TestDown: Down is false while Redis answers, true once a call failed,
// and false again once the cache's ping is answered.
func TestDown(t *testing.T) {
	srv := redistest.Start(t)
	c := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithTimeout(200*time.Millisecond))
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, c.Store(k, entry("x")))
	assert.False(t, c.Down())
	srv.Pause()
	require.NoError(t, c.Store(k, entry("y")), "a store while Redis hangs waits, it is no error")
	assert.True(t, c.Down(), "the store's call failed")
	assert.Equal(t, 1, c.Pending())
	srv.Resume()
	waitPending(t, c)
	assert.False(t, c.Down(), "the ping was answered and the store sent")
}

// TestRangeCallbackPanics: a panic in f propagates out of Range and
// leaves the cache working: no lock held, nothing lost.
func TestRangeCallbackPanics(t *testing.T) {
	srv := redistest.Start(t)
	c := open(t, srv.URL(0), tune.NewMemoryCache())
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, c.Store(k, entry("x")))
	assert.PanicsWithValue(t, "boom", func() {
		_ = c.Range(func(tune.CacheKey, tune.Entry) bool { panic("boom") })
	})
	require.NoError(t, c.Store(tune.CacheKey{Device: "d", Key: "k2", Candidates: "c"}, entry("y")))
	var n int
	require.NoError(t, c.Range(func(k tune.CacheKey, e tune.Entry) bool {
		_, ok := c.Load(k) // f may call the cache
		assert.True(t, ok)
		n++
		return true
	}))
	assert.Equal(t, 2, n)
	assert.False(t, c.Down())
}
