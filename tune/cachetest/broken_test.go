package cachetest

import (
	"context"
	"errors"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// Deliberately broken caches and kernel stores: each breaks one rule of
// the contract, and the suite must fail it in the check that tests that
// rule (and may fail it in others).

// brokenWait is how long the variants that ignore a done context wait:
// longer than the suite's bound (see TestMain).
const brokenWait = 2 * time.Second

// mapCache is a correct tune.Cache in a map whose methods the broken
// variants replace one at a time.
type mapCache struct {
	mu sync.Mutex
	m  map[tune.CacheKey]tune.Entry

	unordered    bool // Range in map order
	ignoreStop   bool // Range goes on after f returns false
	lockedRange  bool // Range calls f under the lock
	dropDelete   bool // Delete does nothing
	racyStore    bool // Store copies the map, changes the copy, puts it back
	joinKey      bool // keys joined with "|": parts that hold it collide
	truncateTime bool // Created kept to the second
}

func newMapCache() *mapCache { return &mapCache{m: map[tune.CacheKey]tune.Entry{}} }

func (c *mapCache) key(k tune.CacheKey) tune.CacheKey {
	if c.joinKey {
		return tune.CacheKey{Key: k.Device + "|" + k.Key + "|" + k.Candidates}
	}
	return k
}

func (c *mapCache) Load(k tune.CacheKey) (tune.Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[c.key(k)]
	return e, ok
}

func (c *mapCache) Store(k tune.CacheKey, e tune.Entry) error {
	if c.truncateTime {
		e.Created = e.Created.Truncate(time.Second)
	}
	if c.racyStore {
		c.mu.Lock()
		m := maps.Clone(c.m)
		c.mu.Unlock()
		runtime.Gosched()
		m[c.key(k)] = e
		c.mu.Lock()
		c.m = m
		c.mu.Unlock()
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[c.key(k)] = e
	return nil
}

func (c *mapCache) Delete(k tune.CacheKey) error {
	if c.dropDelete {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, c.key(k))
	return nil
}

func (c *mapCache) Range(f func(tune.CacheKey, tune.Entry) bool) error {
	c.mu.Lock()
	keys := slices.Collect(maps.Keys(c.m))
	if c.lockedRange {
		defer c.mu.Unlock()
	} else {
		c.mu.Unlock()
	}
	if !c.unordered {
		slices.SortFunc(keys, tune.CompareKeys)
	}
	for _, k := range keys {
		var e tune.Entry
		if c.lockedRange {
			e = c.m[k]
		} else if e2, ok := c.Load(k); ok {
			e = e2
		} else {
			continue
		}
		if !f(k, e) && !c.ignoreStop {
			break
		}
	}
	return nil
}

func (c *mapCache) Close() error { return nil }

// ctxMapCache is a mapCache that is a tune.ContextCache whose context
// handling is broken.
type ctxMapCache struct {
	*mapCache
	load func(ctx context.Context, c *mapCache, k tune.CacheKey) (tune.Entry, bool)
}

func (c ctxMapCache) LoadContext(ctx context.Context, k tune.CacheKey) (tune.Entry, bool) {
	return c.load(ctx, c.mapCache, k)
}

func (c ctxMapCache) StoreContext(ctx context.Context, k tune.CacheKey, e tune.Entry) error {
	if ctx.Err() != nil {
		return errors.New("gave up") // not the context's error
	}
	return c.Store(k, e)
}

// TestSuiteCatchesBrokenCaches: each broken cache fails the check of the
// rule it breaks; the correct one passes every check.
func TestSuiteCatchesBrokenCaches(t *testing.T) {
	for _, tc := range []struct {
		name  string
		open  func() tune.Cache
		fails string // the check that must fail; "" none
	}{
		{"correct", func() tune.Cache { return newMapCache() }, ""},
		{"Range in map order", func() tune.Cache { c := newMapCache(); c.unordered = true; return c }, "RangeOrder"},
		{"Range ignores a stop", func() tune.Cache { c := newMapCache(); c.ignoreStop = true; return c }, "RangeStop"},
		{"Range calls f under its lock", func() tune.Cache { c := newMapCache(); c.lockedRange = true; return c }, "RangeCallsCache"},
		{"Delete does nothing", func() tune.Cache { c := newMapCache(); c.dropDelete = true; return c }, "Delete"},
		{"a store racing another is lost", func() tune.Cache { c := newMapCache(); c.racyStore = true; return c }, "Concurrent"},
		{"key parts joined with |", func() tune.Cache { c := newMapCache(); c.joinKey = true; return c }, "KeysApart"},
		{"Created kept to the second", func() tune.Cache { c := newMapCache(); c.truncateTime = true; return c }, "RoundTrip"},
		{"LoadContext makes up an entry", func() tune.Cache {
			return ctxMapCache{newMapCache(), func(ctx context.Context, c *mapCache, k tune.CacheKey) (tune.Entry, bool) {
				if ctx.Err() != nil {
					return tune.Entry{Ranking: []string{"made-up"}, Timing: tune.TimingGPU}, true
				}
				return c.Load(k)
			}}
		}, "Context"},
		{"LoadContext waits past its context", func() tune.Cache {
			return ctxMapCache{newMapCache(), func(ctx context.Context, c *mapCache, k tune.CacheKey) (tune.Entry, bool) {
				if ctx.Err() != nil {
					time.Sleep(brokenWait)
				}
				return c.Load(k)
			}}
		}, "Context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed := map[string]error{}
			for _, c := range cacheChecks() {
				cache := tc.open()
				if err := runCheck(c, cache, func(c tune.Cache) error { return c.Close() }); err != nil {
					failed[c.name] = err
				}
			}
			assertFailed(t, failed, tc.fails)
		})
	}
}

// assertFailed checks that failed (check → error) holds want, or is empty
// for want "".
func assertFailed(t *testing.T, failed map[string]error, want string) {
	t.Helper()
	names := slices.Sorted(maps.Keys(failed))
	for _, n := range names {
		t.Logf("%s: %v", n, failed[n])
	}
	switch {
	case want == "" && len(failed) > 0:
		t.Errorf("checks %s failed a correct implementation", strings.Join(names, ", "))
	case want != "" && failed[want] == nil:
		t.Errorf("check %s passed; it failed %v", want, names)
	}
}

// kernelMap is a KernelStore in a map whose methods the broken variants
// replace one at a time.
type kernelMap struct {
	mu sync.Mutex
	m  map[[32]byte][]byte

	aliasLoad    bool // LoadKernel returns the stored slice
	aliasStore   bool // StoreKernel keeps the caller's slice
	emptyMiss    bool // an empty entry is not kept
	truncate     int  // entries cut to this many bytes; 0 none
	racyStore    bool // StoreKernel copies the map, changes the copy, puts it back
	ignoreCtx    bool // a done context makes a load wait
	firstKeyByte bool // keys told apart by their first byte only
}

func newKernelMap() *kernelMap { return &kernelMap{m: map[[32]byte][]byte{}} }

func (s *kernelMap) key(k [32]byte) [32]byte {
	if s.firstKeyByte {
		return [32]byte{k[0]}
	}
	return k
}

func (s *kernelMap) LoadKernel(ctx context.Context, k [32]byte) ([]byte, bool) {
	if ctx.Err() != nil {
		if !s.ignoreCtx {
			return nil, false
		}
		time.Sleep(brokenWait)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[s.key(k)]
	if !ok || s.aliasLoad {
		return e, ok
	}
	return slices.Clone(e), true
}

func (s *kernelMap) StoreKernel(ctx context.Context, k [32]byte, e []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.emptyMiss && len(e) == 0 {
		return nil
	}
	if s.truncate > 0 && len(e) > s.truncate {
		e = e[:s.truncate]
	}
	if !s.aliasStore {
		e = append([]byte{}, e...)
	}
	if s.racyStore {
		s.mu.Lock()
		m := maps.Clone(s.m)
		s.mu.Unlock()
		runtime.Gosched()
		m[s.key(k)] = e
		s.mu.Lock()
		s.m = m
		s.mu.Unlock()
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[s.key(k)] = e
	return nil
}

// TestSuiteCatchesBrokenKernelStores: each broken kernel store fails the
// check of the rule it breaks; the correct one, and wgpu's memory store,
// pass every check.
func TestSuiteCatchesBrokenKernelStores(t *testing.T) {
	for _, tc := range []struct {
		name  string
		open  func() KernelStore
		fails string
	}{
		{"correct", func() KernelStore { return newKernelMap() }, ""},
		{"wgpu memory store", func() KernelStore { return wgpu.NewMemoryKernelStore() }, ""},
		{"LoadKernel returns the stored bytes", func() KernelStore { s := newKernelMap(); s.aliasLoad = true; return s }, "Copies"},
		{"StoreKernel keeps the caller's bytes", func() KernelStore { s := newKernelMap(); s.aliasStore = true; return s }, "Copies"},
		{"an empty entry is a miss", func() KernelStore { s := newKernelMap(); s.emptyMiss = true; return s }, "EmptyEntry"},
		{"entries cut at 64 KiB", func() KernelStore { s := newKernelMap(); s.truncate = 64 << 10; return s }, "LargeEntry"},
		{"a store racing another is lost", func() KernelStore { s := newKernelMap(); s.racyStore = true; return s }, "Concurrent"},
		{"a done context makes a load wait", func() KernelStore { s := newKernelMap(); s.ignoreCtx = true; return s }, "DoneContext"},
		{"keys told apart by one byte", func() KernelStore { s := newKernelMap(); s.firstKeyByte = true; return s }, "KeysApart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed := map[string]error{}
			for _, c := range kernelChecks() {
				if err := runCheck(c, tc.open(), nil); err != nil {
					failed[c.name] = err
				}
			}
			assertFailed(t, failed, tc.fails)
		})
	}
}
