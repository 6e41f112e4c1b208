package sqlitecache

import (
	"errors"
	"log/slog"

	"github.com/streamgate/streamgate/internal/low/cacheopt"
)

// Version is the format version of the cache file. Version 3 adds the
// kernels table beside the tune entries; a version-2 file is upgraded in
// place and keeps its entries (a read-only one is read as it is, its kernels
// kept in memory). Version 2 keys entries by (device, key, candidates)
// apart; version 1 joined them with "|", and its entries are dropped.
const Version = 3

// ErrNotCache is returned by [Open] for a file that is not a streamgate
// tune cache; the file is left untouched.
var ErrNotCache = errors.New("not a streamgate tune cache")

// An Option configures [Open].
type Option = cacheopt.Option

// WithLogger sends the cache's warnings (an entry that does not decode, a
// version-1 file upgraded (its entries dropped), a read-only file's first store) to l. By default
// they go to slog.Default(), warnings and above.
func WithLogger(l *slog.Logger) Option { return cacheopt.WithLogger(l) }
