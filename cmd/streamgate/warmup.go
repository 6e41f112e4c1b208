//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/decoder"
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
	workload  string // workloadModel or workloadOps
	shape            // -workload ops
	model     decoder.Config
	out       string // directory of the model's chart; "" for none
	steps     int
	seed      uint64
	cachePath string
	cacheErr  error  // why there is no default cache path, if there is none
	cacheURL  string // -cache-url: a Redis server shared by a fleet; "" for none
	timing    string
	json      bool   // print one JSON object (warmupReport), not the text
	adapter   string // wgpu.Options.Adapter
	replay    bool   // -workload model: capture in the warm-up, replay in the real pass

	compileWorkers int // -compile-workers: wgpu.Options.CompileWorkers
}

// warmupReport is what warmup -json prints, as one JSON object; its field
// names are stable.
type warmupReport struct {
	Adapter         string  `json:"adapter"`           // the adapter, as describeAdapter formats it
	Cache           string  `json:"cache"`             // the tune cache file asked for; "" for none
	WarmupCompileMs float64 `json:"warmup_compile_ms"` // the warm-up's wgpu.Stats.CompileTime
	CompileWorkers  int     `json:"compile_workers"`
	Warmup          struct {
		Seconds             float64 `json:"seconds"`
		PipelinesCompiled   int64   `json:"pipelines_compiled"`
		CandidateKernels    int     `json:"candidate_kernels"`
		LaunchesDiscarded   uint64  `json:"launches_discarded"`
		LaunchesCompiledNow uint64  `json:"launches_compiled_now"`
		MeasurementLaunches uint64  `json:"measurement_launches"`
		Ops                 int     `json:"ops"`
		OpsCached           int     `json:"ops_cached"` // ops whose winner came from the tune cache
	} `json:"warmup"`
	Real struct {
		Steps             int               `json:"steps"`
		Kernels           map[string]string `json:"kernels"` // op → the winner that ran
		MeanStepSeconds   float64           `json:"mean_step_seconds"`
		BestStepSeconds   float64           `json:"best_step_seconds"`
		LaunchesExecuted  uint64            `json:"launches_executed"`
		LaunchesDiscarded uint64            `json:"launches_discarded"`
		PipelinesCompiled int64             `json:"pipelines_compiled"` // 0: the warm-up compiled everything
	} `json:"real"`
	Check struct {
		Passed          bool    `json:"passed"`
		MatmulMaxError  float64 `json:"matmul_max_error"`
		SoftmaxMaxError float64 `json:"softmax_max_error"`
		SumError        float64 `json:"sum_error"`
	} `json:"check"`
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
		"With -json it prints one JSON object instead of the text (tune progress\n"+
		"still goes to stderr); for -workload ops:\n"+
		`  {"adapter", "cache", "warmup_compile_ms", "compile_workers",`+"\n"+
		`   "warmup": {"seconds", "pipelines_compiled", "candidate_kernels", "launches_discarded",`+"\n"+
		`              "launches_compiled_now", "measurement_launches", "ops", "ops_cached"},`+"\n"+
		`   "real": {"steps", "kernels": {op: winner}, "mean_step_seconds", "best_step_seconds",`+"\n"+
		`            "launches_executed", "launches_discarded", "pipelines_compiled"},`+"\n"+
		`   "check": {"passed", "matmul_max_error", "softmax_max_error", "sum_error"}}`)
	fs.StringVar(&cfg.workload, "workload", workloadModel, "the step: model (a transformer decoder) or ops (matmul, softmax, sum)")
	modelFlags(fs, &cfg)
	fs.IntVar(&cfg.M, "m", 256, "-workload ops: rows of A and C")
	fs.IntVar(&cfg.N, "n", 256, "-workload ops: columns of B and C")
	fs.IntVar(&cfg.K, "k", 256, "-workload ops: columns of A, rows of B")
	fs.IntVar(&cfg.steps, "steps", 20, "steps of the real pass")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the random weights and inputs")
	def, err := tune.DefaultCachePath()
	cfg.cacheErr = err
	fs.StringVar(&cfg.cachePath, "cache", def, `tune cache file (SQLite); "" remembers nothing between runs`)
	fs.StringVar(&cfg.cacheURL, "cache-url", "", cacheURLUsage)
	fs.BoolVar(&cfg.json, "json", false, "print one JSON object instead of the text")
	fs.StringVar(&cfg.timing, "timing", "auto", "how the tuner times samples: auto (GPU timestamps when the device has them) or wall")
	fs.StringVar(&cfg.adapter, "adapter", "", adapterUsage)
	fs.IntVar(&cfg.compileWorkers, "compile-workers", 0, compileWorkersUsage)
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		switch {
		case cfg.steps < 1:
			fmt.Fprintf(stderr, "streamgate warmup: -steps must be at least 1, got %d\n", cfg.steps)
			return 2
		case cfg.timing != "auto" && cfg.timing != "wall":
			fmt.Fprintf(stderr, "streamgate warmup: -timing must be auto or wall, got %q\n", cfg.timing)
			return 2
		case cfg.workload != workloadModel && cfg.workload != workloadOps:
			fmt.Fprintf(stderr, "streamgate warmup: -workload must be model or ops, got %q\n", cfg.workload)
			return 2
		}
		if bad := otherWorkloadFlags(fs, cfg.workload); bad != "" {
			fmt.Fprintf(stderr, "streamgate warmup: %s\n", bad)
			return 2
		}
		if cfg.workload == workloadModel {
			cfg.model.Seed = cfg.seed
			if err := cfg.model.Validate(); err != nil {
				fmt.Fprintf(stderr, "streamgate warmup: %v\n", err)
				return 2
			}
			return modelWarmup(ctx, cfg, stdout, stderr)
		}
		if cfg.M < 1 || cfg.N < 1 || cfg.K < 1 {
			fmt.Fprintf(stderr, "streamgate warmup: -m, -n and -k must be positive, got %d, %d, %d\n", cfg.M, cfg.N, cfg.K)
			return 2
		}
		return warmup(ctx, cfg, stdout, stderr)
	}
}

