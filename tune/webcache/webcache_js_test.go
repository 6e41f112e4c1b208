//go:build js && wasm

package webcache_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/webcache"
)

func entry(names ...string) tune.Entry {
	return tune.Entry{Ranking: names, Timing: tune.TimingGPU, Created: time.Unix(1700000000, 0).UTC()}
}

// open opens a cache under a prefix of the test's own and removes the
// prefix's items when the test ends.
func open(t *testing.T, prefix string, opts ...webcache.Option) *webcache.Cache {
	t.Helper()
	c, err := webcache.Open(prefix, opts...)
	if err != nil {
		t.Fatalf("Open(%q) = %v", prefix, err)
	}
	t.Cleanup(func() { clearPrefix(prefix) })
	return c
}

func clearPrefix(prefix string) {
	ls := js.Global().Get("localStorage")
	for i := ls.Get("length").Int() - 1; i >= 0; i-- {
		if k := ls.Call("key", i).String(); strings.HasPrefix(k, prefix) {
			ls.Call("removeItem", k)
		}
	}
}

func collect(t *testing.T, c *webcache.Cache) []tune.CacheKey {
	t.Helper()
	var keys []tune.CacheKey
	if err := c.Range(func(k tune.CacheKey, _ tune.Entry) bool { keys = append(keys, k); return true }); err != nil {
		t.Fatalf("Range = %v", err)
	}
	return keys
}

func TestStoreLoadDeleteRange(t *testing.T) {
	c := open(t, "test-basic/")
	k1 := tune.CacheKey{Device: "swiftshader", Key: "matmul/64", Candidates: "c1"}
	k2 := tune.CacheKey{Device: "swiftshader", Key: "add/\xff\x00", Candidates: "c2"}
	k0 := tune.CacheKey{Device: "a", Key: "z", Candidates: "c3"}
	if _, ok := c.Load(k1); ok {
		t.Fatal("Load on an empty cache hit")
	}
	for k, e := range map[tune.CacheKey]tune.Entry{k1: entry("tiled", "naive"), k2: entry("\xfe"), k0: entry("x")} {
		if err := c.Store(k, e); err != nil {
			t.Fatalf("Store(%v) = %v", k, err)
		}
	}
	e, ok := c.Load(k2)
	if !ok || len(e.Ranking) != 1 || e.Ranking[0] != "\xfe" || !e.Created.Equal(entry().Created) || e.Timing != tune.TimingGPU {
		t.Fatalf("Load(k2) = %+v, %v; want the entry stored, byte for byte", e, ok)
	}
	if err := c.Store(k1, entry("naive", "tiled")); err != nil {
		t.Fatal(err)
	}
	if e, _ := c.Load(k1); e.Ranking[0] != "naive" {
		t.Fatalf("Load after a second Store = %v, want the newer entry", e.Ranking)
	}
	if got := collect(t, c); len(got) != 3 || got[0] != k0 || got[1] != k2 || got[2] != k1 {
		t.Fatalf("Range keys = %q, want %q in key order", got, []tune.CacheKey{k0, k2, k1})
	}
	if err := c.Delete(k2); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Load(k2); ok {
		t.Fatal("Load after Delete hit")
	}
	if got := collect(t, c); len(got) != 2 {
		t.Fatalf("Range after Delete = %q, want 2 keys", got)
	}
}

// TestReopen: a second Open of the prefix — what the next load of the page
// does — sees the winners, which are in the browser's storage itself; a
// cache under another prefix sees none of them.
func TestReopen(t *testing.T) {
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	c := open(t, "test-reopen/")
	if err := c.Store(k, entry("best", "second")); err != nil {
		t.Fatal(err)
	}
	c.Close()
	raw := js.Global().Get("localStorage").Call("getItem", webcache.StorageKey("test-reopen/", k))
	if raw.Type() != js.TypeString || !strings.Contains(raw.String(), `"best"`) {
		t.Fatalf("localStorage holds %v under the entry's key, want its JSON", raw)
	}
	again := open(t, "test-reopen/")
	if e, ok := again.Load(k); !ok || e.Ranking[0] != "best" {
		t.Fatalf("Load after reopening = %v, %v; want the winner stored before", e.Ranking, ok)
	}
	other := open(t, "test-reopen-other/")
	if _, ok := other.Load(k); ok {
		t.Fatal("a cache under another prefix saw the entry")
	}
	if got := collect(t, other); len(got) != 0 {
		t.Fatalf("Range under another prefix = %q, want none", got)
	}
	def := open(t, "")
	if _, ok := def.Load(k); ok {
		t.Fatal("the default prefix saw the entry")
	}
}

