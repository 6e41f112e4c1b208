//go:build !js

package sqlitecache

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/streamgate/streamgate/tune"
)

// readOnly reports whether the cache file at path, which exists, must not
// be written: it or its directory (where SQLite keeps the write-ahead log)
// has no write permission bit — a shipped cache, which is honoured even by
// root — or this process may not write it.
func readOnly(path string) bool {
	return !writable(path) || !writable(filepath.Dir(path))
}

func writable(path string) bool {
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	return info.Mode().Perm()&0o222 != 0 && mayWrite(path, info)
}

// overlay holds a read-only cache's stores and deletes for the process's
// life.
type overlay struct {
	warnOnce sync.Once // the warning of the first store

	mu      sync.Mutex                   // guards m, deleted and kernels
	m       map[tune.CacheKey]tune.Entry // stored here
	deleted map[tune.CacheKey]bool       // deleted here: a file entry is hidden
	kernels map[[32]byte][]byte          // kernel entries stored here
}

func newOverlay() *overlay {
	return &overlay{m: map[tune.CacheKey]tune.Entry{}, deleted: map[tune.CacheKey]bool{}, kernels: map[[32]byte][]byte{}}
}

// loadKernel returns a copy of the kernel entry stored here under key.
func (o *overlay) loadKernel(key [32]byte) ([]byte, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	e, ok := o.kernels[key]
	if !ok {
		return nil, false
	}
	return append([]byte{}, e...), true
}

// storeKernel keeps e, which the overlay now owns, under key.
func (o *overlay) storeKernel(key [32]byte, e []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.kernels[key] = e
}

// kernelKeys returns the keys of the kernel entries stored here.
func (o *overlay) kernelKeys() [][32]byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Collect(maps.Keys(o.kernels))
}

// load returns k's entry if the overlay knows k (stored or deleted here).
func (o *overlay) load(k tune.CacheKey) (e tune.Entry, ok, known bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e, ok := o.m[k]; ok {
		return e, true, true
	}
	return tune.Entry{}, false, o.deleted[k]
}

func (o *overlay) store(k tune.CacheKey, e tune.Entry) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[k] = e
	delete(o.deleted, k)
}

func (o *overlay) delete(k tune.CacheKey) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.m, k)
	o.deleted[k] = true
}

// merge applies the overlay to the file's entries and returns their keys
// in key order.
func (o *overlay) merge(keys []tune.CacheKey, entries map[tune.CacheKey]tune.Entry) []tune.CacheKey {
	o.mu.Lock()
	for k, e := range o.m {
		if _, ok := entries[k]; !ok {
			keys = append(keys, k)
		}
		entries[k] = e
	}
	deleted := maps.Clone(o.deleted)
	o.mu.Unlock()
	keys = slices.DeleteFunc(keys, func(k tune.CacheKey) bool { return deleted[k] })
	slices.SortFunc(keys, tune.CompareKeys)
	return keys
}
