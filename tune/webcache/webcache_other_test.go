//go:build !(js && wasm)

package webcache_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/tune/webcache"
)

func TestOpenOutsideBrowser(t *testing.T) {
	c, err := webcache.Open("")
	if c != nil || !errors.Is(err, webcache.ErrUnsupported) || !strings.Contains(err.Error(), "tune/sqlitecache") {
		t.Fatalf("Open = %v, %v; want ErrUnsupported naming tune/sqlitecache", c, err)
	}
}