// TestCorruptItems: an item that does not decode is logged and a miss,
// Range skips it, and a Store replaces it; another version's item is a
// miss without a word.
func TestCorruptItems(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	c := open(t, "test-corrupt/", webcache.WithLogger(log))
	ls := js.Global().Get("localStorage")
	bad := tune.CacheKey{Device: "d", Key: "bad", Candidates: "c"}
	empty := tune.CacheKey{Device: "d", Key: "empty", Candidates: "c"}
	good := tune.CacheKey{Device: "d", Key: "good", Candidates: "c"}
	ls.Call("setItem", webcache.StorageKey("test-corrupt/", bad), `{"ranking": [`)
	ls.Call("setItem", webcache.StorageKey("test-corrupt/", empty), `{"ranking":[],"timing":"gpu"}`)
	ls.Call("setItem", "test-corrupt/v1:not-a-key", `{}`)
	ls.Call("setItem", "test-corrupt/v0:ZA:Z29vZA:Yw", `{"ranking":["old"],"timing":"gpu"}`)
	if err := c.Store(good, entry("w")); err != nil {
		t.Fatal(err)
	}
	for _, k := range []tune.CacheKey{bad, empty} {
		if e, ok := c.Load(k); ok {
			t.Errorf("Load(%v) of a corrupt item = %v, want a miss", k, e)
		}
	}
	if got := collect(t, c); len(got) != 1 || got[0] != good {
		t.Errorf("Range = %q, want only %v", got, good)
	}
	for _, want := range []string{"cache entry ignored", "key=", "not-a-key"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log %q lacks %q", logs.String(), want)
		}
	}
	if err := c.Store(bad, entry("fixed")); err != nil {
		t.Fatal(err)
	}
	if e, ok := c.Load(bad); !ok || e.Ranking[0] != "fixed" {
		t.Errorf("Load after a Store over the corrupt item = %v, %v", e.Ranking, ok)
	}
}

// TestFullStorage fills localStorage to its quota: Store is then an error
// naming it, not a panic, and the cache works again once there is room.
func TestFullStorage(t *testing.T) {
	c := open(t, "test-full/")
	// Fill from JavaScript, in 1 MB then ever smaller items, to be fast.
	fill := js.Global().Call("eval", `(() => {
		let n = 0, size = 1 << 20;
		const chunk = (s) => "x".repeat(s);
		while (size >= 16) {
			try { localStorage.setItem("test-full/junk" + n, chunk(size)); n++; }
			catch (e) { if (e.name !== "QuotaExceededError") throw e; size >>= 1; }
		}
		return n;
	})()`)
	if fill.Int() == 0 {
		t.Fatal("filled nothing")
	}
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	long := make([]string, 50)
	for i := range long {
		long[i] = strings.Repeat("n", 20) + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	err := c.Store(k, entry(long...))
	if err == nil || !strings.Contains(err.Error(), "QuotaExceededError") {
		t.Fatalf("Store into a full localStorage = %v, want a QuotaExceededError", err)
	}
	if _, ok := c.Load(k); ok {
		t.Fatal("Load after a refused Store hit")
	}
	clearPrefix("test-full/junk")
	if err := c.Store(k, entry(long...)); err != nil {
		t.Fatalf("Store once there is room = %v", err)
	}
}

// TestNoStorage: an environment without localStorage, or one that refuses
// access, is an Open error; a storage whose calls throw makes every call
// an error or a miss.
func TestNoStorage(t *testing.T) {
	if c, err := webcache.OpenStorage("p/", js.Null()); !errors.Is(err, webcache.ErrUnsupported) {
		t.Errorf("OpenStorage(null) = %v, %v; want ErrUnsupported", c, err)
	}
	throwing := js.Global().Call("eval", `({
		getItem() { throw new DOMException("storage is off", "SecurityError"); },
		setItem() { throw new DOMException("storage is off", "SecurityError"); },
		removeItem() { throw new DOMException("storage is off", "SecurityError"); },
		key() { throw new DOMException("storage is off", "SecurityError"); },
		get length() { throw new DOMException("storage is off", "SecurityError"); },
	})`)
	var logs bytes.Buffer
	c, err := webcache.OpenStorage("p/", throwing, webcache.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	if _, ok := c.Load(k); ok || !strings.Contains(logs.String(), "SecurityError") {
		t.Errorf("Load from a throwing storage: hit %v, log %q; want a logged miss", ok, logs.String())
	}
	for name, err := range map[string]error{
		"Store":  c.Store(k, entry("w")),
		"Delete": c.Delete(k),
		"Range":  c.Range(func(tune.CacheKey, tune.Entry) bool { return true }),
	} {
		if err == nil || !strings.Contains(err.Error(), "SecurityError: storage is off") {
			t.Errorf("%s on a throwing storage = %v, want the SecurityError", name, err)
		}
	}
}
