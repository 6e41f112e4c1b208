//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// modelHelp is the model workload's part of streamgate help warmup.
const modelHelp = "By default (-workload model) one step is the forward pass of a GPT-2-style\n" +
	"decoder (package internal/workload/decoder) over -seq tokens, on random weights from\n" +
	"-seed: embeddings; per layer a layer norm, the QKV projection, causal\n" +
	"attention (scores and mask, softmax, weighted sum), the output projection, a\n" +
	"residual add, a layer norm, the MLP (up, GELU, down) and a residual add; a\n" +
	"final layer norm and the logits. Matmuls (one tune key per shape), the layer\n" +
	"norm and the attention softmax are tuned. The warm-up pass runs the step once\n" +
	"under CompileAndAutotune, the real pass -steps times under Execute, its\n" +
	"activations from the device's buffer pool; the logits are checked against a\n" +
	"float64 CPU reference. Then the command re-executes itself as a child with\n" +
	"empty caches (the process's lowering and pipeline caches; the driver's shader\n" +
	"cache off: MESA_SHADER_CACHE_DISABLE=true and MESA_SHADER_CACHE_DIR an empty\n" +
	"folder, on Mesa; other drivers' caches are not cleared) and the winners the\n" +
	"warm run decided, and runs the same step cold (no warm-up: its pipelines\n" +
	"compile at their launches), as generate measures its cold figures. A chart\n" +
	"of the cold first step, the warm first step and the steady state goes to\n" +
	"-out.\n\n" +
	"With -replay the warm-up pass is a capture (client.Capture): the step's\n" +
	"launches compile and are recorded into a graph, executing nothing, its keys\n" +
	"tuned first; the real pass replays the graph each step (client.Replay), its\n" +
	"activations fixed (the graph's buffers).\n\n"

// modelFlags adds the model workload's flags to fs.
func modelFlags(fs *flag.FlagSet, cfg *warmupConfig) {
	fs.IntVar(&cfg.model.Layers, "layers", 4, "-workload model: decoder layers")
	fs.IntVar(&cfg.model.Width, "width", 128, "-workload model: model width (a multiple of -heads)")
	fs.IntVar(&cfg.model.Heads, "heads", 4, "-workload model: attention heads")
	fs.IntVar(&cfg.model.Seq, "seq", 64, "-workload model: tokens per step")
	fs.IntVar(&cfg.model.Vocab, "vocab", 1000, "-workload model: vocabulary size")
	fs.StringVar(&cfg.out, "out", filepath.Join("out", "bench"), `-workload model: directory of the chart (model-steps.png, .svg); "" for none`)
	fs.BoolVar(&cfg.replay, "replay", false, "-workload model: capture the step in the warm-up pass and replay the graph in the real pass")
}

