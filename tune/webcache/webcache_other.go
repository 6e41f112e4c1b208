//go:build !(js && wasm)

package webcache

import (
	"fmt"

	"github.com/streamgate/streamgate/tune"
)

// Cache is a [tune.Cache] in the browser's localStorage. Outside GOOS=js
// GOARCH=wasm [Open] never returns one, and its methods are never reached.
type Cache struct{}

// Open fails outside GOOS=js GOARCH=wasm, with an error that wraps
// [ErrUnsupported]: the desktop's cache is tune/sqlitecache.
func Open(prefix string, opts ...Option) (*Cache, error) {
	return nil, fmt.Errorf("%w: localStorage exists only in a GOOS=js GOARCH=wasm build run in a browser; on the desktop use tune/sqlitecache", ErrUnsupported)
}

// Load finds nothing: see [Open].
func (c *Cache) Load(tune.CacheKey) (tune.Entry, bool) { return tune.Entry{}, false }

// Store fails: see [Open].
func (c *Cache) Store(tune.CacheKey, tune.Entry) error { return ErrUnsupported }

// Delete fails: see [Open].
func (c *Cache) Delete(tune.CacheKey) error { return ErrUnsupported }

// Range fails: see [Open].
func (c *Cache) Range(func(tune.CacheKey, tune.Entry) bool) error { return ErrUnsupported }

// Close does nothing: see [Open].
func (c *Cache) Close() error { return nil }
