//go:build js && wasm

package webcache

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"syscall/js"

	"github.com/streamgate/streamgate/internal/low/cacheopt"
	"github.com/streamgate/streamgate/tune"
)

// Cache is a [tune.Cache] in the page's localStorage, under one prefix. It
// is safe for concurrent use by multiple goroutines: every call reads or
// writes the storage, and keeps nothing of its own, so two caches with one
// prefix, or two tabs of one origin, see each other's stores. The zero
// value is not usable; use [Open].
type Cache struct {
	storage js.Value     // the page's localStorage: written once
	prefix  string       // written once
	log     *slog.Logger // written once
}

var _ tune.Cache = (*Cache)(nil)

// Open returns the cache of the entries under prefix in the page's
// localStorage (an empty prefix is [DefaultPrefix]). It fails, wrapping
// [ErrUnsupported], where the environment has no localStorage or refuses
// access to it.
func Open(prefix string, opts ...Option) (*Cache, error) {
	return open(prefix, js.Undefined(), opts)
}

func open(prefix string, storage js.Value, opts []Option) (c *Cache, err error) {
	cfg := cacheopt.Of(opts)
	if prefix == "" {
		prefix = DefaultPrefix
	}
	if storage.IsUndefined() {
		defer catch(&err, func(e error) error {
			return fmt.Errorf("%w: reading localStorage: %v", ErrUnsupported, e)
		})
		storage = get(js.Global(), "localStorage")
	}
	if storage.IsUndefined() || storage.IsNull() {
		return nil, fmt.Errorf("%w: this JavaScript environment has no localStorage (a worker, or not a browser)", ErrUnsupported)
	}
	return &Cache{storage: storage, prefix: prefix, log: cfg.Log}, nil
}

// get reads v[name] through Reflect.get: syscall/js's Value.Get does not
// catch what a getter throws (window.localStorage throws SecurityError in an
// origin that may not store), and the exception would end the program;
// through a call it is a panic that catch turns into an error.
func get(v js.Value, name string) js.Value {
	return js.Global().Get("Reflect").Call("get", v, name)
}

// catch turns a JavaScript exception that a syscall/js call threw (a
// panic with a js.Error) into *err, through wrap; any other panic goes on.
func catch(err *error, wrap func(error) error) {
	r := recover()
	if r == nil {
		return
	}
	je, ok := r.(js.Error)
	if !ok {
		panic(r)
	}
	*err = wrap(jsError(je))
}

// jsError is a JavaScript exception as an error: its name (such as
// QuotaExceededError) and message.
func jsError(je js.Error) error {
	v := je.Value
	if v.Type() == js.TypeObject {
		name, msg := v.Get("name"), v.Get("message")
		if name.Type() == js.TypeString && msg.Type() == js.TypeString {
			return fmt.Errorf("%s: %s", name.String(), msg.String())
		}
	}
	return errors.New(je.Error())
}

// getItem returns the item under raw; ok is false when there is none.
func (c *Cache) getItem(raw string) (v string, ok bool, err error) {
	defer catch(&err, func(e error) error { return e })
	r := c.storage.Call("getItem", raw)
	if r.IsNull() || r.IsUndefined() {
		return "", false, nil
	}
	return r.String(), true, nil
}

// Load returns the entry under k; an item that does not decode is logged
// and a miss.
func (c *Cache) Load(k tune.CacheKey) (tune.Entry, bool) {
	v, ok, err := c.getItem(storageKey(c.prefix, k))
	if err != nil {
		c.log.Warn("tune: cache load failed", "key", k.String(), "err", err)
		return tune.Entry{}, false
	}
	if !ok {
		return tune.Entry{}, false
	}
	var e tune.Entry
	if err := json.Unmarshal([]byte(v), &e); err != nil {
		c.log.Warn("tune: cache entry ignored", "key", k.String(), "err", err)
		return tune.Entry{}, false
	}
	return e, true
}

// Store saves e under k. A storage that refuses the item (full, or
// storage turned off) is an error naming why.
func (c *Cache) Store(k tune.CacheKey, e tune.Entry) (err error) {
	value, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("tune: cache store: %w", err)
	}
	defer catch(&err, func(e error) error {
		return fmt.Errorf("tune: cache store of %s in localStorage: %w", k.String(), e)
	})
	c.storage.Call("setItem", storageKey(c.prefix, k), string(value))
	return nil
}

// Delete forgets k.
func (c *Cache) Delete(k tune.CacheKey) (err error) {
	defer catch(&err, func(e error) error {
		return fmt.Errorf("tune: cache delete of %s in localStorage: %w", k.String(), e)
	})
	c.storage.Call("removeItem", storageKey(c.prefix, k))
	return nil
}

// Range calls f for each entry under the prefix, in key order ([tune.CompareKeys]).
// It reads every item first, so f may use the cache; items that do not
// decode are logged and skipped.
func (c *Cache) Range(f func(tune.CacheKey, tune.Entry) bool) (err error) {
	type kv struct {
		k tune.CacheKey
		e tune.Entry
	}
	var all []kv
	err = func() (err error) {
		defer catch(&err, func(e error) error { return fmt.Errorf("tune: cache range over localStorage: %w", e) })
		n := get(c.storage, "length").Int()
		vp := versionPrefix(c.prefix)
		for i := 0; i < n; i++ {
			rk := c.storage.Call("key", i)
			if rk.Type() != js.TypeString {
				continue
			}
			raw := rk.String()
			if len(raw) < len(vp) || raw[:len(vp)] != vp {
				continue
			}
			k, ok := parseKey(c.prefix, raw)
			if !ok {
				c.log.Warn("tune: cache item ignored: its key names no entry", "item", raw)
				continue
			}
			v := c.storage.Call("getItem", raw)
			if v.Type() != js.TypeString {
				continue // removed meanwhile
			}
			var e tune.Entry
			if err := json.Unmarshal([]byte(v.String()), &e); err != nil {
				c.log.Warn("tune: cache entry ignored", "key", k.String(), "err", err)
				continue
			}
			all = append(all, kv{k, e})
		}
		return nil
	}()
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b kv) int { return tune.CompareKeys(a.k, b.k) })
	for _, r := range all {
		if !f(r.k, r.e) {
			break
		}
	}
	return nil
}

// Close does nothing: the entries stay in the storage.
func (c *Cache) Close() error { return nil }
