//go:build cgo

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/streamgate/streamgate/client"
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
}

// openSetup opens the cache, the device, the client and the tuner and sets
// the process mode CompileAndAutotune; close undoes it all. On an error it
// prints it and returns nil and the exit code.
func openSetup(cfg setupConfig, stderr io.Writer) (*setup, int) {
	s := &setup{cmd: cfg.cmd, stderr: stderr, log: newCmdLog(cfg.cmd, stderr)}
	cache, cr, err := openTuneCache(cfg.cache, s.log)
	if err != nil {
		return nil, usageFail(stderr, cfg.cmd, "%v", err)
	}
	s.cache, s.cr = cache, cr
	wgpu.StartLowering() // beside opening the device and the setup (issue 32)
	d, err := wgpu.Open(wgpu.Options{Adapter: cfg.adapter, CompileWorkers: cfg.compileWorkers})
	if errors.Is(err, wgpu.ErrNoAdapter) && cfg.adapter == "" {
		cache.Close()
		return nil, s.fail("no WebGPU adapter: %v\n(on a machine without a GPU, install Mesa's lavapipe: make deps-gpu)", err)
	}
	if err != nil {
		cache.Close()
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
	s.cache.Close()
}

// fail prints "streamgate CMD: " and the message on stderr and returns 1.
func (s *setup) fail(format string, args ...any) int {
	fmt.Fprintf(s.stderr, "streamgate "+s.cmd+": "+format+"\n", args...)
	return 1
}

// jsonOutput, with -json, is deferred with the text output's writer: it
// writes the report rep returns when the command succeeded or was
// interrupted, and sets *code to writeJSON's if that fails. rep is called
// then, after the command filled the report in.
func (s *setup) jsonOutput(code *int, w io.Writer, rep func() any) {
	if *code == 0 || *code == exitInterrupted {
		if c := writeJSON(w, rep()); c != 0 {
			*code = c
		}
	}
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
