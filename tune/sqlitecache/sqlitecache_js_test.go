//go:build js

package sqlitecache_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/tune/sqlitecache"
)

func TestOpenUnsupported(t *testing.T) {
	c, err := sqlitecache.Open(t.TempDir() + "/tune.db")
	if c != nil || !errors.Is(err, sqlitecache.ErrUnsupported) || !strings.Contains(err.Error(), "tune/webcache") {
		t.Fatalf("Open = %v, %v; want ErrUnsupported naming tune/webcache", c, err)
	}
}
