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
	fs := newFlagSet("tune export", tuneExportSummary+".\n\n"+
		"Each line is one entry: {\"version\", \"device\", \"key\", \"candidates\",\n"+
		"\"ranking\", \"timing\", \"created\"}. Machines with the same adapter identity\n"+
		"tune once: export there, import on the others.\n\n"+
		"With -cache-url it exports a fleet's cache: every entry in that Redis\n"+
		"server, whichever machine stored it, with those of -cache that Redis lacks\n"+
		"(the default -cache may then be missing; \"\" for none). A Redis server\n"+
		"that does not answer makes it fail, after writing -cache's entries alone.")
	cachePath := cacheFlag(fs)
	cacheURL := fs.String("cache-url", "", "a Redis server that shares tune results with a fleet (as warmup's -cache-url): "+
		"export its entries, with those of -cache that it lacks: "+cacheURLForm+`; "" for none`)
	out := fs.String("o", "-", `output file; "-" is standard output`)
	device := fs.String("device", "", "export only the entries of this adapter identity (the \"device\" field of a line)")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int {
			fmt.Fprintf(stderr, "streamgate tune export: %v\n", err)
			return 1
		}
		if err := checkCacheURL(*cacheURL); err != nil {
			return usageFail(stderr, "tune export", "%v", err)
		}
		if *cachePath == "" && *cacheURL == "" {
			if isSet(fs, "cache") {
				return usageFail(stderr, "tune export", `-cache "" and no -cache-url: nothing to export`)
			}
			_, err := tune.DefaultCachePath()
			return fail(fmt.Errorf("%v: give -cache or -cache-url", err))
		}
		log := newCmdLog("tune export", stderr)
		var local tune.Cache
		from := *cachePath
		_, err := os.Stat(*cachePath)
		switch {
		case *cachePath == "":
			local, from = tune.NewMemoryCache(), ""
		case errors.Is(err, iofs.ErrNotExist) && (*cacheURL == "" || isSet(fs, "cache")):
			return fail(fmt.Errorf("no tune cache at %s", *cachePath))
		case errors.Is(err, iofs.ErrNotExist): // the default file: none on this machine
			local, from = tune.NewMemoryCache(), ""
		default:
			c, err := sqlitecache.Open(*cachePath, sqlitecache.WithLogger(log.logger()))
			if err != nil && isSet(fs, "cache") {
				return usageFail(stderr, "tune export", "%s", cacheAdvice(*cachePath, err))
			}
			if err != nil {
				return fail(errors.New(cacheAdvice(*cachePath, err)))
			}
			local = c
		}
		c := local
		var rc *rediscache.Cache
		redisRep := &cacheReport{}
		if *cacheURL != "" {
			var openErr error
			if rc, openErr, err = openRedis(*cacheURL, local, log); err != nil {
				local.Close()
				return fail(err)
			}
			redisRep.setRedis(*cacheURL, rc, openErr)
			if openErr != nil {
				log.warnf("%s", redisRep.redisProblem())
			}
			// The command says what the export holds when Redis is down;
			// it tunes nothing.
			log.mute("tune: Redis unavailable; Range lists the local cache only")
			log.mute("tune: Redis unavailable; tuning from the local cache")
			c = rangeContext{rc, ctx}
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
		if rc != nil && rc.Down() {
			// Range warned and listed the local cache: say what the
			// export holds, and fail, as import does when Redis does not
			// take its entries.
			what := "nothing: there is no -cache file"
			if from != "" {
				what = fmt.Sprintf("%d entries, from %s only", n, from)
			}
			return fail(fmt.Errorf("%s: the export holds %s", redisRep.redisProblem(), what))
		}
		if rc != nil {
			from = joinSources(redacted(*cacheURL), from)
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
	fs := newFlagSet("tune import", tuneImportSummary+".\n\n"+
		"Entries replace those of the same adapter, key and candidates. A line of\n"+
		"another cache version, or one that is not an entry, makes it import\n"+
		"nothing and name the line.\n\n"+
		"With -cache-url the entries go to that Redis server too, for the fleet\n"+
		"that shares it (-cache \"\" for Redis alone). A Redis server that does not\n"+
		"take them all makes it fail, saying how many are in -cache only.")
	cachePath := cacheFlag(fs)
	cacheURL := fs.String("cache-url", "", "a Redis server that shares tune results with a fleet (as warmup's -cache-url): "+
		"store the entries there as well as in -cache: "+cacheURLForm+`; "" for none`)
	in := fs.String("i", "-", `input file; "-" is standard input`)
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int {
			fmt.Fprintf(stderr, "streamgate tune import: %v\n", err)
			return 1
		}
		if err := checkCacheURL(*cacheURL); err != nil {
			return usageFail(stderr, "tune import", "%v", err)
		}
		if *cachePath == "" && *cacheURL == "" {
			if isSet(fs, "cache") {
				return usageFail(stderr, "tune import", `-cache "" and no -cache-url: nowhere to import into`)
			}
			_, err := tune.DefaultCachePath()
			return fail(fmt.Errorf("%v: give -cache or -cache-url", err))
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
		var local tune.Cache = tune.NewMemoryCache()
		if *cachePath != "" {
			c, err := sqlitecache.Open(*cachePath, sqlitecache.WithLogger(log.logger()))
			if err != nil && isSet(fs, "cache") {
				return usageFail(stderr, "tune import", "%s", cacheAdvice(*cachePath, err))
			}
			if err != nil {
				return fail(errors.New(cacheAdvice(*cachePath, err)))
			}
			local = c
		}
		c, into := local, *cachePath
		var rc *rediscache.Cache
		redisRep := &cacheReport{}
		if *cacheURL != "" {
			var err, openErr error
			if rc, openErr, err = openRedis(*cacheURL, local, log); err != nil {
				local.Close()
				return fail(err)
			}
			redisRep.setRedis(*cacheURL, rc, openErr)
			if openErr != nil {
				log.warnf("%s", redisRep.redisProblem())
			}
			// The command says where the entries Redis lacks are; it
			// tunes nothing.
			log.mute("tune: closing with stores Redis never got")
			log.mute("tune: Redis unavailable; tuning from the local cache")
			c, into = rc, joinSources(redacted(*cacheURL), into)
		}
		defer c.Close()
		n, err := tune.Import(r, c)
		if err != nil {
			return fail(err)
		}
		if rc != nil {
			if p := rc.Pending(); p > 0 {
				where := "nowhere: -cache is \"\""
				if *cachePath != "" {
					where = "in " + *cachePath + " only"
				}
				return fail(fmt.Errorf("%d of %d entries did not reach Redis (%s); they are %s", p, n, redisRep.redisProblem(), where))
			}
		}
		fmt.Fprintf(stdout, "imported %d entries into %s\n", n, into)
		return 0
	}
}
