package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

const (
	tuneExportSummary = "write the tune cache as versioned JSON lines, keyed by adapter identity"
	tuneImportSummary = "read JSON lines written by tune export into the tune cache"
)

// The help of tune export and tune import.
const (
	tuneExportHelp = tuneExportSummary + ".\n\n" +
		"Each line is one entry: {\"version\", \"device\", \"key\", \"candidates\",\n" +
		"\"ranking\", \"timing\", \"created\"}. Machines with the same adapter identity\n" +
		"tune once: export there, import on the others.\n\n" +
		"With -cache-url it exports a fleet's cache: every entry in that Redis\n" +
		"server, whichever machine stored it, with those of -cache that Redis lacks\n" +
		"(the default -cache may then be missing; \"\" for none). A Redis server\n" +
		"that does not answer makes it fail, after writing -cache's entries alone."
	tuneImportHelp = tuneImportSummary + ".\n\n" +
		"Entries replace those of the same adapter, key and candidates. A line of\n" +
		"another cache version, or one that is not an entry, makes it import\n" +
		"nothing and name the line.\n\n" +
		"With -cache-url the entries go to that Redis server too, for the fleet\n" +
		"that shares it (-cache \"\" for Redis alone). A Redis server that does not\n" +
		"take them all makes it fail, saying how many are in -cache only."
)

// stdin is what tune import reads with -i -; tests replace it.
var stdin io.Reader = os.Stdin

func init() {
	register(&command{name: "tune export", summary: tuneExportSummary, flags: tuneExportFlags})
	register(&command{name: "tune import", summary: tuneImportSummary, flags: tuneImportFlags})
}

// cacheFlag adds -cache to fs, defaulting to the user's tune cache.
func cacheFlag(fs *flag.FlagSet) *string {
	def, _ := tune.DefaultCachePath()
	return fs.String("cache", def, "tune cache file (SQLite)")
}

// isSet reports whether the command line set the flag name.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func tuneExportFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	t := newTuneCaches("tune export", tuneExportHelp, "export its entries, with those of -cache that it lacks")
	fs := t.fs
	out := fs.String("o", "-", `output file; "-" is standard output`)
	device := fs.String("device", "", "export only the entries of this adapter identity (the \"device\" field of a line)")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int { return t.fail(stderr, err) }
		if code, ok := t.check(stderr, "nothing to export"); !ok {
			return code
		}
		log := newCmdLog("tune export", stderr)
		from := *t.path
		_, err := os.Stat(*t.path)
		switch {
		case *t.path == "":
			t.local, from = tune.NewMemoryCache(), ""
		case errors.Is(err, iofs.ErrNotExist) && (*t.url == "" || isSet(fs, "cache")):
			return fail(fmt.Errorf("no tune cache at %s", *t.path))
		case errors.Is(err, iofs.ErrNotExist): // the default file: none on this machine
			t.local, from = tune.NewMemoryCache(), ""
		default:
			if code, ok := t.openFile(stderr, log); !ok {
				return code
			}
		}
		c := t.local
		if *t.url != "" {
			// The command says what the export holds when Redis is down;
			// it tunes nothing.
			if code, ok := t.openRedis(stderr, log, rediscache.WarnRangeLocal|rediscache.WarnOutage); !ok {
				return code
			}
			c = rangeContext{t.rc, ctx}
		}
		defer c.Close()
		w, closeOut := stdout, func() error { return nil }
		if *out != "-" {
			f, err := os.Create(*out)
			if err != nil {
				return fail(err)
			}
			w, closeOut = f, f.Close
		}
		n, err := tune.Export(w, c, *device)
		if cerr := closeOut(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(err)
		}
		if t.rc != nil && t.rc.Down() {
			// Range warned and listed the local cache: say what the
			// export holds, and fail, as import does when Redis does not
			// take its entries.
			what := "nothing: there is no -cache file"
			if from != "" {
				what = fmt.Sprintf("%d entries, from %s only", n, from)
			}
			return fail(fmt.Errorf("%s: the export holds %s", t.rep.redisProblem(), what))
		}
		if t.rc != nil {
			from = joinSources(redacted(*t.url), from)
		}
		fmt.Fprintf(stderr, "streamgate tune export: %d entries from %s\n", n, from)
		return 0
	}
}

// joinSources names a Redis server and a cache file together; file "" for
// none.
func joinSources(server, file string) string {
	if file == "" {
		return server
	}
	return server + " and " + file
}

func tuneImportFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	t := newTuneCaches("tune import", tuneImportHelp, "store the entries there as well as in -cache")
	fs := t.fs
	in := fs.String("i", "-", `input file; "-" is standard input`)
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int { return t.fail(stderr, err) }
		if code, ok := t.check(stderr, "nowhere to import into"); !ok {
			return code
		}
		r := stdin
		if *in != "-" {
			f, err := os.Open(*in)
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			r = f
		}
		log := newCmdLog("tune import", stderr)
		t.local = tune.NewMemoryCache()
		if *t.path != "" {
			if code, ok := t.openFile(stderr, log); !ok {
				return code
			}
		}
		c, into := t.local, *t.path
		if *t.url != "" {
			// The command says where the entries Redis lacks are; it
			// tunes nothing.
			if code, ok := t.openRedis(stderr, log, rediscache.WarnClosePending|rediscache.WarnOutage); !ok {
				return code
			}
			c, into = t.rc, joinSources(redacted(*t.url), into)
		}
		defer c.Close()
		n, err := tune.Import(r, c)
		if err != nil {
			return fail(err)
		}
		if t.rc != nil {
			if p := t.rc.Pending(); p > 0 {
				where := "nowhere: -cache is \"\""
				if *t.path != "" {
					where = "in " + *t.path + " only"
				}
				return fail(fmt.Errorf("%d of %d entries did not reach Redis (%s); they are %s", p, n, t.rep.redisProblem(), where))
			}
		}
		fmt.Fprintf(stdout, "imported %d entries into %s\n", n, into)
		return 0
	}
}

// tuneCaches are the flags naming the caches tune export and tune import
// work on, -cache and -cache-url, and the steps both take with them.
type tuneCaches struct {
	name string        // the command: "tune export"
	fs   *flag.FlagSet // where the flags are
	path *string       // -cache
	url  *string       // -cache-url

	local tune.Cache        // the -cache file, or one in memory in its stead
	rc    *rediscache.Cache // the -cache-url server in front of local; nil for none
	rep   *cacheReport      // what became of rc
}

// newTuneCaches makes the flag set of the command name, with its help,
// and adds -cache and -cache-url to it; urlDoes says what the command does
// with the Redis server.
func newTuneCaches(name, help, urlDoes string) *tuneCaches {
	fs := newFlagSet(name, help)
	return &tuneCaches{name: name, fs: fs, path: cacheFlag(fs),
		url: fs.String("cache-url", "", "a Redis server that shares tune results with a fleet (as warmup's -cache-url): "+
			urlDoes+": "+cacheURLForm+`; "" for none`)}
}

// fail reports err and returns the exit status 1.
func (t *tuneCaches) fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "streamgate %s: %v\n", t.name, err)
	return 1
}

// check refuses a bad -cache-url, and no cache at all: a usage error when
// the command line said -cache "" (which leaves the command with none to
// do), a failure when the default cache path is unknown. ok is false when
// it refused, with the exit status.
func (t *tuneCaches) check(stderr io.Writer, none string) (code int, ok bool) {
	if err := checkCacheURL(*t.url); err != nil {
		return usageFail(stderr, t.name, "%v", err), false
	}
	if *t.path == "" && *t.url == "" {
		if isSet(t.fs, "cache") {
			return usageFail(stderr, t.name, `-cache "" and no -cache-url: %s`, none), false
		}
		_, err := tune.DefaultCachePath()
		return t.fail(stderr, fmt.Errorf("%v: give -cache or -cache-url", err)), false
	}
	return 0, true
}

// openFile opens the -cache file as local. ok is false when it cannot,
// with the exit status: a usage error for a -cache the command line gave.
func (t *tuneCaches) openFile(stderr io.Writer, log *cmdLog) (code int, ok bool) {
	c, err := sqlitecache.Open(*t.path, sqlitecache.WithLogger(log.logger()))
	if err != nil && isSet(t.fs, "cache") {
		return usageFail(stderr, t.name, "%s", cacheAdvice(*t.path, err)), false
	}
	if err != nil {
		return t.fail(stderr, errors.New(cacheAdvice(*t.path, err))), false
	}
	t.local = c
	return 0, true
}

// openRedis opens the -cache-url server as rc, in front of local, warns
// when it does not answer, and silences the cache's warnings that the
// command says better (it reads their state from rc). ok is false, local
// closed and the exit status given, when it cannot.
func (t *tuneCaches) openRedis(stderr io.Writer, log *cmdLog, silenced rediscache.Warning) (code int, ok bool) {
	rc, err := openShared(*t.url, t.local, log.logger(), silenced)
	if err != nil {
		t.local.Close()
		return t.fail(stderr, err), false
	}
	t.rc, t.rep = rc, &cacheReport{server: redacted(*t.url), rc: rc}
	if rc.OpenErr() != nil {
		log.warnf("%s", t.rep.redisProblem())
	}
	return 0, true
}
