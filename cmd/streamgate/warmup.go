//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

const warmupSummary = "warm up (discard, compile, autotune), then run the real step with the winners and check it on the CPU"

// The workloads of streamgate warmup.
const (
	workloadModel = "model" // a GPT-2-style decoder (model.go), the default
	workloadOps   = "ops"   // matmul, softmax, sum (kernels.go)
)

func init() {
	register(&command{name: "warmup", summary: warmupSummary, flags: warmupFlags})
}

// warmupConfig is what the warmup flags set.
type warmupConfig struct {
	workload string // workloadModel or workloadOps
	shape           // -workload ops
	model    decoder.Config
	out      string // directory of the model's chart; "" for none
	steps    int
	seed     uint64
	cache    cacheFlags
	timing   string
	json     bool   // print one JSON object (warmupReport), not the text
	adapter  string // wgpu.Options.Adapter
	replay   bool   // -workload model: capture in the warm-up, replay in the real pass

	compileWorkers int // -compile-workers: wgpu.Options.CompileWorkers
}

func warmupFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	var cfg warmupConfig
	fs := newFlagSet("warmup", warmupSummary+".\n\n"+
		modelHelp+
		"With -workload ops, one step is C = A·B (A m×k, B k×n), S = the softmax of each row of C, and\n"+
		"the sum of S; each op picks its kernel through the tuner by op and shape\n"+
		"class. The warm-up pass runs the step once under process mode\n"+
		"CompileAndAutotune; the real pass runs it -steps times under Execute.\n"+
		"A second run finds the winners in the tune cache and measures nothing.\n\n"+
		"In a tune table, score is what the tuner ranks by, lowest first:\n"+
		"(0.75·best + 0.25·median) · (1 + 0.5·IQR/median), so a steady candidate\n"+
		"can beat one with a lower best and median but a wider spread.\n\n"+
		warmupJSONHelp+"\n\n"+
		"Ctrl-C stops the run at the next launch: it says what was tuned and where\n"+
		"it is stored (with -json, the object so far, \"interrupted\": true) and\n"+
		"exits 130; a second Ctrl-C exits at once. The exit status is 0 when the\n"+
		"run and its CPU check pass, 1 when they fail, 2 for a usage error (a\n"+
		"flag, a malformed -cache-url, an unwritable -out, or an explicit -cache\n"+
		"that is not a streamgate tune cache).")
	fs.StringVar(&cfg.workload, "workload", workloadModel, "the step: model (a transformer decoder) or ops (matmul, softmax, sum)")
	modelFlags(fs, &cfg)
	fs.IntVar(&cfg.M, "m", 256, "-workload ops: rows of A and C")
	fs.IntVar(&cfg.N, "n", 256, "-workload ops: columns of B and C")
	fs.IntVar(&cfg.K, "k", 256, "-workload ops: columns of A, rows of B")
	fs.IntVar(&cfg.steps, "steps", 20, "steps of the real pass")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the random weights and inputs")
	cfg.cache.add(fs)
	fs.BoolVar(&cfg.json, "json", false, "print one JSON object instead of the text")
	fs.StringVar(&cfg.timing, "timing", "auto", "how the tuner times samples: auto (GPU timestamps when the device has them) or wall")
	fs.StringVar(&cfg.adapter, "adapter", "", adapterUsage)
	fs.IntVar(&cfg.compileWorkers, "compile-workers", 0, compileWorkersUsage)
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		cfg.cache.parsed(fs)
		switch {
		case cfg.steps < 1:
			return usageFail(stderr, "warmup", "-steps must be at least 1, got %d", cfg.steps)
		case cfg.timing != "auto" && cfg.timing != "wall":
			return usageFail(stderr, "warmup", "-timing must be auto or wall, got %q", cfg.timing)
		case cfg.workload != workloadModel && cfg.workload != workloadOps:
			return usageFail(stderr, "warmup", "-workload must be model or ops, got %q", cfg.workload)
		}
		if bad := otherWorkloadFlags(fs, cfg.workload); bad != "" {
			return usageFail(stderr, "warmup", "%s", bad)
		}
		if cfg.workload == workloadModel {
			cfg.model.Seed = cfg.seed
			if err := cfg.model.Validate(); err != nil {
				return usageFail(stderr, "warmup", "%v", err)
			}
			if mode := os.Getenv(coldChildEnv); mode != "" {
				return modelChild(ctx, mode, cfg, stdout, stderr)
			}
			if err := checkOutDir("-out", cfg.out); err != nil {
				return usageFail(stderr, "warmup", "%v", err)
			}
			return modelWarmup(ctx, cfg, stdout, stderr)
		}
		if cfg.M < 1 || cfg.N < 1 || cfg.K < 1 {
			return usageFail(stderr, "warmup", "-m, -n and -k must be positive, got %d, %d, %d", cfg.M, cfg.N, cfg.K)
		}
		return warmup(ctx, cfg, stdout, stderr)
	}
}

