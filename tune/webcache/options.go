package webcache

import (
	"errors"
	"log/slog"

	"github.com/streamgate/streamgate/internal/low/cacheopt"
)

// DefaultPrefix starts the storage key of every entry of a cache opened
// with an empty prefix.
const DefaultPrefix = "streamgate/tune/"

// Version is the format version in the storage keys. Changing it makes
// every earlier entry a miss.
const Version = 1

// ErrUnsupported is wrapped by the error of [Open] where there is no
// browser storage: outside GOOS=js GOARCH=wasm, or in a JavaScript
// environment without localStorage (a worker, Node.js, a page whose origin
// may not store).
var ErrUnsupported = errors.New("webcache: no browser storage")

// An Option configures [Open].
type Option = cacheopt.Option

// WithLogger sends the cache's warnings (an item that does not decode) to
// l. By default they go to slog.Default(), warnings and above.
func WithLogger(l *slog.Logger) Option { return cacheopt.WithLogger(l) }
