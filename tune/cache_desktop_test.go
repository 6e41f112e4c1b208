//go:build !js

package tune_test

import (
	"testing"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// openCache opens the persistent cache of the platform at path: an SQLite
// file here, the page's localStorage under js (cache_js_test.go).
func openCache(t *testing.T, path string) (tune.Cache, error) {
	t.Helper()
	return sqlitecache.Open(path)
}
