package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// cacheURLForm is the form of a -cache-url.
const cacheURLForm = `redis://[[user]:password@]host[:port][/db] or rediss:// (TLS)`

const cacheURLUsage = `a Redis server that shares tune results with a fleet, in front of -cache: ` +
	cacheURLForm + `; "" for none`

// cacheFlags are the flags that name the tune cache of warmup and
// generate.
type cacheFlags struct {
	path     string // -cache; "" for none
	pathErr  error  // why there is no default -cache, if there is none
	url      string // -cache-url; "" for none
	explicit bool   // -cache was set on the command line
	bundle   string // -bundle; "" for none
}

// add adds -cache and -cache-url to fs.
func (f *cacheFlags) add(fs *flag.FlagSet) {
	def, err := tune.DefaultCachePath()
	f.pathErr = err
	fs.StringVar(&f.path, "cache", def, `tune cache file (SQLite); "" remembers nothing between runs`)
	fs.StringVar(&f.url, "cache-url", "", cacheURLUsage)
	fs.StringVar(&f.bundle, "bundle", "", bundleUsage)
}

// parsed notes what the command line of fs set; call it once fs is parsed.
func (f *cacheFlags) parsed(fs *flag.FlagSet) { f.explicit = isSet(fs, "cache") }

// cacheReport records where a command's tune results go and whether the
// shared cache was reached, for its status lines and its JSON. Its
// methods are for the command's goroutine.
type cacheReport struct {
	file     string // the -cache file in use; "" for none
	readOnly bool   // file is read-only: new results stay in memory
	noFile   string // why there is no file, when there is none
	server   string // -cache-url without its password; "" for none
	rc       *rediscache.Cache
}

// cacheJSON is the "cache" object of warmup's and generate's -json.
type cacheJSON struct {
	File     string `json:"file"`      // the tune cache file in use; "" for none
	ReadOnly bool   `json:"read_only"` // the file is read-only: new results were kept in memory
	Stored   string `json:"stored"`    // where new results went: "file", "memory" (no file, or a read-only one)
	Redis    string `json:"redis"`     // -cache-url, without its password; "" for none
	Shared   bool   `json:"shared"`    // Redis answered and holds every result this run stored
}

// openTuneCache opens the tune cache that f names, its warnings to log
// (the command's). A default -cache it cannot use is a
// warning, and the command tunes in memory; an explicit -cache that is
// not a streamgate tune cache, or that it cannot open, and a malformed
// -cache-url are a *usageError, with what to do. A Redis server that does
// not answer, or answers with an error, is a warning: the cache works
// from -cache until it does.
func openTuneCache(f cacheFlags, log *cmdLog) (tune.Cache, *cacheReport, error) {
	rep := &cacheReport{}
	if err := checkCacheURL(f.url); err != nil {
		return nil, nil, err
	}
	var local tune.Cache
	switch {
	case f.path == "" && f.pathErr != nil && !f.explicit:
		log.warnf("%v; tuning in memory only (give -cache)", f.pathErr)
		rep.noFile = "no user cache directory"
	case f.path == "":
		rep.noFile = `-cache ""`
	default:
		c, err := sqlitecache.Open(f.path, sqlitecache.WithLogger(log.logger()))
		switch {
		case err != nil && f.explicit:
			return nil, nil, &usageError{cacheAdvice(f.path, err)}
		case err != nil:
			log.warnf("%s; tuning in memory only", cacheAdvice(f.path, err))
			rep.noFile = "the default -cache " + f.path + " is not usable"
		default:
			local, rep.file, rep.readOnly = c, f.path, c.ReadOnly()
		}
	}
	if local == nil {
		local = tune.NewMemoryCache()
	}
	if f.url == "" {
		return local, rep, nil
	}
	// The command says where the results are at its end (stored); the
	// cache's own line on Close would name a "local cache" that may be
	// memory.
	rc, err := openShared(f.url, local, log.logger(), rediscache.WarnClosePending)
	if err != nil { // ParseURL took it: not expected
		local.Close()
		return nil, nil, &usageError{err.Error()}
	}
	rep.server, rep.rc = redacted(f.url), rc
	if rc.OpenErr() != nil {
		log.warnf("%s; tuning without the shared cache until it answers", rep.redisProblem())
	}
	return rc, rep, nil
}

// urlError is err from redis.ParseURL without the URL it repeats.
func urlError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// cacheAdvice says why the cache file path cannot be used (err from
// sqlitecache.Open) and what to do.
func cacheAdvice(path string, err error) string {
	msg := strings.TrimPrefix(err.Error(), "tune: cache "+path+": ")
	aside := fmt.Sprintf("mv %s %s.bad", shellQuote(path), shellQuote(path))
	switch {
	case strings.HasPrefix(msg, "integrity check: ") || strings.Contains(msg, "malformed"):
		var lines []string
		for l := range strings.Lines(strings.TrimPrefix(msg, "integrity check: ")) {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "***") {
				lines = append(lines, l)
			}
		}
		first := "damaged"
		if len(lines) > 0 {
			first = lines[0]
		}
		if len(lines) > 1 {
			first += fmt.Sprintf(" (and %d more)", len(lines)-1)
		}
		return fmt.Sprintf("-cache %s: a damaged tune cache: %s; left untouched: move it aside (%s) to start a new one, or run with -cache ''", path, first, aside)
	case errors.Is(err, sqlitecache.ErrNotCache) || strings.Contains(msg, "is newer than"):
		msg = strings.TrimPrefix(msg, sqlitecache.ErrNotCache.Error()+": ")
		msg = strings.TrimSuffix(strings.TrimSuffix(msg, "; refusing to touch it"), "; refusing to use or overwrite it")
		if strings.Contains(msg, "is newer than") {
			return fmt.Sprintf("-cache %s: %s; left untouched: give another -cache, or run with -cache ''", path, msg)
		}
		return fmt.Sprintf("-cache %s: not a streamgate tune cache: %s; left untouched: give another -cache, move it aside (%s), or run with -cache ''", path, msg, aside)
	}
	return fmt.Sprintf("-cache %s: %s: give another -cache, or run with -cache ''", path, msg)
}