// warmup runs the demo's ops workload; see warmupFlags. It returns the exit
// status.
func warmup(ctx context.Context, cfg warmupConfig, stdout, stderr io.Writer) (code int) {
	rep := warmupReport{Workload: workloadOps, M: cfg.M, N: cfg.N, K: cfg.K, Steps: cfg.steps, Winners: map[string]string{}}
	s, stdout, code := openSetup(cfg.setupConfig(), stdout, stderr)
	if s == nil {
		return code
	}
	defer s.finish(&code, &rep, &rep.Cache)

	fmt.Fprintf(stdout, "streamgate warmup: C = A·B (%d×%d · %d×%d), row softmax of C, sum of the softmax; %d real steps\n",
		cfg.M, cfg.K, cfg.K, cfg.N, cfg.steps)
	rep.Adapter = s.describe(stdout, "")

	w, a, b, err := newWorkload(s.d, cfg.shape, cfg.seed)
	if err != nil {
		return s.fail("%v", err)
	}
	defer w.release()
	rep.Keys, rep.CandidateKernels = len(w.ops), w.kernels
	r := &opsRun{setup: s, cfg: cfg, rep: &rep, stdout: stdout, w: w, a: a, b: b,
		// The work runs to its end once started (a tune, a sync); ctx's
		// end (Ctrl-C) stops it at the next launch boundary.
		ctx: ctx, work: context.WithoutCancel(ctx)}
	return runSteps(r.warmPass, r.realPass, r.cpuCheck)
}

// opsRun is one run of warmup's ops workload, step by step: the warm-up
// pass, the real pass and the CPU check. Each step returns 0 to go on, or
// the command's exit code.
type opsRun struct {
	*setup
	cfg       warmupConfig
	rep       *warmupReport
	stdout    io.Writer
	ctx, work context.Context // work: ctx without its cancellation
	w         *workload
	a, b      []float32 // the step's inputs, for the CPU check

	warmCompiles int64        // the pipelines the warm-up compiled
	warmStats    client.Stats // c's counts after the warm-up
}

// warmPass is step 1: the step runs once in process mode
// CompileAndAutotune; its launches are discarded, its kernels compile and
// its ops are tuned.
func (r *opsRun) warmPass() int {
	d, c, tu, w, rep, stdout, work := r.d, r.c, r.tu, r.w, r.rep, r.stdout, r.work
	fmt.Fprintf(stdout, "\n== 1. warm-up pass, process mode %v: the step runs once; its launches are discarded,\n", r.reg.ProcessMode())
	fmt.Fprintf(stdout, "      its kernels compile, its ops are tuned (measurements execute under Measure overrides)\n")
	st0, start := d.Stats(), time.Now()
	compiles0 := st0.Compiles
	results, err := w.step(r.ctx, tu)
	r.finishProgress()
	for i, res := range results {
		if res.Cached {
			rep.CacheHits++
		} else {
			rep.TunedKeys++
		}
		rep.Winners[w.ops[i].tune.Key] = res.Winner
	}
	if errors.Is(err, errInterrupted) {
		var keys []string
		for i, res := range results {
			if !res.Cached {
				keys = append(keys, w.ops[i].tune.Key)
			}
		}
		return interrupted(r.stderr, rep, "in the warm-up pass", keys, len(w.ops), r.cr)
	}
	if err != nil {
		return r.fail("warm-up step: %v", err)
	}
	if err := c.Sync(work); err != nil {
		return r.fail("warm-up sync: %v", err)
	}
	warmTime, warmCompiles, warmStats := time.Since(start), d.Stats().Compiles-compiles0, c.Stats()
	warmCompile := d.Stats().CompileTime - st0.CompileTime
	rep.WarmupCompileMs, rep.CompileWorkers = ms(warmCompile), d.CompileWorkers()
	rep.LoweringStarts, rep.KernelCache = wgpu.ReadKernelCacheStats().LoweringStarts, kernelCacheState(r.kernels0)
	cached := 0
	for i, o := range w.ops {
		res := results[i]
		r.printTable(stdout, o.tune.Key, res, cached == 0)
		if res.Cached {
			cached++
		}
	}
	rep.WarmupSeconds, rep.WarmupCompiles = warmTime.Seconds(), warmCompiles
	rep.LaunchesDiscarded, rep.MeasurementLaunches = warmStats.Discarded, warmStats.Executed
	rep.LaunchesPerStep = int(warmStats.Discarded)
	fmt.Fprintf(stdout, "\nwarm-up: %v\n", warmTime.Round(time.Millisecond))
	printWarmupCompile(stdout, warmCompile, d.CompileWorkers(), warmCompiles)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (of %d candidate kernels)\n", warmCompiles, w.kernels)
	fmt.Fprintf(stdout, "  launches discarded:        %d (the step's own; compiled now: %d)\n", warmStats.Discarded, warmStats.CompiledNow)
	fmt.Fprintf(stdout, "  measurement launches run:  %d (under Measure overrides)\n", warmStats.Executed)
	tuneSummary(stdout, r.cr, "ops", cached, len(w.ops))
	r.warmCompiles, r.warmStats = warmCompiles, warmStats
	return 0
}

