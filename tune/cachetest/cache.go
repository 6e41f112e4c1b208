package cachetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/tune"
)

// cacheChecks are the checks of a tune.Cache, in the order Run runs them.
func cacheChecks() []check[tune.Cache] {
	return []check[tune.Cache]{
		{"LoadMiss", checkLoadMiss},
		{"RoundTrip", checkRoundTrip},
		{"Replace", checkReplace},
		{"Delete", checkDelete},
		{"KeysApart", checkKeysApart},
		{"LargeEntry", checkLargeEntry},
		{"RangeOrder", checkRangeOrder},
		{"RangeStop", checkRangeStop},
		{"RangeCallsCache", checkRangeCallsCache},
		{"Concurrent", checkConcurrent},
		{"Context", checkContext},
	}
}

// created is a time with nanoseconds, in a zone other than UTC.
var created = time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.FixedZone("UTC+5:30", 5*3600+1800))

func entry(names ...string) tune.Entry {
	return tune.Entry{Ranking: names, Timing: tune.TimingGPU, Created: created}
}

func key(device, k, cands string) tune.CacheKey {
	return tune.CacheKey{Device: device, Key: k, Candidates: cands}
}

// sameEntry reports whether got is want: the same ranking, timing and
// instant (a cache may keep the instant in another zone).
func sameEntry(got, want tune.Entry) bool {
	return slices.Equal(got.Ranking, want.Ranking) && got.Timing == want.Timing && got.Created.Equal(want.Created)
}

func fmtEntry(e tune.Entry) string {
	const most = 4
	r := fmt.Sprintf("%q", e.Ranking)
	if len(e.Ranking) > most {
		r = fmt.Sprintf("%q… (%d names)", e.Ranking[:most], len(e.Ranking))
	}
	return fmt.Sprintf("{Ranking: %s, Timing: %v, Created: %s}", r, e.Timing, e.Created.Format(time.RFC3339Nano))
}

// wantLoad checks that c holds want under k.
func wantLoad(c tune.Cache, k tune.CacheKey, want tune.Entry) error {
	got, ok := c.Load(k)
	if !ok {
		return fmt.Errorf("Load(%s) missed, want %s", fmtKey(k), fmtEntry(want))
	}
	if !sameEntry(got, want) {
		return fmt.Errorf("Load(%s) = %s, want %s", fmtKey(k), fmtEntry(got), fmtEntry(want))
	}
	return nil
}

// wantMiss checks that c holds nothing under k.
func wantMiss(c tune.Cache, k tune.CacheKey) error {
	if got, ok := c.Load(k); ok {
		return fmt.Errorf("Load(%s) = %s, want a miss", fmtKey(k), fmtEntry(got))
	}
	return nil
}

// store stores each key's entry in c.
func store(c tune.Cache, keys []tune.CacheKey, entries []tune.Entry) error {
	for i, k := range keys {
		if err := c.Store(k, entries[i]); err != nil {
			return fmt.Errorf("Store(%s) = %v", fmtKey(k), err)
		}
	}
	return nil
}

// listed returns what Range lists, in its order.
func listed(c tune.Cache) ([]tune.CacheKey, []tune.Entry, error) {
	var keys []tune.CacheKey
	var entries []tune.Entry
	err := c.Range(func(k tune.CacheKey, e tune.Entry) bool {
		keys = append(keys, k)
		entries = append(entries, e)
		return true
	})
	if err != nil {
		return nil, nil, fmt.Errorf("cache.Range = %v", err)
	}
	return keys, entries, nil
}

