package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

const cacheURLUsage = `a Redis server that shares tune results with a fleet, in front of -cache: ` +
	`redis://[[user]:password@]host[:port][/db] or rediss:// (TLS); "" for none`

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
	rc, err := rediscache.Open(url, local, rediscache.WithLogger(log))
	if err != nil {
		fmt.Fprintf(stderr, "streamgate warmup: warning: %v; tuning without the shared cache\n", err)
		return local
	}
	fmt.Fprintln(stdout, "tune cache: shared through Redis (-cache-url)")
	return rc
}
