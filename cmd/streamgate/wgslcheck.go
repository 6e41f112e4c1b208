package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/streamgate/streamgate/wgpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

const wgslCheckSummary = "check WGSL files without a device; print their entry points and bindings, or their errors"

func init() {
	register(&command{name: "wgsl check", summary: wgslCheckSummary, args: "FILE...", flags: wgslCheckFlags})
}

func wgslCheckFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	fs := flag.NewFlagSet("streamgate wgsl check", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: streamgate wgsl check [flags] FILE...\n\n"+wgslCheckSummary+`.

Each FILE is one WGSL module, checked as streamgate's wgpu service checks a
kernel before the driver compiles it (wgpu.CheckModule): the front-end's
limits, the override constants' values, today's WGSL rules (naga 30, in
the process), lowering for the driver's compiler (naga 0.13), and the
device limits. The flags come before the files.

For each file it prints the entry points, in source order: each one's
stage and workgroup size, and the buffer bindings it uses with their
group, binding, name, kind (storage-read, storage-read-write, uniform),
WGSL type and the minimum size in bytes of a buffer bound there. A file
with an error prints it on stderr instead, as FILE:LINE:COL: message (FILE:
message where it has no position); every file is checked either way.

-D sets an override constant, by name or by @id as a decimal number, in
each file that declares it; a -D that no file declares is an error. An
override with no default needs a -D.

With -json it prints one JSON object per file, one per line, in the order
of the files, and nothing on stderr for an error in a file:
  {"file", "ok", "error", "error_type", "line", "column",
   "entry_points": [{"name", "stage", "workgroup_size": [X, Y, Z],
     "bindings": [{"group", "binding", "name", "kind", "type", "min_size"}]}],
   "lowered"}
where error, error_type (Validation, Limit, Unsupported, ...), line and
column are there only for a file with an error, line and column only
where the error has a position, and lowered only with -lowered.

The exit status is 0 when every file checks, 1 when one has an error, and
2 for a usage error.

flags:
`)
		fs.PrintDefaults()
	}
	lowered := fs.Bool("lowered", false, "also print the source the driver gets: the module lowered for its compiler, the overrides' values in")
	asJSON := fs.Bool("json", false, "print one JSON object per file, one per line")
	consts := constantsFlag{}
	fs.Var(consts, "D", "set the override constant `name=value` (a number, true or false); repeatable")
	device := fs.Bool("device", false, "check against the limits of the device -adapter opens, not WebGPU's defaults")
	adapter := fs.String("adapter", "", adapterUsage+"; implies -device")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		files := fs.Args()
		if len(files) == 0 {
			return usageFail(stderr, "wgsl check", "no files")
		}
		for _, f := range files {
			if len(f) > 1 && f[0] == '-' {
				if _, err := os.Stat(f); err != nil {
					return usageFail(stderr, "wgsl check", "%s after a file: the flags go before the files (streamgate wgsl check [flags] FILE...)", strings.SplitN(f, "=", 2)[0])
				}
			}
		}
		c := wgslChecker{constants: consts, lowered: *lowered, used: map[string]bool{}, sources: map[string]string{}, modules: map[string]*wgsl.Module{}}
		for _, f := range files {
			c.load(f)
		}
		for _, k := range slices.Sorted(maps.Keys(consts)) {
			if !c.used[k] {
				return usageFail(stderr, "wgsl check", "-D %s: no file declares override %s", k, k)
			}
		}
		var lim wgpu.Limits // WebGPU's defaults
		if *device || *adapter != "" {
			d, err := wgpu.Open(wgpu.Options{Adapter: *adapter})
			if err != nil {
				fmt.Fprintf(stderr, "streamgate wgsl check: opening the device: %v\n", err)
				return 1
			}
			lim = d.Limits()
			d.Close()
		}
		c.limits = lim
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false) // array<f32>, not array\u003cf32\u003e
		code := 0
		for _, file := range files {
			r := c.check(ctx, file)
			if !r.OK {
				code = 1
			}
			if *asJSON {
				if err := enc.Encode(r); err != nil {
					return 1
				}
			} else {
				r.print(stdout, stderr)
			}
			if ctx.Err() != nil {
				return 1
			}
		}
		return code
	}
}

// constantsFlag is -D: override constants by name or @id. Set adds to the
// map; a name set twice takes its last value.
type constantsFlag map[string]float64

func (c constantsFlag) String() string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(c)) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%g", k, c[k])
	}
	return b.String()
}

func (c constantsFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" || value == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	var v float64
	switch value {
	case "true":
		v = 1
	case "false":
		v = 0
	default:
		if i, err := strconv.ParseInt(value, 0, 64); err == nil {
			v = float64(i)
			break
		}
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("%s: %q is not a number, true or false", name, value)
		}
		v = f
	}
	c[name] = v
	return nil
}

// wgslChecker checks files with one set of flags. It is not safe for
// concurrent use.
type wgslChecker struct {
	constants map[string]float64      // -D, for every file that declares them
	lowered   bool                    // -lowered
	limits    wgpu.Limits             // zero: WebGPU's defaults
	used      map[string]bool         // the -D keys some file declared
	sources   map[string]string       // each file's source, read by load
	modules   map[string]*wgsl.Module // each file's parse, nil when it does not parse
}

// load reads and parses file, if it can, for check, and notes the -D keys
// it declares used (all of them for a file that does not read or parse:
// its check reports why).
func (c *wgslChecker) load(file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		c.constantsFor(nil)
		return
	}
	c.sources[file] = string(src)
	lim := wgsl.DefaultLimits() // only the declarations matter here
	lim.MaxBindings, lim.MaxWorkgroupBytes, lim.MaxPrivateBytes = 0, 1<<30, 1<<30
	m, err := wgsl.Parse(string(src), lim)
	if err != nil {
		m = nil
	}
	c.modules[file] = m
	c.constantsFor(m)
}

// fileReport is the result of checking one file; it is also its -json
// object.
type fileReport struct {
	File        string           `json:"file"`
	OK          bool             `json:"ok"`
	Error       string           `json:"error,omitempty"`      // without its position
	ErrorType   string           `json:"error_type,omitempty"` // the wgpu.ErrorType of a *wgpu.Error
	Line        int              `json:"line,omitempty"`
	Column      int              `json:"column,omitempty"`
	EntryPoints []entryPointJSON `json:"entry_points"`
	Lowered     string           `json:"lowered,omitempty"`
}

type entryPointJSON struct {
	Name          string        `json:"name"`
	Stage         string        `json:"stage"`
	WorkgroupSize [3]uint32     `json:"workgroup_size"`
	Bindings      []bindingJSON `json:"bindings"`
}

type bindingJSON struct {
	Group   uint32 `json:"group"`
	Binding uint32 `json:"binding"`
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Type    string `json:"type"`
	MinSize uint64 `json:"min_size"`
}

// check checks file, which load read.
func (c *wgslChecker) check(ctx context.Context, file string) *fileReport {
	r := &fileReport{File: file, EntryPoints: []entryPointJSON{}}
	src, ok := c.sources[file]
	if !ok {
		_, err := os.ReadFile(file)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if err == nil {
			err = errors.New("changed while it was checked")
		}
		r.Error = err.Error()
		return r
	}
	m := c.modules[file]
	consts := c.constantsFor(m)
	if m != nil {
		for _, o := range m.Overrides {
			if o.HasDefault {
				continue
			}
			if _, ok := consts[o.Name]; ok {
				continue
			}
			if _, ok := consts[strconv.FormatUint(uint64(o.ID), 10)]; o.HasID && ok {
				continue
			}
			// The library's message names its option (WithConstants):
			// say it with the command's flag, at the declaration.
			r.ErrorType = wgpu.ErrorTypeValidation.String()
			r.Line, r.Column = lineCol(src, o.Decl.Pos())
			r.Error = fmt.Sprintf("override %s has no default: give it a value with -D %s=…", o.Name, o.Name)
			return r
		}
	}
	info, err := wgpu.CheckModule(ctx, src, consts, c.limits)
	if err != nil {
		r.setError(err)
		return r
	}
	r.OK = true
	for _, ep := range info.EntryPoints {
		e := entryPointJSON{Name: ep.Name, Stage: ep.Stage, WorkgroupSize: ep.WorkgroupSize, Bindings: []bindingJSON{}}
		for _, b := range ep.Bindings {
			e.Bindings = append(e.Bindings, bindingJSON{b.Group, b.Index, b.Name, b.Type.String(), b.WGSL, b.MinSize})
		}
		r.EntryPoints = append(r.EntryPoints, e)
	}
	if c.lowered {
		r.Lowered = info.Lowered
	}
	return r
}

// constantsFor returns the -D constants that m declares an override for,
// by name or @id, and notes them used. A source that does not parse (m
// nil) gets them all, each noted used since it may declare it: its check
// then reports why it does not parse.
func (c *wgslChecker) constantsFor(m *wgsl.Module) map[string]float64 {
	if len(c.constants) == 0 {
		return nil
	}
	if m == nil {
		for k := range c.constants {
			c.used[k] = true
		}
		return c.constants
	}
	out := map[string]float64{}
	for _, o := range m.Overrides {
		keys := []string{o.Name}
		if o.HasID {
			keys = append(keys, strconv.FormatUint(uint64(o.ID), 10))
		}
		for _, k := range keys {
			if v, ok := c.constants[k]; ok {
				out[k] = v
				c.used[k] = true
			}
		}
	}
	return out
}

// lineCol returns the 1-based line and column (in characters) of byte
// offset off of src.
func lineCol(src string, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	line = strings.Count(before, "\n") + 1
	return line, utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
}

// position matches the position that starts an error message:
// "wgsl:LINE:COL: " from the WGSL front-end, "LINE:COL: " from naga.
var position = regexp.MustCompile(`^(?:wgsl:)?(\d+):(\d+): `)

// setError records err, splitting off the position that starts its
// message.
func (r *fileReport) setError(err error) {
	msg := err.Error()
	var we *wgpu.Error
	if errors.As(err, &we) {
		msg, r.ErrorType = we.Message, we.Type.String()
	}
	if m := position.FindStringSubmatch(msg); m != nil {
		r.Line, _ = strconv.Atoi(m[1])
		r.Column, _ = strconv.Atoi(m[2])
		msg = msg[len(m[0]):]
	}
	r.Error = msg
}

// print writes r as text: the entry points on stdout, or the error on
// stderr.
func (r *fileReport) print(stdout, stderr io.Writer) {
	if !r.OK {
		switch {
		case r.Line > 0:
			fmt.Fprintf(stderr, "%s:%d:%d: %s\n", r.File, r.Line, r.Column, r.Error)
		default:
			fmt.Fprintf(stderr, "%s: %s\n", r.File, r.Error)
		}
		return
	}
	fmt.Fprintf(stdout, "%s:\n", r.File)
	if len(r.EntryPoints) == 0 {
		fmt.Fprintln(stdout, "  no entry points")
	}
	for _, ep := range r.EntryPoints {
		if ep.Stage == "compute" {
			wg := ep.WorkgroupSize
			fmt.Fprintf(stdout, "  %s: @compute @workgroup_size(%d, %d, %d)\n", ep.Name, wg[0], wg[1], wg[2])
		} else {
			fmt.Fprintf(stdout, "  %s: @%s\n", ep.Name, ep.Stage)
		}
		if len(ep.Bindings) == 0 {
			fmt.Fprintln(stdout, "    no bindings")
			continue
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "    group\tbinding\tname\tkind\ttype\tmin size")
		for _, b := range ep.Bindings {
			fmt.Fprintf(tw, "    %d\t%d\t%s\t%s\t%s\t%d\n", b.Group, b.Binding, b.Name, b.Kind, b.Type, b.MinSize)
		}
		tw.Flush()
	}
	if r.Lowered != "" {
		fmt.Fprintln(stdout, "  lowered (the source the driver gets):")
		for line := range strings.Lines(r.Lowered) {
			if strings.TrimSpace(line) == "" {
				fmt.Fprintln(stdout)
				continue
			}
			fmt.Fprint(stdout, "    ", strings.TrimRight(line, "\n"), "\n")
		}
	}
}