// realPass is step 2: the steps in process mode Execute, with the
// winners; it fails if one compiled a pipeline.
func (r *opsRun) realPass() int {
	d, c, tu, w, rep, stdout, cfg, work := r.d, r.c, r.tu, r.w, r.rep, r.stdout, r.cfg, r.work
	warmCompiles, warmStats := r.warmCompiles, r.warmStats
	var err error
	r.reg.SetProcessMode(registry.ProcessExecute)
	fmt.Fprintf(stdout, "\n== 2. real pass, process mode %v: %d steps with the winners\n", r.reg.ProcessMode(), cfg.steps)
	compiles1 := d.Stats().Compiles
	var total, best time.Duration
	var ran []*tune.Result
	times := make([]time.Duration, 0, cfg.steps)
	for i := range cfg.steps {
		if r.ctx.Err() != nil {
			return interrupted(r.stderr, rep, fmt.Sprintf("in the real pass, after %d of %d steps", i, cfg.steps), nil, len(w.ops), r.cr)
		}
		start := time.Now()
		if ran, err = w.step(work, tu); err != nil {
			return r.fail("real step %d: %v", i+1, err)
		}
		if err := c.Sync(work); err != nil {
			return r.fail("real step %d: sync: %v", i+1, err)
		}
		dt := time.Since(start)
		times = append(times, dt)
		total += dt
		if i == 0 || dt < best {
			best = dt
		}
	}
	realCompiles := d.Stats().Compiles - compiles1
	realStats := c.Stats()
	var winners []string
	for i, o := range w.ops {
		winners = append(winners, o.name+"="+ran[i].Ran)
	}
	rep.RealPassCompiles = realCompiles
	stepFigures(rep, times)
	fmt.Fprintf(stdout, "  kernels:                   %s\n", strings.Join(winners, " "))
	fmt.Fprintf(stdout, "  time per step:             %v (mean of %d; best %v), launch to result\n",
		(total / time.Duration(cfg.steps)).Round(time.Microsecond), cfg.steps, best.Round(time.Microsecond))
	fmt.Fprintf(stdout, "  launches executed:         %d, discarded: %d\n",
		realStats.Executed-warmStats.Executed, realStats.Discarded-warmStats.Discarded)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (compile stalls avoided: %d pipelines were compiled in warm-up)\n",
		realCompiles, warmCompiles)
	if realCompiles != 0 {
		return r.fail("the real pass compiled %d pipelines: the warm-up missed them", realCompiles)
	}
	return 0
}

// cpuCheck is step 3: the last real step's C, softmax and sum against the
// CPU's.
func (r *opsRun) cpuCheck() int {
	w, rep, stdout, cfg, work := r.w, r.rep, r.stdout, r.cfg, r.work
	a, b := r.a, r.b
	gotC, err := wgpu.Read[float32](work, w.c, 0, int(w.c.Size()/4))
	if err != nil {
		return r.fail("reading C: %v", err)
	}
	gotS, err := wgpu.Read[float32](work, w.s, 0, int(w.s.Size()/4))
	if err != nil {
		return r.fail("reading S: %v", err)
	}
	gotSum, err := wgpu.Read[float32](work, w.out, 0, int(w.out.Size()/4))
	if err != nil {
		return r.fail("reading the sum: %v", err)
	}
	mmErr, err1 := checkMatmul(gotC, a, b, cfg.M, cfg.N, cfg.K)
	smErr, err2 := checkSoftmax(gotS, gotC, cfg.M, cfg.N)
	sumErr, err3 := checkSum(gotSum[0], gotS)
	if err := errors.Join(err1, err2, err3); err != nil {
		fmt.Fprintf(stdout, "  CPU check:                 FAILED\n")
		return r.fail("CPU check failed:\n%v", err)
	}
	rep.CPUCheck = true
	rep.MatmulMaxError, rep.SoftmaxMaxError, rep.SumError = mmErr, smErr, sumErr
	rep.MaxAbsError = max(mmErr, smErr, sumErr)
	fmt.Fprintf(stdout, "  CPU check:                 passed (matmul max error %.2g, softmax max error %.2g, sum %.7g error %.2g)\n",
		mmErr, smErr, gotSum[0], sumErr)
	return 0
}

// indent indents each line of s by two spaces.
func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "")
}

// setupConfig is warmup's part of [setupConfig].
func (cfg warmupConfig) setupConfig() setupConfig {
	return setupConfig{cmd: "warmup", cache: cfg.cache, adapter: cfg.adapter, compileWorkers: cfg.compileWorkers, timing: cfg.timing, json: cfg.json}
}
