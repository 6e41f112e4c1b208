//go:build cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// setupConfig is what [openSetup] reads from a workload subcommand's flags.
type setupConfig struct {
	cmd            string // the subcommand, in messages: "warmup", "generate"
	cache          cacheFlags
	adapter        string // wgpu.Options.Adapter
	compileWorkers int    // wgpu.Options.CompileWorkers
	timing         string // -timing: "wall" for tune.TimingWall
	json           bool   // -json: the report on stdout as JSON, and no text
}

// setup is what every workload subcommand (warmup's two workloads and
// generate) runs on: the tune cache, the device, the program's own client
// and tuner on the process's registry (the way a production program uses
// streamgate), and the process mode CompileAndAutotune for the warm-up.
type setup struct {
	cmd            string
	stderr         io.Writer
	log            *cmdLog
	cache          tune.Cache
	cr             *cacheReport
	d              *wgpu.Device
	reg            *registry.Registry
	c              *client.Client
	tu             *tune.Tuner
	finishProgress func() // ends the terminal's progress bar of the tuning
	prevMode       registry.ProcessMode
	bundle         *bundleInUse          // -bundle's; nil for none
	jsonOut        io.Writer             // with -json, where the report goes; nil without
	openMs         float64               // wgpu.Open took this long
	kernels0       wgpu.KernelCacheStats // the kernel cache's counts before the setup
	prevKernels    wgpu.KernelStore      // the process's kernel store before the setup, if kernelsSet
	kernelsSet     bool                  // the setup set the kernel store (Redis shares kernels)
}

// openSetup opens the cache, the device, the client and the tuner and sets
// the process mode CompileAndAutotune; finish undoes it all. It returns
// the writer of the text report: stdout, or io.Discard with -json, whose
// report finish writes on stdout. On an error it prints it and returns nil
// and the exit code.
func openSetup(cfg setupConfig, stdout, stderr io.Writer) (*setup, io.Writer, int) {
	s, code := openSetupOn(cfg, stderr)
	if s == nil {
		return nil, stdout, code
	}
	if cfg.json {
		s.jsonOut, stdout = stdout, io.Discard
	}
	return s, stdout, 0
}

// openSetupOn is openSetup but for the report's writer.
func openSetupOn(cfg setupConfig, stderr io.Writer) (*setup, int) {
	s := &setup{cmd: cfg.cmd, stderr: stderr, log: newCmdLog(cfg.cmd, stderr)}
	cache, cr, err := openTuneCache(cfg.cache, s.log)
	if err != nil {
		return nil, usageFail(stderr, cfg.cmd, "%v", err)
	}
	s.kernels0 = wgpu.ReadKernelCacheStats()
	if ks, ok := cache.(wgpu.KernelStore); ok && cfg.cache.url != "" {
		// With Redis the fleet shares kernels too: the tune cache keeps
		// them (the -cache file, else memory) and Redis shares them.
		s.prevKernels, s.kernelsSet = wgpu.SetKernelStore(ks), true
	}
	if cfg.cache.bundle != "" {
		if s.bundle, err = useBundle(cfg.cache.bundle, cache); err != nil {
			s.restoreKernels()
			cache.Close()
			return nil, usageFail(stderr, cfg.cmd, "-bundle %v", err)
		}
		cache = s.bundle.cache
	}
	s.cache, s.cr = cache, cr
	wgpu.StartLowering() // overlaps the compiler's start with opening the device, unless the kernels are there
	openStart := time.Now()
	d, err := wgpu.Open(wgpu.Options{Adapter: cfg.adapter, CompileWorkers: cfg.compileWorkers})
	s.openMs = ms(time.Since(openStart))
	if errors.Is(err, wgpu.ErrNoAdapter) && cfg.adapter == "" {
		s.closeCaches()
		return nil, s.fail("no WebGPU adapter: %v\n(on a machine without a GPU, install Mesa's lavapipe: make deps-gpu)", err)
	}
	if err != nil {
		s.closeCaches()
		return nil, s.fail("opening the device: %v", err)
	}
	s.d = d
	s.reg = registry.Default
	s.c = client.New(d, client.WithRegistry(s.reg))
	report, finish := tuneProgress(stderr)
	s.finishProgress = finish
	opts := []tune.Option{tune.WithCache(cache), tune.WithProgress(report), tune.WithLogger(quietLogger)}
	if cfg.timing == "wall" {
		opts = append(opts, tune.WithTiming(tune.TimingWall))
	}
	s.tu = tune.New(s.c, opts...)
	s.prevMode = s.reg.SetProcessMode(registry.ProcessCompileAndAutotune)
	return s, 0
}

// close restores the process mode and closes the client, the device and
// the cache, in that order.
func (s *setup) close() {
	s.reg.SetProcessMode(s.prevMode)
	s.c.Close()
	s.d.Close()
	s.closeCaches()
}

