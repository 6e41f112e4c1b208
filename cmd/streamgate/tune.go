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

func tuneExportFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	fs := newFlagSet("tune export", tuneExportSummary+".\n\n"+
		"Each line is one entry: {\"version\", \"device\", \"key\", \"candidates\",\n"+
		"\"ranking\", \"timing\", \"created\"}. Machines with the same adapter identity\n"+
		"tune once: export there, import on the others.")
	cachePath := cacheFlag(fs)
	out := fs.String("o", "-", `output file; "-" is standard output`)
	device := fs.String("device", "", "export only the entries of this adapter identity (the \"device\" field of a line)")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int {
			fmt.Fprintf(stderr, "streamgate tune export: %v\n", err)
			return 1
		}
		if *cachePath == "" {
			return fail(errors.New("no -cache and no user cache directory"))
		}
		if _, err := os.Stat(*cachePath); errors.Is(err, iofs.ErrNotExist) {
			return fail(fmt.Errorf("no tune cache at %s", *cachePath))
		}
		c, err := sqlitecache.Open(*cachePath)
		if err != nil {
			return fail(err)
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
		fmt.Fprintf(stderr, "streamgate tune export: %d entries from %s\n", n, *cachePath)
		return 0
	}
}

func tuneImportFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	fs := newFlagSet("tune import", tuneImportSummary+".\n\n"+
		"Entries replace those of the same adapter, key and candidates. A line of\n"+
		"another cache version, or one that is not an entry, makes it import\n"+
		"nothing and name the line.")
	cachePath := cacheFlag(fs)
	in := fs.String("i", "-", `input file; "-" is standard input`)
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int {
			fmt.Fprintf(stderr, "streamgate tune import: %v\n", err)
			return 1
		}
		if *cachePath == "" {
			return fail(errors.New("no -cache and no user cache directory"))
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
		c, err := sqlitecache.Open(*cachePath)
		if err != nil {
			return fail(err)
		}
		defer c.Close()
		n, err := tune.Import(r, c)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "imported %d entries into %s\n", n, *cachePath)
		return 0
	}
}
