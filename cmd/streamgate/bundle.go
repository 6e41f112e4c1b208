package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/bundle"
	"github.com/streamgate/streamgate/tune/sqlitecache"
	"github.com/streamgate/streamgate/wgpu"
)

const (
	bundleExportSummary = "write the tune winners and kernels of this machine's caches into one bundle file"
	bundleImportSummary = "copy a bundle's tune winners and kernels into this machine's caches"
	bundleShowSummary   = "say what a bundle holds"
)

// bundleUsage is the help of warmup's and generate's -bundle.
const bundleUsage = "a bundle (streamgate bundle export) whose tune winners and kernels are behind the caches: a first run with it tunes and lowers nothing it holds"

// The help of the bundle subcommands.
const (
	bundleExportHelp = bundleExportSummary + ".\n\n" +
		"A bundle holds the tune cache's entries (every adapter's, or -device's)\n" +
		"and the kernel cache's (what the lowering derived from each source: the\n" +
		"-kernels directory's and those the tune cache file keeps, which a fleet\n" +
		"shares through Redis), with a header and a checksum. A machine of the same device class imports it\n" +
		"(streamgate bundle import), or runs with it (warmup and generate\n" +
		"-bundle), or a program embeds it (package tune/bundle): its first run\n" +
		"then tunes nothing and starts no lowering sandbox. The same entries make\n" +
		"the same file. Caches that hold nothing make it fail, writing nothing."
	bundleImportHelp = "usage: streamgate bundle import [flags] FILE\n\n" + bundleImportSummary + ".\n\n" +
		"Entries the caches hold already stay: what this machine measured wins. A\n" +
		"bundle that is damaged, truncated, of another format version or not a\n" +
		"bundle makes it import nothing and say which."
	bundleShowHelp = "usage: streamgate bundle show FILE\n\n" + bundleShowSummary + ": the format version, what made it, the\n" +
		"adapters and the winner of each tune entry, the kernels. A bundle that\n" +
		"does not load makes it fail and say why."
)

func init() {
	register(&command{name: "bundle export", summary: bundleExportSummary, flags: bundleExportFlags})
	register(&command{name: "bundle import", summary: bundleImportSummary, args: "FILE", flags: bundleImportFlags})
	register(&command{name: "bundle show", summary: bundleShowSummary, args: "FILE", flags: bundleShowFlags})
}

// kernelsFlag adds -kernels to fs, defaulting to the process's kernel
// cache directory (wgpu.KernelCacheEnv's, else wgpu.DefaultKernelDir).
func kernelsFlag(fs *flag.FlagSet, does string) *string {
	def := os.Getenv(wgpu.KernelCacheEnv)
	switch def {
	case "off":
		def = ""
	case "":
		def, _ = wgpu.DefaultKernelDir()
	}
	return fs.String("kernels", def, "kernel cache directory (default $"+wgpu.KernelCacheEnv+", else the user's): "+does+`; "" for none`)
}

// argsFlagSet returns a flag set whose usage is help and the flags.
func argsFlagSet(name, help string) *flag.FlagSet {
	fs := flag.NewFlagSet("streamgate "+name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nflags:\n", help)
		fs.PrintDefaults()
	}
	return fs
}

// oneFile returns the one FILE argument of the command name, or a usage
// error's exit status.
func oneFile(fs *flag.FlagSet, stderr io.Writer, name string) (string, int, bool) {
	switch fs.NArg() {
	case 1:
		return fs.Arg(0), 0, true
	case 0:
		return "", usageFail(stderr, name, "no bundle FILE"), false
	}
	return "", usageFail(stderr, name, "one bundle FILE, not %d: %s", fs.NArg(), strings.Join(fs.Args(), " ")), false
}

