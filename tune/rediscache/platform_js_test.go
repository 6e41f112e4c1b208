//go:build js

package rediscache_test

import (
	"errors"
	"testing"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

func TestOpenUnsupported(t *testing.T) {
	c, err := rediscache.Open("redis://127.0.0.1:6379/0", tune.NewMemoryCache())
	if c != nil || !errors.Is(err, rediscache.ErrUnsupported) {
		t.Fatalf("Open = %v, %v; want ErrUnsupported", c, err)
	}
}
