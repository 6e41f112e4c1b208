//go:build js

package sqlitecache

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamgate/streamgate/tune"
)

// ErrUnsupported is wrapped by the error of [Open] in a GOOS=js build:
// modernc.org/sqlite, the pure-Go SQLite, has no js port (its libc has no
// js files), and a browser page has no files to share anyway.
var ErrUnsupported = errors.New("sqlitecache: SQLite is desktop-only: it does not build for GOOS=js; in a browser use tune/webcache (the page's localStorage) or tune.NewMemoryCache")

// Cache is the SQLite cache of desktop builds. In a GOOS=js build [Open]
// never returns one, and its methods are never reached.
type Cache struct{}

// Open fails in a GOOS=js build with an error that wraps [ErrUnsupported].
func Open(path string, opts ...Option) (*Cache, error) {
	return nil, fmt.Errorf("open tune cache %s: %w", path, ErrUnsupported)
}

// ReadOnly reports false: see [Open].
func (c *Cache) ReadOnly() bool { return false }

// Load finds nothing: see [Open].
func (c *Cache) Load(tune.CacheKey) (tune.Entry, bool) { return tune.Entry{}, false }

// Store fails with [ErrUnsupported]: see [Open].
func (c *Cache) Store(tune.CacheKey, tune.Entry) error { return ErrUnsupported }

// Delete fails with [ErrUnsupported]: see [Open].
func (c *Cache) Delete(tune.CacheKey) error { return ErrUnsupported }

// Range fails with [ErrUnsupported]: see [Open].
func (c *Cache) Range(func(tune.CacheKey, tune.Entry) bool) error { return ErrUnsupported }

// LoadKernel finds nothing: see [Open].
func (c *Cache) LoadKernel(context.Context, [32]byte) ([]byte, bool) { return nil, false }

// StoreKernel fails with [ErrUnsupported]: see [Open].
func (c *Cache) StoreKernel(context.Context, [32]byte, []byte) error { return ErrUnsupported }

// RangeKernels fails with [ErrUnsupported]: see [Open].
func (c *Cache) RangeKernels(func([32]byte, []byte) bool) error { return ErrUnsupported }

// Close does nothing: see [Open].
func (c *Cache) Close() error { return nil }