// closeCaches closes the tune cache and puts back the kernel store the
// process had: -bundle's and -cache-url's replaced it.
func (s *setup) closeCaches() {
	s.cache.Close()
	if s.bundle != nil {
		wgpu.SetKernelStore(s.bundle.prevKernels)
	}
	s.restoreKernels()
}

// restoreKernels gives the process back the kernel store it had before
// the setup, if the setup set one.
func (s *setup) restoreKernels() {
	if s.kernelsSet {
		wgpu.SetKernelStore(s.prevKernels)
		s.kernelsSet = false
	}
}

// fail prints "streamgate CMD: " and the message on stderr and returns 1.
func (s *setup) fail(format string, args ...any) int {
	fmt.Fprintf(s.stderr, "streamgate "+s.cmd+": "+format+"\n", args...)
	return 1
}

// finish is deferred by the subcommand with the exit status it returns,
// its report (a pointer) and the report's cache field. With -json it
// writes the report, the cache's state filled in, when the command
// succeeded or was interrupted, and sets *code to writeJSON's if that
// fails. Then it closes the setup.
func (s *setup) finish(code *int, rep any, cache *cacheJSON) {
	if s.jsonOut != nil && (*code == 0 || *code == exitInterrupted) {
		*cache = s.cr.json()
		if c := writeJSON(s.jsonOut, rep); c != 0 {
			*code = c
		}
	}
	s.close()
}

// describe prints the adapter, the lines more ("" for none) and the tune
// cache's state: the head of every workload's text report. It returns the
// adapter's description, for the report.
func (s *setup) describe(stdout io.Writer, more string) string {
	adapter := genrun.DescribeAdapter(s.d.Info())
	fmt.Fprintf(stdout, "adapter: %s\n%s", adapter, more)
	s.cr.status(stdout)
	if s.bundle != nil {
		fmt.Fprintln(stdout, s.bundle.status())
	}
	return adapter
}

// printTable prints a key's tune table after the warm-up, with a blank
// line before it unless it is a cached key's after the first cached one,
// and logs the result's warnings.
func (s *setup) printTable(stdout io.Writer, key string, res *tune.Result, firstCached bool) {
	if !res.Cached || firstCached {
		fmt.Fprintln(stdout)
	}
	fmt.Fprint(stdout, indent(res.Table()))
	for _, warn := range res.Warnings {
		s.log.warnf("%s: %s", key, warn)
	}
}

// tuning is what a decoder workload's run keeps of its tuning: the ops
// with a tune key, the launch that tunes each key at its first use, and
// the keys picked so far.
type tuning struct {
	tunable []*decoder.Op
	launch  func(*decoder.Op, []gpu.Buffer) error
	tuned   []string        // the keys measured so far, in order
	seen    map[string]bool // the keys picked so far
}

// startTuning returns the tuning of ops on s's tuner: its launch records
// each key's winner in winners and, the first time a key is picked, adds
// it to tuned when it was measured, or calls cached (nil for nothing) when
// it came from the cache.
func (s *setup) startTuning(ctx context.Context, ops []*decoder.Op, winners map[string]string, cached func()) *tuning {
	t := &tuning{seen: map[string]bool{}}
	for _, o := range ops {
		if o.Tunable() {
			t.tunable = append(t.tunable, o)
		}
	}
	t.launch = genrun.TunedLaunch(ctx, s.tu, s.c, func(o *decoder.Op, res *tune.Result) {
		winners[o.Key] = res.Winner
		if !t.seen[o.Key] {
			t.seen[o.Key] = true
			if !res.Cached {
				t.tuned = append(t.tuned, o.Key)
			} else if cached != nil {
				cached()
			}
		}
	})
	return t
}

// printTables prints the tune table of each key of tunable, picked again
// after the warm-up tuned them or found them in the cache, with
// printTable; it counts the keys found in the cache into *hits and the
// others into *tunedKeys and, with winners, records each key's winner. It
// returns 0, or the exit status of a failed pick.
func (s *setup) printTables(ctx context.Context, stdout io.Writer, tunable []*decoder.Op, hits, tunedKeys *int, winners map[string]string) int {
	printedHit := false
	for _, o := range tunable {
		_, res, err := s.tu.Pick(ctx, o.Tune)
		if err != nil {
			return s.fail("%s: %v", o.Key, err)
		}
		s.printTable(stdout, o.Key, res, !printedHit)
		if res.Cached {
			*hits++
			printedHit = true
		} else {
			*tunedKeys++
		}
		if winners != nil {
			winners[o.Key] = res.Winner
		}
	}
	return 0
}

// runSteps runs a subcommand's steps in order until one returns an exit
// code other than 0, and returns it: 0 when every step went on.
func runSteps(steps ...func() int) int {
	for _, step := range steps {
		if code := step(); code != 0 {
			return code
		}
	}
	return 0
}
