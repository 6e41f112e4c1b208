//go:build unix

package rediscache_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

func kernelKey(s string) [32]byte { return sha256.Sum256([]byte(s)) }

// compiler stands for wgpu: it loads a kernel's entry from the store, and
// on a miss compiles it (counted) and stores the result.
type compiler struct {
	store interface {
		LoadKernel(context.Context, [32]byte) ([]byte, bool)
		StoreKernel(context.Context, [32]byte, []byte) error
	}
	compiled int
}

func (c *compiler) get(t *testing.T, src string) []byte {
	t.Helper()
	k := kernelKey(src)
	if e, ok := c.store.LoadKernel(deadline(t), k); ok {
		return e
	}
	c.compiled++
	e := []byte("lowered(" + src + ")")
	require.NoError(t, c.store.StoreKernel(deadline(t), k, e))
	return e
}

// TestFleetCompilesEachKernelOnce: two machines (each a local SQLite file)
// share one Redis: what one compiles and stores, the other loads without
// compiling, keeps in its file, and serves from there once Redis is gone.
func TestFleetCompilesEachKernelOnce(t *testing.T) {
	srv := redistest.Start(t)
	dir := t.TempDir()
	machine := func(name string) (*rediscache.Cache, *sqlitecache.Cache) {
		local, err := sqlitecache.Open(filepath.Join(dir, name+".db"))
		require.NoError(t, err)
		return open(t, srv.URL(0), local), local
	}
	a, _ := machine("a")
	b, localB := machine("b")
	ca, cb := &compiler{store: a}, &compiler{store: b}
	srcs := []string{"matmul", "softmax", "layernorm"}
	for _, src := range srcs {
		ca.get(t, src)
	}
	for _, src := range srcs {
		assert.Equal(t, "lowered("+src+")", string(cb.get(t, src)))
	}
	assert.Equal(t, 3, ca.compiled)
	assert.Zero(t, cb.compiled, "the second machine compiled nothing")
	for _, src := range srcs {
		e, ok := localB.LoadKernel(context.Background(), kernelKey(src))
		assert.True(t, ok, "%s kept in b's file", src)
		assert.Equal(t, "lowered("+src+")", string(e))
	}
	srv.Kill()
	for _, src := range srcs {
		cb.get(t, src)
	}
	assert.Zero(t, cb.compiled, "served from the local file with Redis gone")
}

// TestPoisonedKernelValueIsAMiss: a Redis value under a kernel's key that
// is not the entry sealed for that key — truncated, a bit changed, another
// key's, junk, a tune entry, empty — is a miss with one warning per key,
// never returned; a store then replaces it.
func TestPoisonedKernelValueIsAMiss(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	defer rdb.Close()
	ctx := context.Background()
	k, other := kernelKey("k"), kernelKey("other")
	w := open(t, srv.URL(0), tune.NewMemoryCache())
	entry := bytes.Repeat([]byte("lowered kernel;"), 100)
	require.NoError(t, w.StoreKernel(ctx, k, entry))
	require.NoError(t, w.StoreKernel(ctx, other, []byte("other entry")))
	good, err := rdb.Get(ctx, w.KernelKey(k)).Bytes()
	require.NoError(t, err)
	otherValue, err := rdb.Get(ctx, w.KernelKey(other)).Bytes()
	require.NoError(t, err)
	flipped := bytes.Clone(good)
	flipped[len(flipped)-1] ^= 1
	for _, tc := range []struct {
		name  string
		value []byte
	}{
		{"truncated", good[:len(good)-10]},
		{"header only, cut", good[:50]},
		{"a bit changed", flipped},
		{"another key's entry", otherValue},
		{"junk", []byte("not a kernel entry at all, but long enough to have a header's worth of bytes")},
		{"a tune entry", []byte(`{"ranking":["a"],"timing":"gpu"}`)},
		{"empty", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, rdb.Set(ctx, w.KernelKey(k), tc.value, 0).Err())
			var logs logBuf
			r := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(logs.logger()))
			for range 3 {
				e, ok := r.LoadKernel(ctx, k)
				assert.False(t, ok, "poisoned value returned: %q", e)
			}
			assert.Equal(t, 1, strings.Count(logs.String(), "Redis kernel entry ignored"), "one warning per key: %s", logs.String())
			assert.False(t, r.Down(), "a bad value is about one key")
			require.NoError(t, r.StoreKernel(ctx, k, entry))
			e, ok := open(t, srv.URL(0), tune.NewMemoryCache()).LoadKernel(ctx, k)
			require.True(t, ok, "the store replaced the poisoned value")
			assert.Equal(t, entry, e)
		})
	}
}