// otherWorkloadFlags names a flag set on the command line that only the
// other workload reads, or returns "".
func otherWorkloadFlags(fs *flag.FlagSet, workload string) string {
	ops := map[string]bool{"m": true, "n": true, "k": true}
	model := map[string]bool{"layers": true, "width": true, "heads": true, "seq": true, "vocab": true, "out": true, "replay": true}
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		if (workload == workloadModel && ops[f.Name]) || (workload == workloadOps && model[f.Name]) {
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: not a flag of -workload %s", strings.Join(bad, ", "), workload)
}

// modelWarmup runs the model workload; see modelHelp. It returns the exit
// status.
func modelWarmup(ctx context.Context, cfg warmupConfig, stdout, stderr io.Writer) (code int) {
	mc := cfg.model
	rep := warmupReport{Workload: workloadModel, Layers: mc.Layers, Width: mc.Width, Heads: mc.Heads,
		Seq: mc.Seq, Vocab: mc.Vocab, Steps: cfg.steps, Winners: map[string]string{}, Replay: cfg.replay}
	s, stdout, code := openSetup(cfg.setupConfig(), stdout, stderr)
	if s == nil {
		return code
	}
	defer s.finish(&code, &rep, &rep.Cache)

	fmt.Fprintf(stdout, "streamgate warmup: a GPT-2-style decoder, %d layers, width %d, %d heads, %d tokens, vocabulary %d: %d launches a step; %d real steps\n",
		mc.Layers, mc.Width, mc.Heads, mc.Seq, mc.Vocab, mc.Launches(), cfg.steps)
	rep.Adapter = s.describe(stdout, "")

	weights := decoder.NewWeights(mc)
	m, err := decoder.NewModel(s.d, mc, weights, !cfg.replay) // a graph's buffers are fixed: no pool
	if err != nil {
		return s.fail("%v", err)
	}
	defer m.Release()
	rep.LaunchesPerStep = len(m.Launches())
	r := &modelRun{setup: s, cfg: cfg, rep: &rep, stdout: stdout, m: m, weights: weights,
		// The work runs to its end once started (a tune, a sync); ctx's
		// end (Ctrl-C) stops it at the next launch boundary.
		ctx: ctx, work: context.WithoutCancel(ctx)}
	r.tuning = s.startTuning(ctx, m.Ops(), rep.Winners, func() { rep.CacheHits++ })
	rep.Keys, rep.CandidateKernels = len(r.tunable), len(m.Kernels())
	defer func() {
		if r.graph != nil {
			r.graph.Release()
		}
	}()
	return runSteps(r.warmPass, r.realPass, r.cpuCheck, r.coldPass, r.chart)
}

// modelRun is one run of warmup's model workload, step by step: the
// warm-up pass, the real pass, the CPU check, the cold step and the chart.
// Each step returns 0 to go on, or the command's exit code.
type modelRun struct {
	*setup
	cfg       warmupConfig
	rep       *warmupReport
	stdout    io.Writer
	ctx, work context.Context // work: ctx without its cancellation
	m         *decoder.Model
	weights   *decoder.Weights
	*tuning
	graph *client.Graph // -replay: the step, captured in the warm-up

	warmCompiles int64        // the pipelines the warm-up compiled
	warmStats    client.Stats // c's counts after the warm-up
	want         []float64    // the reference logits
}

// warmPass is step 1: the step runs (or is captured) once in process mode
// CompileAndAutotune; its kernels compile and its tunable keys are tuned.
func (r *modelRun) warmPass() int {
	d, c, rep, stdout, mc := r.d, r.c, r.rep, r.stdout, r.cfg.model
	if r.cfg.replay {
		fmt.Fprintf(stdout, "\n== 1. warm-up pass, process mode %v: the step is captured once; its %d launches are recorded\n", r.reg.ProcessMode(), mc.Launches())
		fmt.Fprintf(stdout, "      into a graph, executing nothing, its kernels compile, its %d tunable keys are tuned first\n", len(r.tunable))
		fmt.Fprintf(stdout, "      (measurements execute under Measure overrides, on a fork of the client, outside the graph)\n")
	} else {
		fmt.Fprintf(stdout, "\n== 1. warm-up pass, process mode %v: the step runs once; its %d launches are discarded,\n", r.reg.ProcessMode(), mc.Launches())
		fmt.Fprintf(stdout, "      its kernels compile, its %d tunable keys are tuned (measurements execute under Measure overrides)\n", len(r.tunable))
	}
	st0, start := d.Stats(), time.Now()
	compiles0 := st0.Compiles
	var err error
	if r.cfg.replay {
		var graph *client.Graph
		graph, err = c.Capture(func() error { return r.m.Step(r.launch) })
		if err == nil {
			r.graph = graph
		}
	} else {
		err = r.m.Step(r.launch)
	}
	r.finishProgress()
	if errors.Is(err, errInterrupted) {
		rep.TunedKeys = len(r.tuned)
		return interrupted(r.stderr, rep, "in the warm-up pass", r.tuned, len(r.tunable), r.cr)
	}
	if err != nil {
		return r.fail("warm-up step: %v", err)
	}
	if err := c.Sync(r.work); err != nil {
		return r.fail("warm-up sync: %v", err)
	}
	rep.CacheHits = 0 // counted again below, with the tables
	warmTime, warmCompiles, warmStats := time.Since(start), d.Stats().Compiles-compiles0, c.Stats()
	r.warmCompiles, r.warmStats = warmCompiles, warmStats
	warmCompile := d.Stats().CompileTime - st0.CompileTime
	rep.WarmupCompileMs, rep.CompileWorkers = ms(warmCompile), d.CompileWorkers()
	rep.LoweringStarts, rep.KernelCache = wgpu.ReadKernelCacheStats().LoweringStarts, kernelCacheState(r.kernels0)
	if code := r.printTables(r.work, stdout, r.tunable, &rep.CacheHits, &rep.TunedKeys, nil); code != 0 {
		return code
	}
	// Measurements through a fork of the capturing client are that
	// client's counts, not c's: the process totals have both.
	measured := client.ServiceStats()[d.ServiceID()].Executed
	rep.WarmupSeconds, rep.WarmupCompiles, rep.MeasurementLaunches = warmTime.Seconds(), warmCompiles, measured
	rep.LaunchesCaptured, rep.LaunchesDiscarded = warmStats.Captured, warmStats.Discarded
	fmt.Fprintf(stdout, "\nwarm-up: %v\n", warmTime.Round(time.Millisecond))
	printWarmupCompile(stdout, warmCompile, d.CompileWorkers(), warmCompiles)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (of %d candidate kernels)\n", warmCompiles, rep.CandidateKernels)
	if r.cfg.replay {
		fmt.Fprintf(stdout, "  launches captured:         %d (the step's own, into a graph: none executed)\n", warmStats.Captured)
	} else {
		fmt.Fprintf(stdout, "  launches discarded:        %d (the step's own; compiled now: %d)\n", warmStats.Discarded, warmStats.CompiledNow)
	}
	fmt.Fprintf(stdout, "  measurement launches run:  %d (under Measure overrides)\n", measured)
	tuneSummary(stdout, r.cr, "keys", rep.CacheHits, len(r.tunable))
	return 0
}

// realPass is step 2: the steps (or the graph's replays) in process mode
// Execute, with the winners; it fails if one compiled a pipeline.
func (r *modelRun) realPass() int {
	d, c, rep, stdout, cfg, mc := r.d, r.c, r.rep, r.stdout, r.cfg, r.cfg.model
	r.reg.SetProcessMode(registry.ProcessExecute)
	if cfg.replay {
		fmt.Fprintf(stdout, "\n== 2. real pass, process mode %v: %d replays of the graph\n", r.reg.ProcessMode(), cfg.steps)
	} else {
		fmt.Fprintf(stdout, "\n== 2. real pass, process mode %v: %d steps with the winners\n", r.reg.ProcessMode(), cfg.steps)
	}
	compiles1 := d.Stats().Compiles
	times := make([]time.Duration, cfg.steps)
	var created1 int64
	for i := range times {
		if r.ctx.Err() != nil {
			stepFigures(rep, times[:i])
			return interrupted(r.stderr, rep, fmt.Sprintf("in the real pass, after %d of %d steps", i, cfg.steps), nil, len(r.tunable), r.cr)
		}
		start := time.Now()
		var err error
		if cfg.replay {
			err = c.Replay(r.graph)
		} else {
			err = r.m.Step(r.launch)
		}
		if err != nil {
			return r.fail("real step %d: %v", i+1, err)
		}
		if err := c.Sync(r.work); err != nil {
			return r.fail("real step %d: sync: %v", i+1, err)
		}
		times[i] = time.Since(start)
		if i == 0 {
			created1 = d.Stats().BuffersCreated
		}
	}
	rep.RealBuffersCreated = d.Stats().BuffersCreated - created1
	rep.RealPassCompiles = d.Stats().Compiles - compiles1
	realStats := c.Stats()
	var winners []string
	for _, o := range r.tunable {
		_, res, err := r.tu.Pick(r.work, o.Tune) // decided: a map read
		if err != nil {
			return r.fail("%s: %v", o.Key, err)
		}
		rep.Winners[o.Key] = res.Winner
		winners = append(winners, strings.TrimPrefix(o.Key, "decoder/")+"="+res.Winner)
	}
	stepFigures(rep, times)
	steady := len(times) - min(len(times)-1, 1)
	fmt.Fprintf(stdout, "  winners:                   %s\n", strings.Join(winners, " "))
	fmt.Fprintf(stdout, "  launches per step:         %d (in all %d steps: executed %d, discarded %d)\n", mc.Launches(),
		cfg.steps, realStats.Executed-r.warmStats.Executed, realStats.Discarded-r.warmStats.Discarded)
	fmt.Fprintf(stdout, "  first step:                %.2f ms, launch to result\n", rep.FirstStepMsWarm)
	fmt.Fprintf(stdout, "  steady-state step:         %.2f ms median of %d (min–max %.2f–%.2f)\n", rep.StepMsMedian, steady, rep.StepMsMin, rep.StepMsMax)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (compile stalls avoided: %d pipelines were compiled in warm-up)\n", rep.RealPassCompiles, r.warmCompiles)
	if cfg.replay {
		fmt.Fprintf(stdout, "  replays:                   %d (%d launches each, no per-launch work in Go)\n", realStats.Replays, r.graph.Len())
		fmt.Fprintf(stdout, "  GPU buffers created:       %d after the first step (activations fixed: the graph's buffers)\n", rep.RealBuffersCreated)
	} else {
		fmt.Fprintf(stdout, "  GPU buffers created:       %d after the first step (activations from the device's buffer pool)\n", rep.RealBuffersCreated)
	}
	if rep.RealPassCompiles != 0 {
		return r.fail("the real pass compiled %d pipelines: the warm-up missed them", rep.RealPassCompiles)
	}
	return 0
}

// cpuCheck is step 3: the last real step's logits against the float64
// reference.
func (r *modelRun) cpuCheck() int {
	rep, stdout := r.rep, r.stdout
	got, err := r.m.ReadLogits(r.work)
	if err != nil {
		return r.fail("reading the logits: %v", err)
	}
	r.want = decoder.Reference(r.cfg.model, r.weights)
	maxErr, maxRef := decoder.MaxAbsError(got, r.want)
	rep.MaxAbsError, rep.Tolerance = maxErr, decoder.Tolerance(maxRef)
	if !(maxErr <= rep.Tolerance) {
		fmt.Fprintf(stdout, "  CPU check:                 FAILED\n")
		return r.fail("CPU check failed: logits max abs error %.3g against the float64 reference, tolerance %.3g", maxErr, rep.Tolerance)
	}
	rep.CPUCheck = true
	fmt.Fprintf(stdout, "  CPU check:                 passed (logits max abs error %.2g against float64, tolerance %.2g; logits up to %.3g)\n",
		maxErr, rep.Tolerance, maxRef)
	return 0
}

// coldPass is step 4: the same step in a child process with empty caches,
// with the winners and no warm-up.
func (r *modelRun) coldPass() int {
	rep, stdout := r.rep, r.stdout
	if r.ctx.Err() != nil {
		return interrupted(r.stderr, rep, "before the cold step", nil, len(r.tunable), r.cr)
	}
	var cold modelColdReport
	if err := runColdChild(r.ctx, modelChildArgs(r.cfg), childCold, rep.Winners, false, &cold); err != nil {
		if r.ctx.Err() != nil {
			return interrupted(r.stderr, rep, "in the cold step", nil, len(r.tunable), r.cr)
		}
		return r.fail("cold step: %v", err)
	}
	rep.FirstStepMsCold, rep.ColdCompiles = cold.FirstStepMs, cold.Compiles
	fmt.Fprintf(stdout, "\n== 3. the same step cold: this command re-executed as a child with empty caches (kernels, lowering, pipelines;\n")
	fmt.Fprintf(stdout, "      Mesa's shader cache off), the winners above, no warm-up: its %d pipelines compile at their launches\n", cold.Compiles)
	fmt.Fprintf(stdout, "  first step cold:           %.2f ms\n", rep.FirstStepMsCold)
	fmt.Fprintf(stdout, "  first step after warm-up:  %.2f ms (cold ÷ warm %.2fx; cold − warm %+.2f ms: the compile stalls avoided)\n",
		rep.FirstStepMsWarm, rep.FirstStepMsCold/rep.FirstStepMsWarm, rep.FirstStepMsCold-rep.FirstStepMsWarm)
	return 0
}

// chart writes the chart with -out.
func (r *modelRun) chart() int {
	if r.cfg.out == "" {
		return 0
	}
	png, err := writeModelChart(r.cfg.out, r.cfg.model, *r.rep)
	if err != nil {
		return r.fail("chart: %v", err)
	}
	r.rep.Chart = png
	fmt.Fprintf(r.stdout, "  chart:                     %s\n", png)
	return 0
}

// modelColdReport is what a cold child of warmup prints.
type modelColdReport struct {
	FirstStepMs float64 `json:"first_step_ms"` // launch to result
	Compiles    int64   `json:"compiles"`      // pipelines the step compiled
}

// modelChildArgs returns the command line of a cold child of warmup: the
// same model and adapter.
func modelChildArgs(cfg warmupConfig) []string {
	mc := cfg.model
	return []string{"warmup", "-workload", workloadModel,
		"-layers", strconv.Itoa(mc.Layers), "-width", strconv.Itoa(mc.Width), "-heads", strconv.Itoa(mc.Heads),
		"-seq", strconv.Itoa(mc.Seq), "-vocab", strconv.Itoa(mc.Vocab), "-seed", strconv.FormatUint(mc.Seed, 10),
		"-adapter", cfg.adapter}
}

// modelChild runs a cold child's step (mode childCold) and prints its
// modelColdReport. It returns the exit status.
func modelChild(ctx context.Context, mode string, cfg warmupConfig, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "streamgate warmup (%s child): "+format+"\n", append([]any{mode}, args...)...)
		return 1
	}
	if mode != childCold {
		return fail("%s=%q: want %s", coldChildEnv, mode, childCold)
	}
	winners, err := childWinners()
	if err != nil {
		return fail("%v", err)
	}
	w := decoder.NewWeights(cfg.model)
	dt, compiles, err := coldStep(ctx, cfg.adapter, cfg.model, w, winners, decoder.Reference(cfg.model, w))
	if err != nil {
		return fail("%v", err)
	}
	return writeJSON(stdout, modelColdReport{FirstStepMs: ms(dt), Compiles: compiles})
}

