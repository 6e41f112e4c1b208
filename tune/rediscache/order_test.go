//go:build unix

package rediscache_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

// waitUp waits until c's flusher has had its ping answered.
func waitUp(t *testing.T, c *rediscache.Cache) {
	t.Helper()
	ctx := deadline(t)
	for c.Down() {
		select {
		case <-ctx.Done():
			t.Fatal("the cache still knows Redis to be down")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestQueuedStoreOvertakenByNewer: 2,000 keys are stored while Redis is
// down, then stored again once the cache sees it back, while its flusher
// sends the queued stores ("racing") or before it sends any ("held": the
// flusher waits in a hook until the new stores are made). Redis then holds
// the newer entry of every key, and Range lists it. The broken flusher
// (WithBrokenFlusher) leaves every key stale when held, and
// about half when racing.
func TestQueuedStoreOvertakenByNewer(t *testing.T) {
	const keys = 2000
	for _, tc := range []struct {
		name         string
		broken, held bool
	}{
		{"racing", false, false},
		{"held", false, true},
		{"broken/racing", true, false},
		{"broken/held", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := redistest.Start(t, "--appendonly", "no") // nothing is stored before the restart: no fsync per write
			release := make(chan struct{})
			opts := []rediscache.Option{rediscache.WithLogger(new(logBuf).logger())}
			if tc.held {
				first := true
				opts = append(opts, rediscache.WithFlushHook(func(tune.CacheKey) {
					if first { // the flusher's goroutine alone calls the hook
						first = false
						<-release
					}
				}))
			}
			if tc.broken {
				opts = append(opts, rediscache.WithBrokenFlusher())
			}
			c := open(t, srv.URL(0), tune.NewMemoryCache(), opts...)
			defer close(release) // before c's cleanup closes it: a failing test does not hang Close
			ks := make([]tune.CacheKey, keys)
			for i := range ks {
				ks[i] = tune.CacheKey{Device: "d", Key: fmt.Sprintf("k%04d", i), Candidates: "c"}
			}
			srv.Kill()
			for _, k := range ks {
				require.NoError(t, c.Store(k, entry("old")))
			}
			require.Equal(t, keys, c.Pending(), "queued while Redis is down")
			srv.Restart()
			waitUp(t, c)
			for _, k := range ks {
				require.NoError(t, c.Store(k, entry("new")))
			}
			if tc.held {
				release <- struct{}{}
			}
			waitPending(t, c)

			rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
			defer rdb.Close()
			raws := make([]string, keys)
			for i, k := range ks {
				raws[i] = c.EntryKey(k)
			}
			vs, err := rdb.MGet(context.Background(), raws...).Result()
			require.NoError(t, err)
			stale := 0
			for i, v := range vs {
				s, ok := v.(string)
				require.True(t, ok, "%s is in Redis", ks[i])
				var e tune.Entry
				require.NoError(t, json.Unmarshal([]byte(s), &e))
				if e.Ranking[0] != "new" {
					stale++
				}
			}
			listedStale := 0
			for _, e := range rangeAll(t, c).entries {
				if e.Ranking[0] != "new" {
					listedStale++
				}
			}
			t.Logf("%d keys stored while Redis was down, stored again once it was back (%s): %d hold the older entry in Redis afterwards, %d listed so by Range",
				keys, tc.name, stale, listedStale)
			switch {
			case !tc.broken:
				assert.Zero(t, stale, "keys holding the older entry in Redis")
				assert.Zero(t, listedStale, "keys Range lists with the older entry")
			case tc.held:
				assert.Equal(t, keys, stale, "the broken flusher sends every queued store over its newer one")
			}
		})
	}
}

// TestWrongTypeFailsOnlyItsKey: a value of another Redis type under a
// key's entry or claim (a list: LPUSH) makes Redis refuse calls about that
// key alone. It is logged once, naming the key; the cache is not down;
// stores go to Redis at once, that key's among them (SET replaces the
// list), and so do claims of other keys.
func TestWrongTypeFailsOnlyItsKey(t *testing.T) {
	srv := redistest.Start(t)
	var logs logBuf
	c := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(logs.logger()))
	other := open(t, srv.URL(0), tune.NewMemoryCache())
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer rdb.Close()
	ctx := context.Background()
	listEntry := tune.CacheKey{Device: "d", Key: "list-under-entry", Candidates: "c"}
	listClaim := tune.CacheKey{Device: "d", Key: "list-under-claim", Candidates: "c"}
	plain := tune.CacheKey{Device: "d", Key: "plain", Candidates: "c"}
	require.NoError(t, rdb.LPush(ctx, c.EntryKey(listEntry), "x").Err())
	require.NoError(t, rdb.LPush(ctx, c.ClaimKey(listClaim), "x").Err())

	for range 3 {
		_, ok := c.Load(listEntry)
		assert.False(t, ok, "GET of a list is refused: a miss")
		_, ok = c.Load(listClaim)
		assert.False(t, ok, "the claim's GET is refused: a miss")
	}
	assert.False(t, c.Down(), "a refusal about one key is no outage")

	_, ok := c.Load(plain)
	assert.False(t, ok)
	holder, err := rdb.Get(ctx, c.ClaimKey(plain)).Result()
	require.NoError(t, err, "the miss of another key claimed it in Redis at once")
	assert.NotEmpty(t, holder)

	for _, k := range []tune.CacheKey{listEntry, listClaim, plain} {
		sent, _, err := c.StoreOutcome(ctx, k, entry("w-"+k.Key))
		require.NoError(t, err)
		assert.True(t, sent, "%s: stored in Redis at once", k.Key)
		e, ok := other.Load(k)
		require.True(t, ok, "%s: another cache finds it in Redis", k.Key)
		assert.Equal(t, []string{"w-" + k.Key}, e.Ranking)
	}
	assert.Zero(t, c.Pending())
	assert.False(t, c.Down())
	exists, err := rdb.Exists(ctx, c.ClaimKey(plain)).Result()
	require.NoError(t, err)
	assert.Zero(t, exists, "the store released the claim")

	log := logs.String()
	t.Logf("the log:\n%s", log)
	assert.Equal(t, 2, strings.Count(log, "Redis refused"), "once per key")
	for _, k := range []tune.CacheKey{listEntry, listClaim} {
		assert.Equal(t, 1, strings.Count(log, k.Key), "%s named once", k.Key)
	}
	assert.Contains(t, log, "WRONGTYPE")
	assert.NotContains(t, log, "Redis unavailable")
}

// racingLocal is a local cache in which a store of key lands just after
// the first look at it misses: the store a load races.
type racingLocal struct {
	tune.Cache
	key  tune.CacheKey
	e    tune.Entry
	once sync.Once
}

func (l *racingLocal) Load(k tune.CacheKey) (tune.Entry, bool) {
	e, ok := l.Cache.Load(k)
	if k == l.key && !ok {
		l.once.Do(func() { _ = l.Cache.Store(k, l.e) })
	}
	return e, ok
}

// TestLoadKeepsNewerLocalStore: a load that misses locally and reads
// Redis keeps what it read only if the local cache still lacks the key: a
// store that landed there meanwhile stays.
func TestLoadKeepsNewerLocalStore(t *testing.T) {
	srv := redistest.Start(t)
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, open(t, srv.URL(0), tune.NewMemoryCache()).Store(k, entry("in Redis")))
	local := &racingLocal{Cache: tune.NewMemoryCache(), key: k, e: entry("stored meanwhile")}
	c := open(t, srv.URL(0), local)
	e, ok := c.Load(k)
	require.True(t, ok)
	assert.Equal(t, []string{"in Redis"}, e.Ranking, "the load returns what it read")
	e, ok = local.Cache.Load(k)
	require.True(t, ok)
	assert.Equal(t, []string{"stored meanwhile"}, e.Ranking, "and leaves the newer local entry")
}