// wantListed checks that Range lists exactly keys, in key order, with
// their entries.
func wantListed(c tune.Cache, keys []tune.CacheKey, entries []tune.Entry) error {
	want := make(map[tune.CacheKey]tune.Entry, len(keys))
	for i, k := range keys {
		want[k] = entries[i]
	}
	sorted := slices.Clone(keys)
	slices.SortFunc(sorted, tune.CompareKeys)
	got, gotEntries, err := listed(c)
	if err != nil {
		return err
	}
	if !slices.Equal(got, sorted) {
		return fmt.Errorf("cache.Range listed %d keys %s, want %d %s (in tune.CompareKeys order, each once)", len(got), fmtKeys(got), len(sorted), fmtKeys(sorted))
	}
	for i, k := range got {
		if !sameEntry(gotEntries[i], want[k]) {
			return fmt.Errorf("cache.Range listed %s with %s, want %s", fmtKey(k), fmtEntry(gotEntries[i]), fmtEntry(want[k]))
		}
	}
	return nil
}

// fmtKey is k.String(), its parts cut to 40 bytes.
func fmtKey(k tune.CacheKey) string {
	cut := func(s string) string {
		if len(s) > 40 {
			return fmt.Sprintf("%s…(%d bytes)", s[:40], len(s))
		}
		return s
	}
	return tune.CacheKey{Device: cut(k.Device), Key: cut(k.Key), Candidates: cut(k.Candidates)}.String()
}

