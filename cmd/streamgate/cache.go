package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"

	"github.com/redis/go-redis/v9"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// cacheURLForm is the form of a -cache-url.
const cacheURLForm = `redis://[[user]:password@]host[:port][/db] or rediss:// (TLS)`

const cacheURLUsage = `a Redis server that shares tune results with a fleet, in front of -cache: ` +
	cacheURLForm + `; "" for none`

// openTuneCache opens the tune cache at path, behind the Redis server at
// url when url is not "". When it cannot open the file (no path, or a file
// it cannot use) it warns and uses an in-memory cache: the demo still
// tunes, it just does not remember. A Redis server that does not answer is
// a warning too; only a malformed url stops it, with an in-memory cache.
func openTuneCache(path string, pathErr error, url string, stdout, stderr io.Writer) tune.Cache {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	var local tune.Cache
	var c *sqlitecache.Cache
	err := pathErr
	if path != "" {
		c, err = sqlitecache.Open(path, sqlitecache.WithLogger(log))
	}
	switch {
	case path == "" && err == nil:
		fmt.Fprintln(stdout, "tune cache: none (in memory only)")
		local = tune.NewMemoryCache()
	case err != nil:
		fmt.Fprintf(stderr, "streamgate warmup: warning: %v; tuning without a persistent cache\n", err)
		fmt.Fprintln(stdout, "tune cache: none (in memory only)")
		local = tune.NewMemoryCache()
	default:
		ro := ""
		if c.ReadOnly() {
			ro = " (read-only: new results kept in memory)"
		}
		fmt.Fprintf(stdout, "tune cache: %s%s\n", path, ro)
		local = c
	}
	if url == "" {
		return local
	}
	rc, err := openShared(url, local, log)
	if err != nil {
		fmt.Fprintf(stderr, "streamgate warmup: warning: %v; tuning without the shared cache\n", err)
		return local
	}
	fmt.Fprintln(stdout, "tune cache: shared through Redis (-cache-url)")
	return rc
}

// openShared opens the Redis cache at rawURL in front of local, its
// warnings to log. It sends go-redis's own log lines (a dial that failed,
// beside the cache's warning) to log at Debug: go-redis's logger is the
// process's, and the command owns the process.
func openShared(rawURL string, local tune.Cache, log *slog.Logger) (*rediscache.Cache, error) {
	redis.SetLogger(redisLogger{log})
	return rediscache.Open(rawURL, local, rediscache.WithLogger(log))
}

// redisLogger is a go-redis logger that writes to a slog logger at Debug.
type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, fmt.Sprintf(format, v...), "from", "go-redis")
}

// redacted is rawURL without its password, for messages.
func redacted(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "the -cache-url"
	}
	return u.Redacted()
}

// rangeContext is a Redis cache whose Range is its RangeContext with ctx,
// so that tune.Export stops when the command's context ends.
type rangeContext struct {
	*rediscache.Cache
	ctx context.Context
}

func (c rangeContext) Range(f func(tune.CacheKey, tune.Entry) bool) error {
	return c.RangeContext(c.ctx, f)
}
