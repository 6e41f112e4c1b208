//go:build js

package tune_test

import (
	"strings"
	"syscall/js"
	"testing"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/webcache"
)

// openCache opens the persistent cache of the platform at path: under js,
// the page's localStorage with path as the prefix, emptied when the test
// ends; an SQLite file on the desktop (cache_desktop_test.go).
func openCache(t *testing.T, path string) (tune.Cache, error) {
	t.Helper()
	prefix := path + "/"
	t.Cleanup(func() {
		ls := js.Global().Get("localStorage")
		for i := ls.Get("length").Int() - 1; i >= 0; i-- {
			if k := ls.Call("key", i).String(); strings.HasPrefix(k, prefix) {
				ls.Call("removeItem", k)
			}
		}
	})
	return webcache.Open(prefix)
}