// coldStep runs one step of the model on a freshly opened device, with
// each key's winner and nothing compiled beforehand, as a process without
// a warm-up would; it checks the logits against want within
// [decoder.Tolerance], as the warm run's, and returns the step's time,
// launch to result, and the pipelines it compiled. It runs in a cold
// child (modelChild), where no kernel has been lowered or compiled.
func coldStep(ctx context.Context, adapter string, mc decoder.Config, w *decoder.Weights, winners map[string]string, want []float64) (time.Duration, int64, error) {
	d, err := wgpu.Open(wgpu.Options{Adapter: adapter})
	if err != nil {
		return 0, 0, err
	}
	defer d.Close()
	m, err := decoder.NewModel(d, mc, w, true)
	if err != nil {
		return 0, 0, err
	}
	defer m.Release()
	c := client.New(d, client.WithRegistry(registry.New())) // ProcessExecute
	defer c.Close()
	start := time.Now()
	if err := m.Step(decoder.Chosen(c, winners)); err != nil {
		return 0, 0, err
	}
	if err := c.Sync(ctx); err != nil {
		return 0, 0, err
	}
	dt := time.Since(start)
	got, err := m.ReadLogits(ctx)
	if err != nil {
		return 0, 0, err
	}
	maxErr, maxRef := decoder.MaxAbsError(got, want)
	if tol := decoder.Tolerance(maxRef); !(maxErr <= tol) {
		return 0, 0, fmt.Errorf("logits max abs error %.3g, tolerance %.3g", maxErr, tol)
	}
	return dt, d.Stats().Compiles, nil
}