// TestKernelStoresWaitOutAnOutage: kernels stored while Redis is down are
// kept locally, counted by Pending, and sent once it is back; a later
// store of a key made while its earlier one waited wins.
func TestKernelStoresWaitOutAnOutage(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	c := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(new(logBuf).logger()))
	srv.Kill()
	for i := range 5 {
		require.NoError(t, c.StoreKernel(ctx, kernelKey(fmt.Sprint(i)), []byte(fmt.Sprintf("old %d", i))))
	}
	require.True(t, c.Down(), "the first store found Redis down")
	require.NoError(t, c.StoreKernel(ctx, kernelKey("0"), []byte("new 0")))
	require.NoError(t, c.Store(tune.CacheKey{Device: "d", Key: "k"}, entry("a")))
	assert.Equal(t, 6, c.Pending(), "five kernels and one tune entry wait")
	e, ok := c.LoadKernel(ctx, kernelKey("0"))
	require.True(t, ok, "served locally while Redis is down")
	assert.Equal(t, "new 0", string(e))
	srv.Restart()
	waitPending(t, c)
	other := open(t, srv.URL(0), tune.NewMemoryCache())
	for i := range 5 {
		want := fmt.Sprintf("old %d", i)
		if i == 0 {
			want = "new 0"
		}
		e, ok := other.LoadKernel(ctx, kernelKey(fmt.Sprint(i)))
		require.True(t, ok, "kernel %d reached Redis", i)
		assert.Equal(t, want, string(e), "kernel %d", i)
	}
}

// TestLaterKernelStoreWins: stores of one key by two caches land in the
// order Redis gets them, and one cache's stores in the order it made them.
func TestLaterKernelStoreWins(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	a := open(t, srv.URL(0), tune.NewMemoryCache())
	b := open(t, srv.URL(0), tune.NewMemoryCache())
	k := kernelKey("k")
	for i := range 20 {
		c := a
		if i%2 == 1 {
			c = b
		}
		require.NoError(t, c.StoreKernel(ctx, k, []byte(fmt.Sprintf("v%d", i))))
	}
	e, ok := open(t, srv.URL(0), tune.NewMemoryCache()).LoadKernel(ctx, k)
	require.True(t, ok)
	assert.Equal(t, "v19", string(e))
}

// TestKernelKeysApartFromEntries: kernels live under a kind of their own:
// Range lists tune entries only, whatever kernels share the prefix.
func TestKernelKeysApartFromEntries(t *testing.T) {
	srv := redistest.Start(t)
	c := open(t, srv.URL(0), tune.NewMemoryCache())
	require.NoError(t, c.StoreKernel(context.Background(), kernelKey("k"), []byte("x")))
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, c.Store(k, entry("a")))
	var keys []tune.CacheKey
	var logs logBuf
	r := open(t, srv.URL(0), tune.NewMemoryCache(), rediscache.WithLogger(logs.logger()))
	require.NoError(t, r.Range(func(k tune.CacheKey, _ tune.Entry) bool { keys = append(keys, k); return true }))
	assert.Equal(t, []tune.CacheKey{k}, keys)
	assert.Empty(t, logs.String(), "no kernel key taken for a bad entry key")
	assert.True(t, strings.HasPrefix(c.KernelKey(kernelKey("k")), rediscache.DefaultPrefix+"v2:k:"), c.KernelKey(kernelKey("k")))
}
