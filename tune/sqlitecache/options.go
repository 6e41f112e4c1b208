package sqlitecache

import (
	"errors"
	"log/slog"

	"github.com/streamgate/streamgate/internal/low/cacheopt"
)

// Version is the format version of the cache file. Changing it makes every
// earlier entry a miss. Version 2 keys entries by (device, key, candidates)
// apart; version 1 joined them with "|".
const Version = 2

// ErrNotCache is returned by [Open] for a file that is not a streamgate
// tune cache; the file is left untouched.
var ErrNotCache = errors.New("not a streamgate tune cache")

// An Option configures [Open].
type Option = cacheopt.Option

// WithLogger sends the cache's warnings (an entry that does not decode, a
// version-1 file upgraded, a read-only file's first store) to l. By default
// they go to slog.Default(), warnings and above.
func WithLogger(l *slog.Logger) Option { return cacheopt.WithLogger(l) }