// warmup runs the demo's ops workload; see warmupFlags. It returns the exit
// status.
func warmup(ctx context.Context, cfg warmupConfig, stdout, stderr io.Writer) (code int) {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "streamgate warmup: "+format+"\n", args...)
		return 1
	}
	var rep warmupReport
	if cfg.json {
		text := stdout
		stdout = io.Discard
		defer func() {
			if code == 0 {
				code = writeJSON(text, rep)
			}
		}()
	}
	wgpu.StartLowering() // beside opening the device and the setup (issue 32)
	d, err := wgpu.Open(wgpu.Options{Adapter: cfg.adapter, CompileWorkers: cfg.compileWorkers})
	if errors.Is(err, wgpu.ErrNoAdapter) && cfg.adapter == "" {
		return fail("no WebGPU adapter: %v\n(on a machine without a GPU, install Mesa's lavapipe: make deps-gpu)", err)
	}
	if err != nil {
		return fail("opening the device: %v", err)
	}
	defer d.Close()

	fmt.Fprintf(stdout, "streamgate warmup: C = A·B (%d×%d · %d×%d), row softmax of C, sum of the softmax; %d real steps\n",
		cfg.M, cfg.K, cfg.K, cfg.N, cfg.steps)
	fmt.Fprintf(stdout, "adapter: %s\n", describeAdapter(d.Info()))
	rep.Adapter, rep.Cache = describeAdapter(d.Info()), cfg.cachePath
	cache := openTuneCache(cfg.cachePath, cfg.cacheErr, cfg.cacheURL, stdout, stderr)
	defer cache.Close()

	w, a, b, err := newWorkload(d, cfg.shape, cfg.seed)
	if err != nil {
		return fail("%v", err)
	}
	defer w.release()

	// The program's own client and tuner, on the process's registry: the
	// way a production program uses streamgate.
	reg := registry.Default
	c := client.New(d, client.WithRegistry(reg))
	defer c.Close()
	report, finishProgress := tuneProgress(stderr)
	opts := []tune.Option{tune.WithCache(cache), tune.WithProgress(report)}
	if cfg.timing == "wall" {
		opts = append(opts, tune.WithTiming(tune.TimingWall))
	}
	tu := tune.New(c, opts...)
	prev := reg.SetProcessMode(registry.ProcessCompileAndAutotune)
	defer reg.SetProcessMode(prev)

	// 1. The warm-up pass.
	fmt.Fprintf(stdout, "\n== 1. warm-up pass, process mode %v: the step runs once; its launches are discarded,\n", reg.ProcessMode())
	fmt.Fprintf(stdout, "      its kernels compile, its ops are tuned (measurements execute under Measure overrides)\n")
	st0, start := d.Stats(), time.Now()
	compiles0 := st0.Compiles
	results, err := w.step(ctx, tu)
	finishProgress()
	if err != nil {
		return fail("warm-up step: %v", err)
	}
	if err := c.Sync(ctx); err != nil {
		return fail("warm-up sync: %v", err)
	}
	warmTime, warmCompiles, warmStats := time.Since(start), d.Stats().Compiles-compiles0, c.Stats()
	warmCompile := d.Stats().CompileTime - st0.CompileTime
	rep.WarmupCompileMs, rep.CompileWorkers = ms(warmCompile), d.CompileWorkers()
	cached := 0
	for i, o := range w.ops {
		res := results[i]
		if !res.Cached || cached == 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprint(stdout, indent(res.Table()))
		for _, warn := range res.Warnings {
			fmt.Fprintf(stderr, "streamgate warmup: warning: %s: %s\n", o.tune.Key, warn)
		}
		if res.Cached {
			cached++
		}
	}
	rep.Warmup.Seconds = warmTime.Seconds()
	rep.Warmup.PipelinesCompiled, rep.Warmup.CandidateKernels = warmCompiles, w.kernels
	rep.Warmup.LaunchesDiscarded, rep.Warmup.LaunchesCompiledNow = warmStats.Discarded, warmStats.CompiledNow
	rep.Warmup.MeasurementLaunches = warmStats.Executed
	rep.Warmup.Ops, rep.Warmup.OpsCached = len(w.ops), cached
	fmt.Fprintf(stdout, "\nwarm-up: %v\n", warmTime.Round(time.Millisecond))
	printWarmupCompile(stdout, warmCompile, d.CompileWorkers(), warmCompiles)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (of %d candidate kernels)\n", warmCompiles, w.kernels)
	fmt.Fprintf(stdout, "  launches discarded:        %d (the step's own; compiled now: %d)\n", warmStats.Discarded, warmStats.CompiledNow)
	fmt.Fprintf(stdout, "  measurement launches run:  %d (under Measure overrides)\n", warmStats.Executed)
	switch cached {
	case len(w.ops):
		fmt.Fprintf(stdout, "  tune cache hit for all %d ops: nothing was measured\n", cached)
	case 0:
		fmt.Fprintf(stdout, "  tuned %d ops; the winners are stored in the tune cache\n", len(w.ops))
	default:
		fmt.Fprintf(stdout, "  tune cache hit for %d of %d ops; the others were measured\n", cached, len(w.ops))
	}

	// 2. The real pass.
	reg.SetProcessMode(registry.ProcessExecute)
	fmt.Fprintf(stdout, "\n== 2. real pass, process mode %v: %d steps with the winners\n", reg.ProcessMode(), cfg.steps)
	compiles1 := d.Stats().Compiles
	var total, best time.Duration
	var ran []*tune.Result
	for i := range cfg.steps {
		start := time.Now()
		if ran, err = w.step(ctx, tu); err != nil {
			return fail("real step %d: %v", i+1, err)
		}
		if err := c.Sync(ctx); err != nil {
			return fail("real step %d: sync: %v", i+1, err)
		}
		dt := time.Since(start)
		total += dt
		if i == 0 || dt < best {
			best = dt
		}
	}
	realCompiles := d.Stats().Compiles - compiles1
	realStats := c.Stats()
	var winners []string
	rep.Real.Kernels = map[string]string{}
	for i, o := range w.ops {
		winners = append(winners, o.name+"="+ran[i].Ran)
		rep.Real.Kernels[o.name] = ran[i].Ran
	}
	rep.Real.Steps = cfg.steps
	rep.Real.MeanStepSeconds, rep.Real.BestStepSeconds = (total / time.Duration(cfg.steps)).Seconds(), best.Seconds()
	rep.Real.LaunchesExecuted = realStats.Executed - warmStats.Executed
	rep.Real.LaunchesDiscarded = realStats.Discarded - warmStats.Discarded
	rep.Real.PipelinesCompiled = realCompiles
	fmt.Fprintf(stdout, "  kernels:                   %s\n", strings.Join(winners, " "))
	fmt.Fprintf(stdout, "  time per step:             %v (mean of %d; best %v), launch to result\n",
		(total / time.Duration(cfg.steps)).Round(time.Microsecond), cfg.steps, best.Round(time.Microsecond))
	fmt.Fprintf(stdout, "  launches executed:         %d, discarded: %d\n",
		realStats.Executed-warmStats.Executed, realStats.Discarded-warmStats.Discarded)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (compile stalls avoided: %d pipelines were compiled in warm-up)\n",
		realCompiles, warmCompiles)
	if realCompiles != 0 {
		return fail("the real pass compiled %d pipelines: the warm-up missed them", realCompiles)
	}

	// 3. The CPU check of the last real step.
	gotC, err := wgpu.Read[float32](ctx, w.c, 0, int(w.c.Size()/4))
	if err != nil {
		return fail("reading C: %v", err)
	}
	gotS, err := wgpu.Read[float32](ctx, w.s, 0, int(w.s.Size()/4))
	if err != nil {
		return fail("reading S: %v", err)
	}
	gotSum, err := wgpu.Read[float32](ctx, w.out, 0, int(w.out.Size()/4))
	if err != nil {
		return fail("reading the sum: %v", err)
	}
	mmErr, err1 := checkMatmul(gotC, a, b, cfg.M, cfg.N, cfg.K)
	smErr, err2 := checkSoftmax(gotS, gotC, cfg.M, cfg.N)
	sumErr, err3 := checkSum(gotSum[0], gotS)
	if err := errors.Join(err1, err2, err3); err != nil {
		fmt.Fprintf(stdout, "  CPU check:                 FAILED\n")
		return fail("CPU check failed:\n%v", err)
	}
	rep.Check.Passed = true
	rep.Check.MatmulMaxError, rep.Check.SoftmaxMaxError, rep.Check.SumError = mmErr, smErr, sumErr
	fmt.Fprintf(stdout, "  CPU check:                 passed (matmul max error %.2g, softmax max error %.2g, sum %.7g error %.2g)\n",
		mmErr, smErr, gotSum[0], sumErr)
	return 0
}

// describeAdapter formats an adapter on one line.
func describeAdapter(i wgpu.AdapterInfo) string {
	ts := "no"
	if i.Timestamps {
		ts = "yes"
	}
	s := fmt.Sprintf("%s [%v, %v", i.Name, i.Type, i.Backend)
	if i.Driver != "" {
		s += ", " + i.Driver
	}
	return s + "], timestamps: " + ts
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
