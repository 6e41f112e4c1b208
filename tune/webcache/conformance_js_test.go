//go:build js && wasm

package webcache_test

import (
	"fmt"
	"testing"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/cachetest"
)

// TestConformance: the page's localStorage passes tune/cachetest, each
// check under a prefix of its own.
func TestConformance(t *testing.T) {
	n := 0
	cachetest.Run(t, func(t *testing.T) tune.Cache {
		n++
		return open(t, fmt.Sprintf("test-conformance-%d/", n))
	})
}