// readBundle reads and loads the bundle file path; the error names it.
func readBundle(path string) (*bundle.Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, bundle.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > bundle.MaxSize {
		return nil, fmt.Errorf("%s: over the %d bytes a bundle may hold", path, bundle.MaxSize)
	}
	b, err := bundle.Load(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// bundleMaker is what a bundle this program writes says made it.
func bundleMaker() string {
	v := readVersion()
	return fmt.Sprintf("streamgate %s (%s)", v.Version, v.Go)
}

func bundleExportFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	const name = "bundle export"
	fs := newFlagSet(name, bundleExportHelp)
	out := fs.String("o", "", `the bundle file to write (required); "-" is standard output`)
	cache := cacheFlag(fs)
	kernels := kernelsFlag(fs, "bundle its entries")
	device := fs.String("device", "", "bundle only the tune entries of this adapter identity (a \"device\" of tune export's lines); the kernels whatever it is")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int {
			fmt.Fprintf(stderr, "streamgate %s: %v\n", name, err)
			return 1
		}
		if *out == "" {
			return usageFail(stderr, name, "no -o: give the bundle file to write")
		}
		var tc tune.Cache
		if *cache != "" {
			_, err := os.Stat(*cache)
			switch {
			case errors.Is(err, iofs.ErrNotExist) && isSet(fs, "cache"):
				return fail(fmt.Errorf("no tune cache at %s", *cache))
			case errors.Is(err, iofs.ErrNotExist): // the default file: none on this machine
			default:
				c, err := sqlitecache.Open(*cache, sqlitecache.WithLogger(newCmdLog(name, stderr).logger()))
				if err != nil {
					return usageFail(stderr, name, "%s", cacheAdvice(*cache, err))
				}
				defer c.Close()
				tc = c
			}
		}
		var krs kernelRangers
		if kc, ok := tc.(bundle.KernelRanger); ok {
			krs = append(krs, kc) // the tune cache keeps kernels too (those Redis shared)
		}
		if *kernels != "" {
			fi, err := os.Stat(*kernels)
			switch {
			case errors.Is(err, iofs.ErrNotExist) && isSet(fs, "kernels"):
				return fail(fmt.Errorf("no kernel cache directory at %s", *kernels))
			case errors.Is(err, iofs.ErrNotExist):
			case err != nil:
				return fail(err)
			case !fi.IsDir():
				return usageFail(stderr, name, "-kernels %s is not a directory", *kernels)
			default:
				kd, err := wgpu.OpenKernelDir(*kernels)
				if err != nil {
					return fail(err)
				}
				krs = append(krs, kd)
			}
		}
		var kr bundle.KernelRanger
		if len(krs) > 0 {
			kr = krs
		}
		if tc == nil && kr == nil {
			return fail(errors.New("no tune cache and no kernel cache directory: nothing to bundle"))
		}
		var buf strings.Builder
		st, err := bundle.Write(&buf, tc, kr, bundle.WriteOptions{Device: *device, MadeBy: bundleMaker()})
		if err != nil {
			return fail(err)
		}
		if st.TuneEntries == 0 && st.Kernels == 0 {
			return fail(fmt.Errorf("the caches hold nothing to bundle%s; nothing written", forDevice(*device)))
		}
		if err := writeFileAtomic(*out, stdout, []byte(buf.String())); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stderr, "streamgate %s: %d tune entries (%d adapters) and %d kernels, %d bytes, to %s\n",
			name, st.TuneEntries, len(st.Devices), st.Kernels, st.Bytes, *out)
		return 0
	}
}

// forDevice is " for -device D", or "" without one.
func forDevice(device string) string {
	if device == "" {
		return ""
	}
	return fmt.Sprintf(" for -device %q", device)
}

// writeFileAtomic writes data to path through a temporary file renamed
// into place, so that no reader finds half a file; "-" is stdout.
func writeFileAtomic(path string, stdout io.Writer, data []byte) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".bundle-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

func bundleImportFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	const name = "bundle import"
	fs := argsFlagSet(name, bundleImportHelp)
	cache := cacheFlag(fs)
	kernels := kernelsFlag(fs, "copy the bundle's kernels there")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		fail := func(err error) int {
			fmt.Fprintf(stderr, "streamgate %s: %v\n", name, err)
			return 1
		}
		path, code, ok := oneFile(fs, stderr, name)
		if !ok {
			return code
		}
		if *cache == "" && *kernels == "" {
			return usageFail(stderr, name, `-cache "" and -kernels "": nowhere to import into`)
		}
		b, err := readBundle(path)
		if err != nil {
			return fail(err)
		}
		var tc tune.Cache
		var into []string
		if *cache != "" {
			c, err := sqlitecache.Open(*cache, sqlitecache.WithLogger(newCmdLog(name, stderr).logger()))
			if err != nil {
				return usageFail(stderr, name, "%s", cacheAdvice(*cache, err))
			}
			defer c.Close()
			tc = c
			into = append(into, *cache)
		}
		var ks bundle.KernelStore
		if *kernels != "" {
			kd, err := wgpu.OpenKernelDir(*kernels)
			if err != nil {
				return fail(err)
			}
			if kd.ReadOnly() {
				return fail(fmt.Errorf("-kernels %s is read-only", *kernels))
			}
			ks = kd
			into = append(into, *kernels)
		}
		st, err := b.Install(ctx, tc, ks)
		if err != nil {
			return fail(err)
		}
		var heldTune, heldKernels int // the entries the caches held already
		if tc != nil {
			heldTune = b.TuneEntries() - st.TuneEntries
		}
		if ks != nil {
			heldKernels = b.Kernels() - st.Kernels
		}
		fmt.Fprintf(stdout, "imported %d tune entries and %d kernels from %s into %s (%d and %d there already)\n",
			st.TuneEntries, st.Kernels, path, strings.Join(into, " and "), heldTune, heldKernels)
		return 0
	}
}

func bundleShowFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	const name = "bundle show"
	fs := argsFlagSet(name, bundleShowHelp)
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		path, code, ok := oneFile(fs, stderr, name)
		if !ok {
			return code
		}
		b, err := readBundle(path)
		if err != nil {
			fmt.Fprintf(stderr, "streamgate %s: %v\n", name, err)
			return 1
		}
		fmt.Fprintf(stdout, "bundle %s: %d bytes, format version %d, made by %s\n", path, b.Size(), bundle.Version, b.MadeBy())
		fmt.Fprintf(stdout, "tune entries: %d, for %d adapters\n", b.TuneEntries(), len(b.Devices()))
		dev, first := "", true
		b.RangeTune(func(k tune.CacheKey, e tune.Entry) bool {
			if k.Device != dev || first {
				dev, first = k.Device, false
				fmt.Fprintf(stdout, "  %q\n", dev)
			}
			fmt.Fprintf(stdout, "    %q: %s of %d (candidates %q, %s)\n", k.Key, e.Ranking[0], len(e.Ranking), k.Candidates, e.Timing)
			return true
		})
		fmt.Fprintf(stdout, "kernels: %d, %d bytes\n", b.Kernels(), b.KernelBytes())
		return 0
	}
}

// bundleInUse is -bundle's bundle behind a command's caches.
type bundleInUse struct {
	path        string
	b           *bundle.Bundle
	cache       tune.Cache       // the bundle behind the command's tune cache
	prevKernels wgpu.KernelStore // the process's kernel store before, now in front of the bundle
}

// useBundle reads the bundle path and puts it behind cache and the
// process's kernel store; the caller closes the cache it returns and
// puts prevKernels back.
func useBundle(path string, cache tune.Cache) (*bundleInUse, error) {
	b, err := readBundle(path)
	if err != nil {
		return nil, err
	}
	u := &bundleInUse{path: path, b: b, cache: b.TuneCache(cache), prevKernels: wgpu.CurrentKernelStore()}
	wgpu.SetKernelStore(b.KernelStore(u.prevKernels))
	return u, nil
}

// status is the "bundle:" line of a command's start.
func (u *bundleInUse) status() string {
	return fmt.Sprintf("bundle: %s (%d tune entries, %d kernels, made by %s), behind the caches", u.path, u.b.TuneEntries(), u.b.Kernels(), u.b.MadeBy())
}

// kernelRangers ranges over the kernels of several stores, each key once
// (the first store's entry), in key order.
type kernelRangers []bundle.KernelRanger

func (rs kernelRangers) RangeKernels(f func(key [32]byte, entry []byte) bool) error {
	m := map[[32]byte][]byte{}
	for _, r := range rs {
		if err := r.RangeKernels(func(key [32]byte, entry []byte) bool {
			if _, dup := m[key]; !dup {
				m[key] = entry
			}
			return true
		}); err != nil {
			return err
		}
	}
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
	for _, k := range keys {
		if !f(k, m[k]) {
			break
		}
	}
	return nil
}