func fmtKeys(keys []tune.CacheKey) string {
	const most = 8
	var parts []string
	for i, k := range keys {
		if i == most {
			parts = append(parts, fmt.Sprintf("… %d more", len(keys)-most))
			break
		}
		parts = append(parts, fmtKey(k))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func checkLoadMiss(c tune.Cache) error {
	if err := wantMiss(c, key("dev", "never/stored", "c")); err != nil {
		return err
	}
	if _, _, err := listed(c); err != nil {
		return err
	}
	return nil
}

// checkRoundTrip: every field of an entry comes back: a ranking of one and
// of several names (odd bytes included), both timings, the instant to the
// nanosecond, and the zero time.
func checkRoundTrip(c tune.Cache) error {
	keys := []tune.CacheKey{key("dev", "one", "c"), key("dev", "several", "c"), key("dev", "wall", "c"), key("dev", "zero time", "c")}
	entries := []tune.Entry{
		entry("only"),
		entry("tiled-8", "naive 8x8", "n\xff", "日本", "a|b:c/d", `"quoted"`, "\x00nul"),
		{Ranking: []string{"b", "a"}, Timing: tune.TimingWall, Created: time.Unix(1e9, 1).UTC()},
		{Ranking: []string{"z"}, Timing: tune.TimingGPU},
	}
	if err := store(c, keys, entries); err != nil {
		return err
	}
	for i, k := range keys {
		if err := wantLoad(c, k, entries[i]); err != nil {
			return err
		}
	}
	return wantListed(c, keys, entries)
}

func checkReplace(c tune.Cache) error {
	k, other := key("dev", "k", "c"), key("dev", "other", "c")
	if err := store(c, []tune.CacheKey{k, other}, []tune.Entry{entry("first", "second"), entry("untouched")}); err != nil {
		return err
	}
	newer := tune.Entry{Ranking: []string{"second", "first", "third"}, Timing: tune.TimingWall, Created: created.Add(time.Hour)}
	if err := c.Store(k, newer); err != nil {
		return fmt.Errorf("Store(%s) again = %v", fmtKey(k), err)
	}
	if err := wantLoad(c, k, newer); err != nil {
		return fmt.Errorf("after a second store: %w", err)
	}
	if err := wantLoad(c, other, entry("untouched")); err != nil {
		return err
	}
	return wantListed(c, []tune.CacheKey{k, other}, []tune.Entry{newer, entry("untouched")})
}

func checkDelete(c tune.Cache) error {
	k, other := key("dev", "k", "c"), key("dev", "k", "c2")
	if err := store(c, []tune.CacheKey{k, other}, []tune.Entry{entry("a"), entry("b")}); err != nil {
		return err
	}
	if err := c.Delete(k); err != nil {
		return fmt.Errorf("Delete(%s) = %v", fmtKey(k), err)
	}
	if err := wantMiss(c, k); err != nil {
		return fmt.Errorf("after Delete: %w", err)
	}
	if err := wantLoad(c, other, entry("b")); err != nil {
		return fmt.Errorf("cache.Delete of another key: %w", err)
	}
	if err := c.Delete(key("dev", "never stored", "c")); err != nil {
		return fmt.Errorf("cache.Delete of a key never stored = %v, want nil", err)
	}
	if err := wantListed(c, []tune.CacheKey{other}, []tune.Entry{entry("b")}); err != nil {
		return fmt.Errorf("after Delete: %w", err)
	}
	if err := c.Store(k, entry("again")); err != nil {
		return fmt.Errorf("cache.Store after Delete = %v", err)
	}
	return wantLoad(c, k, entry("again"))
}

// oddKeys are keys whose parts hold separators, length prefixes, empty
// strings, non-ASCII and invalid UTF-8: pairs of them would share an
// entry if the parts were joined.
func oddKeys() []tune.CacheKey {
	return []tune.CacheKey{
		key("", "", ""),
		key("", "", "c"),
		key("", "k", ""),
		key("d", "", ""),
		key("dev|A", "op", "c"),
		key("dev", "A|op", "c"),
		key("dev:", "op", "c"),
		key("dev", ":op", "c"),
		key("1:a", "b", "c"),
		key("1", ":ab", "c"),
		key("a/b", "c", "d"),
		key("a", "b/c", "d"),
		key("gpu\xff", "op", "c"),
		key("gpu\xfe", "op", "c"),
		key("gpu", "op", "c\x00"),
		key("gpu", "op\x00", "c"),
		key("Ünïcödé 日本 🚀", "形/64×64", "ü"),
		key("sp ace", "tab\tnew\nline", `quote" back\slash`),
		key("*", "?", "[a-z]"),
		key("%", "%25", "+"),
		key("base64==", "-_", "/+"),
	}
}

func checkKeysApart(c tune.Cache) error {
	keys := oddKeys()
	entries := make([]tune.Entry, len(keys))
	for i := range keys {
		entries[i] = entry(fmt.Sprintf("winner-%d", i), "runner-up")
	}
	if err := store(c, keys, entries); err != nil {
		return err
	}
	for i, k := range keys {
		if err := wantLoad(c, k, entries[i]); err != nil {
			return err
		}
	}
	return wantListed(c, keys, entries)
}

// checkLargeEntry: a ranking of 1000 long names, under a key with long
// parts.
func checkLargeEntry(c tune.Cache) error {
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("candidate-%04d-%s", i, strings.Repeat("x", 40))
	}
	k := key(strings.Repeat("d", 300), strings.Repeat("k", 1000), strings.Repeat("c", 64))
	e := entry(names...)
	if err := c.Store(k, e); err != nil {
		return fmt.Errorf("cache.Store of a %d-name ranking = %v", len(names), err)
	}
	return wantLoad(c, k, e)
}

// rangeKeys are keys stored in a shuffled order: their key order differs
// from it in every part.
func rangeKeys(n int) []tune.CacheKey {
	keys := make([]tune.CacheKey, 0, n)
	for i := range n {
		keys = append(keys, key(fmt.Sprintf("dev-%d", i%3), fmt.Sprintf("op/%02d", (i*7)%n), fmt.Sprintf("c%d", i%2)))
	}
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	return keys
}

func checkRangeOrder(c tune.Cache) error {
	keys := rangeKeys(30)
	entries := make([]tune.Entry, len(keys))
	for i, k := range keys {
		entries[i] = entry("w-"+k.Key, "r")
	}
	if err := store(c, keys, entries); err != nil {
		return err
	}
	return wantListed(c, keys, entries)
}

func checkRangeStop(c tune.Cache) error {
	keys := rangeKeys(12)
	entries := make([]tune.Entry, len(keys))
	for i := range keys {
		entries[i] = entry("w")
	}
	if err := store(c, keys, entries); err != nil {
		return err
	}
	slices.SortFunc(keys, tune.CompareKeys)
	for _, stop := range []int{1, 3} {
		var got []tune.CacheKey
		if err := c.Range(func(k tune.CacheKey, _ tune.Entry) bool {
			got = append(got, k)
			return len(got) < stop
		}); err != nil {
			return fmt.Errorf("cache.Range = %v", err)
		}
		if !slices.Equal(got, keys[:stop]) {
			return fmt.Errorf("cache.Range whose f returns false at call %d called it for %s, want %s", stop, fmtKeys(got), fmtKeys(keys[:stop]))
		}
	}
	return nil
}

// checkRangeCallsCache: f loads, stores and deletes through the cache
// while Range runs; none of it waits for Range to end.
func checkRangeCallsCache(c tune.Cache) error {
	keys := rangeKeys(6)
	entries := make([]tune.Entry, len(keys))
	for i := range keys {
		entries[i] = entry(fmt.Sprintf("w%d", i))
	}
	if err := store(c, keys, entries); err != nil {
		return err
	}
	want := map[tune.CacheKey]tune.Entry{}
	for i, k := range keys {
		want[k] = entries[i]
	}
	var ferr error
	calls := 0
	err := within(prompt*4, "a Range whose f calls the cache", func() {
		err := c.Range(func(k tune.CacheKey, e tune.Entry) bool {
			calls++
			if err := wantLoad(c, k, want[k]); err != nil {
				ferr = fmt.Errorf("in Range's f: %w", err)
				return false
			}
			side := key("side", k.Key, k.Candidates)
			if err := c.Store(side, e); err != nil {
				ferr = fmt.Errorf("in Range's f: Store(%s) = %v", side, err)
				return false
			}
			if err := c.Delete(side); err != nil {
				ferr = fmt.Errorf("in Range's f: Delete(%s) = %v", side, err)
				return false
			}
			return true
		})
		if err != nil && ferr == nil {
			ferr = fmt.Errorf("cache.Range = %v", err)
		}
	})
	if err != nil {
		return fmt.Errorf("%w: it holds a lock that its f needs?", err)
	}
	if ferr != nil {
		return ferr
	}
	if calls != len(keys) {
		return fmt.Errorf("cache.Range called f %d times, want %d", calls, len(keys))
	}
	return wantListed(c, keys, entries)
}

// checkConcurrent: goroutines store and load keys of their own, replace a
// key they share and list the cache, all at once. Each reads its own
// stores back; afterwards every key holds its last store, and the shared
// key one of the entries stored under it.
func checkConcurrent(c tune.Cache) error {
	workers, perWorker := 8, 40
	if testing.Short() {
		workers, perWorker = 4, 15
	}
	shared := key("dev", "shared", "c")
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fail := func(err error) { errs[w] = cmpErr(errs[w], err) }
			for i := range perWorker {
				k := key(fmt.Sprintf("worker-%d", w), fmt.Sprintf("op/%d", i), "c")
				e := entry(fmt.Sprintf("w%d-%d", w, i))
				if err := c.Store(k, e); err != nil {
					fail(fmt.Errorf("Store(%s) = %v", fmtKey(k), err))
					return
				}
				if err := wantLoad(c, k, e); err != nil {
					fail(fmt.Errorf("a goroutine's own store: %w", err))
					return
				}
				if err := c.Store(shared, entry(fmt.Sprintf("shared-%d-%d", w, i))); err != nil {
					fail(fmt.Errorf("Store(%s) = %v", shared, err))
					return
				}
				if got, ok := c.Load(shared); !ok || len(got.Ranking) != 1 || !strings.HasPrefix(got.Ranking[0], "shared-") {
					fail(fmt.Errorf("Load(%s) = %s, %v; want an entry some goroutine stored", shared, fmtEntry(got), ok))
					return
				}
				if i%10 == 0 {
					if _, _, err := listed(c); err != nil {
						fail(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var keys []tune.CacheKey
	var entries []tune.Entry
	for w := range workers {
		for i := range perWorker {
			keys = append(keys, key(fmt.Sprintf("worker-%d", w), fmt.Sprintf("op/%d", i), "c"))
			entries = append(entries, entry(fmt.Sprintf("w%d-%d", w, i)))
		}
	}
	lost := 0
	var first error
	for i, k := range keys {
		if err := wantLoad(c, k, entries[i]); err != nil {
			lost++
			first = cmpErr(first, err)
		}
	}
	if lost > 0 {
		return fmt.Errorf("%d of %d stores made by %d goroutines at once lost, e.g. %w", lost, len(keys), workers, first)
	}
	got, ok := c.Load(shared)
	if !ok || len(got.Ranking) != 1 || !strings.HasPrefix(got.Ranking[0], "shared-") {
		return fmt.Errorf("Load(%s) = %s, %v; want an entry some goroutine stored", shared, fmtEntry(got), ok)
	}
	keys = append(keys, shared)
	entries = append(entries, got)
	return wantListed(c, keys, entries)
}

// cmpErr keeps the first error.
func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// checkContext: a ContextCache's LoadContext and StoreContext work with a
// live context, and return promptly with one that is done: a load misses
// or returns what was stored, never anything else; a store either fails
// with the context's error or is stored. A Cache that is not a
// ContextCache passes.
func checkContext(c tune.Cache) error {
	cc, ok := c.(tune.ContextCache)
	if !ok {
		return nil
	}
	ctx := context.Background()
	k, fresh := key("dev", "ctx", "c"), key("dev", "ctx-fresh", "c")
	if err := cc.StoreContext(ctx, k, entry("live")); err != nil {
		return fmt.Errorf("StoreContext = %v", err)
	}
	if got, ok := cc.LoadContext(ctx, k); !ok || !sameEntry(got, entry("live")) {
		return fmt.Errorf("LoadContext(%s) = %s, %v; want %s", fmtKey(k), fmtEntry(got), ok, fmtEntry(entry("live")))
	}
	done := cancelled()
	var got tune.Entry
	var hit bool
	if err := within(prompt, "LoadContext with a done context", func() { got, hit = cc.LoadContext(done, k) }); err != nil {
		return err
	}
	if hit && !sameEntry(got, entry("live")) {
		return fmt.Errorf("LoadContext(done, %s) = %s, want a miss or %s", fmtKey(k), fmtEntry(got), fmtEntry(entry("live")))
	}
	if err := within(prompt, "LoadContext with a done context", func() { got, hit = cc.LoadContext(done, fresh) }); err != nil {
		return err
	}
	if hit {
		return fmt.Errorf("LoadContext(done, %s) = %s, want a miss: nothing was stored", fresh, fmtEntry(got))
	}
	var serr error
	if err := within(prompt, "StoreContext with a done context", func() { serr = cc.StoreContext(done, k, entry("dead")) }); err != nil {
		return err
	}
	switch got, ok := c.Load(k); {
	case serr == nil && (!ok || !sameEntry(got, entry("dead"))):
		return fmt.Errorf("StoreContext(done) = nil, then Load = %s, %v; want the entry stored", fmtEntry(got), ok)
	case serr != nil && !errors.Is(serr, context.Canceled):
		return fmt.Errorf("StoreContext(done) = %v, want nil or an error wrapping context.Canceled", serr)
	case serr != nil && (!ok || !(sameEntry(got, entry("live")) || sameEntry(got, entry("dead")))):
		return fmt.Errorf("StoreContext(done) = %v, then Load = %s, %v; want the earlier entry or the new one", serr, fmtEntry(got), ok)
	}
	return nil
}