// shellQuote quotes s for a shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkCacheURL returns a usage error for a malformed -cache-url.
func checkCacheURL(rawURL string) error {
	if rawURL == "" {
		return nil
	}
	if _, err := redis.ParseURL(rawURL); err != nil {
		return &usageError{fmt.Sprintf("-cache-url %s: %v: want %s", redacted(rawURL), urlError(err), cacheURLForm)}
	}
	return nil
}

// redisProblem says why Redis is not in use: it did not answer, or
// answered with an error.
func (r *cacheReport) redisProblem() string {
	switch {
	case r.rc == nil:
	case r.rc.OpenErr() != nil && r.rc.OpenAnswered():
		return fmt.Sprintf("Redis at %s answered with an error: %v", r.server, r.rc.OpenErr())
	case r.rc.OpenErr() != nil:
		return fmt.Sprintf("Redis at %s did not answer: %v", r.server, r.rc.OpenErr())
	case r.rc.Down():
		return fmt.Sprintf("Redis at %s stopped answering", r.server)
	}
	return ""
}

// shared reports whether Redis is in use and holds every result stored.
func (r *cacheReport) shared() bool {
	return r.rc != nil && r.rc.OpenErr() == nil && !r.rc.Down() && r.rc.Pending() == 0
}

// status prints the "tune cache:" lines of a command's start.
func (r *cacheReport) status(w io.Writer) {
	switch {
	case r.file != "" && r.readOnly:
		fmt.Fprintf(w, "tune cache: %s (read-only: new results kept in memory)\n", r.file)
	case r.file != "":
		fmt.Fprintf(w, "tune cache: %s\n", r.file)
	default:
		fmt.Fprintf(w, "tune cache: none, in memory only (%s)\n", r.noFile)
	}
	switch {
	case r.server == "":
	case r.rc.OpenErr() != nil:
		fmt.Fprintf(w, "tune cache: not shared: %s\n", r.redisProblem())
	default:
		fmt.Fprintf(w, "tune cache: shared through Redis at %s\n", r.server)
	}
}

// stored says where the results this run tuned went.
func (r *cacheReport) stored() string {
	var s string
	switch {
	case r.file != "" && r.readOnly:
		s = "in memory only (" + r.file + " is read-only)"
	case r.file != "":
		s = "in " + r.file
	default:
		s = "in memory only (" + r.noFile + ")"
	}
	switch {
	case r.server == "":
	case r.shared():
		s += " and in Redis at " + r.server
	default:
		why := "it stopped answering"
		switch {
		case r.rc.OpenErr() != nil && r.rc.OpenAnswered():
			why = "it answered with an error"
		case r.rc.OpenErr() != nil:
			why = "it did not answer"
		}
		if n := r.rc.Pending(); n > 0 {
			why += fmt.Sprintf("; %d stores wait for it", n)
		}
		s += ", not in Redis (" + why + ")"
	}
	return s
}

// json returns r as the "cache" object of a command's JSON.
func (r *cacheReport) json() cacheJSON {
	j := cacheJSON{File: r.file, ReadOnly: r.readOnly, Stored: "memory", Redis: r.server, Shared: r.shared()}
	if r.file != "" && !r.readOnly {
		j.Stored = "file"
	}
	return j
}

// tuneSummary prints the warm-up's line on the tune cache: what was found
// in it, and where what was tuned went. what names the tuned things
// ("ops", "keys").
func tuneSummary(w io.Writer, r *cacheReport, what string, hits, n int) {
	switch hits {
	case n:
		fmt.Fprintf(w, "  tune cache hit for all %d %s: nothing was measured\n", n, what)
	case 0:
		fmt.Fprintf(w, "  tuned %d %s; the winners are stored %s\n", n, what, r.stored())
	default:
		fmt.Fprintf(w, "  tune cache hit for %d of %d %s; the others were measured and stored %s\n", hits, n, what, r.stored())
	}
}

// openShared opens the Redis cache at rawURL in front of local, its
// warnings to log, but for the ping at open's, which the command reads
// from OpenErr and says in its own words, and those that silenced names.
// It sends go-redis's own log lines (a dial that failed, beside the
// cache's warning) to log at Debug: go-redis's logger is the process's,
// and the command owns the process.
func openShared(rawURL string, local tune.Cache, log *slog.Logger, silenced rediscache.Warning) (*rediscache.Cache, error) {
	redis.SetLogger(redisLogger{log})
	return rediscache.Open(rawURL, local, rediscache.WithLogger(log), rediscache.WithSilenced(rediscache.WarnOpen|silenced))
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
		if strings.Contains(rawURL, "@") { // a password, maybe
			return "(the -cache-url)"
		}
		return rawURL
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
