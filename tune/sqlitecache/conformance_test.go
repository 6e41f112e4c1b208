//go:build !js

package sqlitecache_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/cachetest"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// openFresh opens a new cache file in the test's directory.
func openFresh(t *testing.T) *sqlitecache.Cache {
	t.Helper()
	c, err := sqlitecache.Open(filepath.Join(t.TempDir(), "tune.db"))
	require.NoError(t, err)
	return c
}

// openShipped opens, read-only, an empty cache file without write
// permission, as an image ships one.
func openShipped(t *testing.T) *sqlitecache.Cache {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tune.db")
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	require.NoError(t, os.Chmod(path, 0o444))
	c, err = sqlitecache.Open(path, sqlitecache.WithLogger(quiet()))
	require.NoError(t, err)
	require.True(t, c.ReadOnly())
	return c
}

func TestConformance(t *testing.T) {
	t.Run("writable", func(t *testing.T) {
		cachetest.Run(t, func(t *testing.T) tune.Cache { return openFresh(t) })
	})
	t.Run("read-only", func(t *testing.T) {
		cachetest.Run(t, func(t *testing.T) tune.Cache { return openShipped(t) })
	})
}

func TestKernelConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(*testing.T) *sqlitecache.Cache
	}{{"writable", openFresh}, {"read-only", openShipped}} {
		t.Run(tc.name, func(t *testing.T) {
			cachetest.RunKernels(t, func(t *testing.T) cachetest.KernelStore {
				c := tc.open(t)
				t.Cleanup(func() { c.Close() })
				return c
			})
		})
	}
}
