//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

const generateSummary = "generate tokens with a KV cache: warm up (capture, compile, autotune), replay the decode step per token, check on the CPU, measure cold"

func init() {
	register(&command{name: "generate", summary: generateSummary, flags: generateFlags})
}

// generateConfig is what the generate flags set.
type generateConfig struct {
	model       decoder.Config          // Seq: -max-seq
	promptFlag  string                  // -prompt: comma-separated token ids; "" for the default
	promptLen   int                     // -prompt-len: the default prompt's length
	prompt      []uint32                // parsed, or the default (settlePrompt)
	weights     func() *decoder.Weights // the model's, made once from -seed (a sync.OnceValue)
	tokens      int
	cache       cacheFlags
	timing      string
	json        bool
	adapter     string
	out         string
	cold        bool // measure cold in a child process
	restart     bool // measure a restart in a child process
	coldSandbox bool // and once more with the naga sandbox's compile cache empty too

	compileWorkers int // -compile-workers: wgpu.Options.CompileWorkers
}

// generateReport is what generate -json prints; its field names are
// stable.
type generateReport struct {
	Workload     string    `json:"workload"` // "generate"
	Adapter      string    `json:"adapter"`
	Interrupted  bool      `json:"interrupted"` // Ctrl-C stopped the run: the figures are those reached
	Cache        cacheJSON `json:"cache"`       // as warmup's
	Layers       int       `json:"layers"`
	Width        int       `json:"width"`
	Heads        int       `json:"heads"`
	Vocab        int       `json:"vocab"`
	MaxSeq       int       `json:"max_seq"`
	PromptTokens int       `json:"prompt_tokens"`
	Prompt       []uint32  `json:"prompt"`
	Tokens       int       `json:"tokens"`    // generated
	Generated    []uint32  `json:"generated"` // their ids

	LaunchesPrefill     int               `json:"launches_prefill"`
	LaunchesPerToken    int               `json:"launches_per_token"`
	WarmupSeconds       float64           `json:"warmup_seconds"`
	WarmupCompiles      int64             `json:"warmup_compiles"`
	WarmupCompileMs     float64           `json:"warmup_compile_ms"` // the warm-up's wgpu.Stats.CompileTime
	CompileWorkers      int               `json:"compile_workers"`
	WarmupPrimeMs       float64           `json:"warmup_prime_ms"` // the winners dispatched once with 0 workgroups
	CandidateKernels    int               `json:"candidate_kernels"`
	MeasurementLaunches uint64            `json:"measurement_launches"`
	LaunchesCaptured    uint64            `json:"launches_captured"`
	Keys                int               `json:"keys"`
	TunedKeys           int               `json:"tuned_keys"`
	CacheHits           int               `json:"cache_hits"`
	Winners             map[string]string `json:"winners"`

	RealPassCompiles         int64     `json:"real_pass_compiles"`
	BuffersCreatedAfterFirst int64     `json:"buffers_created_after_first_token"` // GPU buffers, staging included
	Replays                  uint64    `json:"replays"`
	TokensMatchReference     bool      `json:"tokens_match_reference"`
	MaxAbsError              float64   `json:"max_abs_error"` // over every position's logits
	TTFTMsWarm               float64   `json:"ttft_ms_warm"`
	TokenMsMedian            float64   `json:"token_ms_median"` // the decode steps
	TokenMsP99               float64   `json:"token_ms_p99"`
	TokenMsMin               float64   `json:"token_ms_min"`
	TokenMsMax               float64   `json:"token_ms_max"`
	TokensPerS               float64   `json:"tokens_per_s"` // decode steps per second of their time
	TokenMs                  []float64 `json:"token_ms"`     // each decode step, in order

	Cold               bool      `json:"cold"`                   // the cold figures were measured
	TTFTMsCold         float64   `json:"ttft_ms_cold"`           // a child process, caches empty, no warm-up
	ColdCompiles       int64     `json:"cold_compiles"`          // pipelines the cold child compiled before its first token
	ColdDecodeCompiles int64     `json:"cold_decode_compiles"`   // and at its first decode step
	ColdTokenMs        []float64 `json:"cold_token_ms"`          // the cold child's decode steps
	CompileMsPrefill   float64   `json:"compile_ms_prefill"`     // compiling the prefill's pipelines, in a cold child
	CompileMsDecode    float64   `json:"compile_ms_decode"`      // the decode's other pipelines, likewise
	SandboxStartMs     float64   `json:"sandbox_start_ms"`       // the naga sandbox's start in that child (its on-disk cache warm)
	TTFTMsColdSandbox  float64   `json:"ttft_ms_cold_sandbox"`   // -cold-sandbox: cold with the sandbox's cache empty too; 0 if not run
	ColdMsToFirstToken float64   `json:"cold_ms_to_first_token"` // the cold child, from its process start to its first token

	// This process, from its start: the device opened, the warm-up, the
	// first token.
	DeviceOpenMs          float64         `json:"device_open_ms"`
	ProcessMsToFirstToken float64         `json:"process_ms_to_first_token"`
	LoweringStarts        int64           `json:"lowering_starts"` // the naga sandbox's starts in this process (0 or 1)
	KernelCache           kernelCacheJSON `json:"kernel_cache"`

	// -restart: a fresh child process with the caches this run left.
	Restart                bool            `json:"restart"`
	RestartMsToFirstToken  float64         `json:"restart_ms_to_first_token"` // from its process start, device open included
	RestartDeviceOpenMs    float64         `json:"restart_device_open_ms"`
	RestartWarmupMs        float64         `json:"restart_warmup_ms"`
	RestartWarmupCompileMs float64         `json:"restart_warmup_compile_ms"`
	RestartTTFTMs          float64         `json:"restart_ttft_ms"` // its first token, from the generation step
	RestartLoweringStarts  int64           `json:"restart_lowering_starts"`
	RestartKernelCache     kernelCacheJSON `json:"restart_kernel_cache"`
	RestartTunedKeys       int             `json:"restart_tuned_keys"`
	Chart                  string          `json:"chart"`
}

func generateFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	var cfg generateConfig
	fs := newFlagSet("generate", generateSummary+".\n\n"+
		"The model is a GPT-2-style decoder (package internal/workload/decoder) on random\n"+
		"weights from -seed, with a KV cache of -max-seq rows per layer. The prompt\n"+
		"(-prompt, or -prompt-len tokens drawn from -seed) is prefilled, then\n"+
		"-tokens tokens are generated greedily, one decode step each: the token\n"+
		"embedded at its position, per layer its Q, K and V projected, K and V\n"+
		"stored at its row of the cache, attention over rows 0..p, the MLP; the\n"+
		"logits and their argmax, on the GPU (a token costs a 4-byte read-back).\n"+
		"The position and the token live in a 16-byte state buffer written before\n"+
		"each step, so the step is the same at every position.\n\n"+
		"The warm-up, under process mode CompileAndAutotune, captures the prefill\n"+
		"and the decode step (client.Capture): every pipeline compiles and every\n"+
		"tunable op is tuned (the decode's one-row shapes are keys of their own),\n"+
		"nothing executes; then each winner's pipeline is dispatched once with 0\n"+
		"workgroups, as lavapipe generates a shader's code at its first dispatch.\n"+
		"The generation, under Execute, replays the prefill once and the decode\n"+
		"graph once per token. Every token is checked against a float64 CPU\n"+
		"reference that runs the same KV-cache algorithm, and every position's\n"+
		"logits against its tolerance; a mismatch is an error naming the position.\n"+
		"Then, with -restart, the command re-executes itself as a fresh process\n"+
		"with the caches this run left (the tune winners, the kernel cache of\n"+
		"lowered sources; Mesa's shader cache as it is) and reports its time from\n"+
		"process start to first token: a program's restart.\n"+
		"Then, with -cold, the command re-executes itself as a child with empty\n"+
		"caches (the process's lowering and pipeline caches, an empty kernel\n"+
		"cache; the driver's shader cache off: MESA_SHADER_CACHE_DISABLE=true and\n"+
		"MESA_SHADER_CACHE_DIR an empty folder, on Mesa; other drivers' caches\n"+
		"are not cleared) and the\n"+
		"winners the warm run decided, and runs the same generation without a\n"+
		"warm-up, its pipelines compiling at their launches; a second child times\n"+
		"compiling the pipelines alone (created and primed). The naga sandbox's own\n"+
		"compilation cache on disk stays (it caches the lowering program, not the\n"+
		"kernels); -cold-sandbox also runs the cold child with it empty. A chart of\n"+
		"time to first token and the per-token latency goes to -out.\n\n"+
		"With -json it prints one object:\n"+
		`  {"workload", "adapter", "interrupted", "cache", "layers", "width", "heads", "vocab",`+"\n"+
		`   "max_seq", "prompt_tokens", "prompt", "tokens", "generated", "launches_prefill", "launches_per_token",`+"\n"+
		`   "warmup_seconds", "warmup_compiles", "warmup_compile_ms", "compile_workers", "warmup_prime_ms", "candidate_kernels", "measurement_launches",`+"\n"+
		`   "launches_captured", "keys", "tuned_keys", "cache_hits", "winners",`+"\n"+
		`   "real_pass_compiles", "buffers_created_after_first_token", "replays",`+"\n"+
		`   "tokens_match_reference", "max_abs_error", "ttft_ms_warm", "token_ms_median",`+"\n"+
		`   "token_ms_p99", "token_ms_min", "token_ms_max", "tokens_per_s", "token_ms",`+"\n"+
		`   "cold", "ttft_ms_cold", "cold_compiles", "cold_decode_compiles", "cold_token_ms",`+"\n"+
		`   "compile_ms_prefill", "compile_ms_decode", "sandbox_start_ms", "ttft_ms_cold_sandbox", "cold_ms_to_first_token",`+"\n"+
		`   "device_open_ms", "process_ms_to_first_token", "lowering_starts", "kernel_cache",`+"\n"+
		`   "restart", "restart_ms_to_first_token", "restart_device_open_ms", "restart_warmup_ms", "restart_warmup_compile_ms",`+"\n"+
		`   "restart_ttft_ms", "restart_lowering_starts", "restart_kernel_cache", "restart_tuned_keys", "chart"}`+"\n"+
		"(tuned_keys: measured in this run; cache_hits: found in the tune cache;\n"+
		"cache: {\"file\", \"read_only\", \"stored\", \"redis\", \"shared\"}, as warmup's;\n"+
		"kernel_cache: {\"store\", \"store_hits\", \"misses\", \"rejected\", \"store_errors\"}, what the\n"+
		"process's compiles found in the kernel cache; *_ms_to_first_token: from the\n"+
		"process's start, device open and warm-up included).\n\n"+
		"Ctrl-C stops the warm-up at the next launch or the generation at the next\n"+
		"token: it says what was tuned and where it is stored (with -json, the\n"+
		"object so far, \"interrupted\": true) and exits 130; a second Ctrl-C exits\n"+
		"at once.")
	fs.IntVar(&cfg.model.Layers, "layers", 4, "decoder layers")
	fs.IntVar(&cfg.model.Width, "width", 128, "model width (a multiple of -heads)")
	fs.IntVar(&cfg.model.Heads, "heads", 4, "attention heads")
	fs.IntVar(&cfg.model.Vocab, "vocab", 1000, "vocabulary size")
	fs.IntVar(&cfg.model.Seq, "max-seq", 64, "the KV cache's rows: prompt and generated tokens, less one, must fit")
	fs.StringVar(&cfg.promptFlag, "prompt", "", `the prompt's token ids, comma-separated ("3,14,15"); "" for -prompt-len ids drawn from -seed`)
	fs.IntVar(&cfg.promptLen, "prompt-len", 16, "the default prompt's length")
	fs.IntVar(&cfg.tokens, "tokens", 32, "tokens to generate (at least 2: the prefill's and a decode step's)")
	fs.Uint64Var(&cfg.model.Seed, "seed", 1, "seed of the random weights and the default prompt")
	cfg.cache.add(fs)
	fs.BoolVar(&cfg.json, "json", false, "print one JSON object instead of the text")
	fs.StringVar(&cfg.timing, "timing", "auto", "how the tuner times samples: auto (GPU timestamps when the device has them) or wall")
	fs.StringVar(&cfg.adapter, "adapter", "", adapterUsage)
	fs.IntVar(&cfg.compileWorkers, "compile-workers", 0, compileWorkersUsage)
	fs.StringVar(&cfg.out, "out", filepath.Join("out", "bench"), `directory of the chart (generate.png, .svg); "" for none`)
	fs.BoolVar(&cfg.cold, "cold", true, "measure the cold figures in a child process with empty caches")
	fs.BoolVar(&cfg.restart, "restart", true, "measure a restart: this command again as a fresh process with the caches this run left, from its process start to its first token")
	fs.BoolVar(&cfg.coldSandbox, "cold-sandbox", false, "-cold: also run the cold child with the naga sandbox's on-disk compilation cache empty")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		usage := func(format string, args ...any) int {
			return usageFail(stderr, "generate", format, args...)
		}
		cfg.cache.parsed(fs)
		if err := cfg.model.Validate(); err != nil {
			return usage("%v", err)
		}
		switch {
		case cfg.tokens < 2:
			return usage("-tokens must be at least 2, got %d", cfg.tokens)
		case cfg.timing != "auto" && cfg.timing != "wall":
			return usage("-timing must be auto or wall, got %q", cfg.timing)
		case cfg.promptFlag == "" && (cfg.promptLen < 1 || cfg.promptLen > cfg.model.Seq):
			return usage("-prompt-len must be in 1..%d (-max-seq), got %d", cfg.model.Seq, cfg.promptLen)
		}
		if cfg.promptFlag != "" {
			p, err := parsePrompt(cfg.promptFlag)
			if err != nil {
				return usage("-prompt: %v", err)
			}
			cfg.prompt = p
		}
		// The weights are made while the command opens its caches and the
		// device; the default prompt, drawn with them, is in range.
		check := cfg.prompt
		if check == nil {
			check = make([]uint32, cfg.promptLen)
		}
		if err := cfg.model.ValidatePrompt(check, cfg.tokens); err != nil {
			return usage("%v", err)
		}
		cfg.weights = sync.OnceValue(func() *decoder.Weights { return decoder.NewWeights(cfg.model) })
		if mode := os.Getenv(coldChildEnv); mode != "" {
			cfg.settlePrompt()
			return generateChild(ctx, mode, cfg, stdout, stderr)
		}
		if err := checkOutDir("-out", cfg.out); err != nil {
			return usage("%v", err)
		}
		go cfg.weights() // while generate opens the caches and the device
		return generate(ctx, cfg, stdout, stderr)
	}
}

// modelWeights returns the model's weights, waiting for them to be made:
// the default prompt is drawn with them, and the run uploads them.
func (cfg *generateConfig) modelWeights() *decoder.Weights {
	if cfg.weights == nil {
		cfg.weights = sync.OnceValue(func() *decoder.Weights { return decoder.NewWeights(cfg.model) })
	}
	return cfg.weights()
}

// settlePrompt sets the default prompt, drawn with the weights, where
// -prompt gave none.
func (cfg *generateConfig) settlePrompt() {
	if cfg.prompt == nil {
		cfg.prompt = cfg.modelWeights().Tokens[:cfg.promptLen]
	}
}

// parsePrompt parses comma-separated token ids.
func parsePrompt(s string) ([]uint32, error) {
	var p []uint32
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%q is not a token id", strings.TrimSpace(f))
		}
		p = append(p, uint32(n))
	}
	return p, nil
}

func joinIDs(ids []uint32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatUint(uint64(id), 10)
	}
	return strings.Join(s, " ")
}

// generate runs the generation; see generateFlags. It returns the exit
// status.
func generate(ctx context.Context, cfg generateConfig, stdout, stderr io.Writer) (code int) {
	s, stdout, code := openSetup(setupConfig{cmd: "generate", cache: cfg.cache, adapter: cfg.adapter,
		compileWorkers: cfg.compileWorkers, timing: cfg.timing, json: cfg.json}, stdout, stderr)
	if s == nil {
		cfg.weights() // the goroutine making them ends before the command
		return code
	}
	cfg.settlePrompt()
	mc, prompt, n := cfg.model, cfg.prompt, cfg.tokens
	rep := generateReport{Workload: "generate", Layers: mc.Layers, Width: mc.Width, Heads: mc.Heads,
		Vocab: mc.Vocab, MaxSeq: mc.Seq, PromptTokens: len(prompt), Prompt: prompt, Tokens: n,
		Winners: map[string]string{}}
	defer s.finish(&code, &rep, &rep.Cache)
	fmt.Fprintf(stdout, "streamgate generate: a GPT-2-style decoder, %d layers, width %d, %d heads, vocabulary %d, a KV cache of %d rows;\n",
		mc.Layers, mc.Width, mc.Heads, mc.Vocab, mc.Seq)
	fmt.Fprintf(stdout, "a prompt of %d tokens, then %d tokens generated greedily (prefill: %d launches; a token: %d launches)\n",
		len(prompt), n, mc.PrefillLaunches(), mc.DecodeLaunches())
	rep.Adapter = s.describe(stdout, "prompt:  "+joinIDs(prompt)+"\n")

	weights := cfg.modelWeights()
	g, err := decoder.NewGenerator(s.d, mc, weights, prompt)
	if err != nil {
		return s.fail("%v", err)
	}
	defer g.Release()
	rep.LaunchesPrefill, rep.LaunchesPerToken = len(g.PrefillPlan()), len(g.DecodePlan())
	rep.DeviceOpenMs = s.openMs
	r := &generateRun{setup: s, cfg: cfg, rep: &rep, stdout: stdout, ctx: ctx, g: g, weights: weights,
		tuning: s.startTuning(ctx, g.Ops(), rep.Winners, nil)}
	rep.Keys, rep.CandidateKernels = len(r.tunable), len(g.Kernels())
	defer func() {
		for _, gr := range []*client.Graph{r.pre, r.dec} {
			if gr != nil {
				gr.Release()
			}
		}
	}()
	return runSteps(r.warmUp, r.generation, r.cpuCheck, r.restartRun, r.coldRun, r.chart)
}

// generateRun is one run of generate, step by step: the warm-up, the
// generation, the CPU check, the cold run and the chart. Each step returns
// 0 to go on, or the command's exit code.
type generateRun struct {
	*setup
	cfg     generateConfig
	rep     *generateReport
	stdout  io.Writer
	ctx     context.Context
	g       *decoder.Generator
	weights *decoder.Weights
	*tuning
	pre, dec *client.Graph // the prefill and the decode step, captured

	warmCompiles int64    // the pipelines the warm-up compiled
	tokens       []uint32 // the generated tokens
}

// stopped reports a Ctrl-C seen where, after the warm-up's tuning when
// decided.
func (r *generateRun) stopped(where string, decided bool) int {
	rep := r.rep
	rep.Interrupted = true
	hits := len(r.seen) - len(r.tuned)
	if decided {
		hits = rep.CacheHits
	} else {
		rep.TunedKeys, rep.CacheHits = len(r.tuned), hits
	}
	return sayInterrupted(r.stderr, "generate", where, !decided, r.tuned, len(r.tuned), hits, len(r.tunable), r.cr)
}

// warmUp is step 1: the prefill and the decode step captured into two
// graphs in process mode CompileAndAutotune, their keys tuned and the
// winners' pipelines primed.
func (r *generateRun) warmUp() int {
	d, c, g, rep, stdout, ctx, mc := r.d, r.c, r.g, r.rep, r.stdout, r.ctx, r.cfg.model
	fmt.Fprintf(stdout, "\n== 1. warm-up, process mode %v: the prefill and the decode step are captured into two graphs\n", r.reg.ProcessMode())
	fmt.Fprintf(stdout, "      (%d and %d launches), executing nothing; their kernels compile, their %d tunable keys are tuned first\n",
		mc.PrefillLaunches(), mc.DecodeLaunches(), len(r.tunable))
	fmt.Fprintf(stdout, "      (the decode's one-row shapes are keys of their own; measurements run on a fork, on fresh buffers)\n")
	st0, start := d.Stats(), time.Now()
	compiles0 := st0.Compiles
	pre, dec, err := genrun.Capture(c, g, r.launch)
	r.finishProgress()
	if errors.Is(err, errInterrupted) {
		return r.stopped("in the warm-up", false)
	}
	if err != nil {
		return r.fail("warm-up: %v", err)
	}
	r.pre, r.dec = pre, dec
	if err := c.Sync(ctx); err != nil {
		return r.fail("warm-up sync: %v", err)
	}
	warmTime, warmCompiles, warmStats := time.Since(start), d.Stats().Compiles-compiles0, c.Stats()
	warmCompile := d.Stats().CompileTime - st0.CompileTime
	rep.WarmupCompileMs, rep.CompileWorkers = ms(warmCompile), d.CompileWorkers()
	if code := r.printTables(ctx, stdout, r.tunable, &rep.CacheHits, &rep.TunedKeys, rep.Winners); code != 0 {
		return code
	}
	// The driver's code generation: lavapipe's happens at a pipeline's
	// first dispatch (primePipelines), so each winner is dispatched once
	// with 0 workgroups; nothing runs.
	primed, primeTime, err := genrun.Prime(ctx, g, rep.Winners)
	if err != nil {
		return r.fail("warm-up: priming the pipelines: %v", err)
	}
	rep.WarmupPrimeMs = ms(primeTime)
	rep.WarmupSeconds, rep.WarmupCompiles = warmTime.Seconds(), warmCompiles
	rep.MeasurementLaunches = client.ServiceStats()[d.ServiceID()].Executed
	rep.LaunchesCaptured = warmStats.Captured
	fmt.Fprintf(stdout, "\nwarm-up: %v\n", warmTime.Round(time.Millisecond))
	printWarmupCompile(stdout, warmCompile, d.CompileWorkers(), warmCompiles)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (of %d candidate kernels)\n", warmCompiles, rep.CandidateKernels)
	fmt.Fprintf(stdout, "  launches captured:         %d (prefill %d, decode step %d: none executed)\n", warmStats.Captured, pre.Len(), dec.Len())
	fmt.Fprintf(stdout, "  pipelines primed:          %d winners dispatched once with 0 workgroups, %.0f ms (the driver's code generation:\n", primed, rep.WarmupPrimeMs)
	fmt.Fprintf(stdout, "                             lavapipe's runs at a pipeline's first dispatch)\n")
	fmt.Fprintf(stdout, "  measurement launches run:  %d (under Measure overrides)\n", rep.MeasurementLaunches)
	tuneSummary(stdout, r.cr, "keys", rep.CacheHits, len(r.tunable))
	r.warmCompiles = warmCompiles
	return 0
}

// generation is step 2: the prefill graph replayed once, then the decode
// graph once per token, in process mode Execute.
func (r *generateRun) generation() int {
	d, c, g, rep, stdout, ctx, mc, n := r.d, r.c, r.g, r.rep, r.stdout, r.ctx, r.cfg.model, r.cfg.tokens
	r.reg.SetProcessMode(registry.ProcessExecute)
	fmt.Fprintf(stdout, "\n== 2. generation, process mode %v: the prefill graph replayed once, then the decode graph once per token\n", r.reg.ProcessMode())
	fmt.Fprintf(stdout, "      (the state buffer, position and token, written before each; the argmax read back: 4 bytes)\n")
	compiles1, replays0 := d.Stats().Compiles, c.Stats().Replays
	sinceT0 := sinceStart()
	run, err := genrun.Replayed(ctx, g, c, r.pre, r.dec, n)
	tokens, ttft, steps, created := run.Tokens, run.TTFT, run.Steps, run.Created
	if err != nil && ctx.Err() != nil {
		rep.Generated, rep.TTFTMsWarm, rep.TokenMs = tokens, ms(ttft), genrun.MsList(steps)
		return r.stopped(fmt.Sprintf("in the generation, after %d of %d tokens", len(tokens), n), true)
	}
	if err != nil {
		return r.fail("%v", err)
	}
	r.tokens = tokens
	rep.Generated, rep.TTFTMsWarm, rep.TokenMs = tokens, ms(ttft), genrun.MsList(steps)
	rep.ProcessMsToFirstToken = sinceT0 + rep.TTFTMsWarm
	rep.LoweringStarts, rep.KernelCache = wgpu.ReadKernelCacheStats().LoweringStarts, kernelCacheState(r.kernels0)
	rep.TokenMsMedian, rep.TokenMsP99, rep.TokenMsMin, rep.TokenMsMax, rep.TokensPerS = genrun.Latencies(steps)
	rep.RealPassCompiles, rep.BuffersCreatedAfterFirst = d.Stats().Compiles-compiles1, created
	rep.Replays = c.Stats().Replays - replays0
	fmt.Fprintf(stdout, "  generated:                 %s\n", joinIDs(tokens))
	fmt.Fprintf(stdout, "  time to first token:       %.2f ms (the prefill's replay and the first token's read-back)\n", rep.TTFTMsWarm)
	fmt.Fprintf(stdout, "  from process start:        %.0f ms to the first token (device open %.0f ms, warm-up %.0f ms); %s\n",
		rep.ProcessMsToFirstToken, rep.DeviceOpenMs, rep.WarmupSeconds*1000, kernelLine(rep.KernelCache, rep.LoweringStarts))
	fmt.Fprintf(stdout, "  per token:                 %.3f ms median, p99 %.3f ms (min–max %.3f–%.3f) over %d decode steps: %.0f tokens/s\n",
		rep.TokenMsMedian, rep.TokenMsP99, rep.TokenMsMin, rep.TokenMsMax, len(steps), rep.TokensPerS)
	fmt.Fprintf(stdout, "  launches per token:        %d (%d replays in all: no per-launch work in Go)\n", mc.DecodeLaunches(), rep.Replays)
	fmt.Fprintf(stdout, "  pipelines compiled:        %d (the warm-up compiled %d)\n", rep.RealPassCompiles, r.warmCompiles)
	fmt.Fprintf(stdout, "  GPU buffers created:       %d after the first token (the graphs' buffers are fixed)\n", rep.BuffersCreatedAfterFirst)
	if rep.RealPassCompiles != 0 {
		return r.fail("the generation compiled %d pipelines: the warm-up missed them", rep.RealPassCompiles)
	}
	return 0
}

// cpuCheck is step 3: every token and every position's logits against the
// float64 reference.
func (r *generateRun) cpuCheck() int {
	g, rep, stdout, ctx, n := r.g, r.rep, r.stdout, r.ctx, r.cfg.tokens
	want := decoder.ReferenceGenerate(r.cfg.model, r.weights, r.cfg.prompt, n)
	logits, err := g.ReadLogits(ctx, n-1)
	if err != nil {
		return r.fail("reading the logits: %v", err)
	}
	maxErr, err := decoder.CheckGeneration(want, r.tokens, logits, len(r.cfg.prompt))
	rep.MaxAbsError = maxErr
	if err != nil {
		fmt.Fprintf(stdout, "  CPU check:                 FAILED\n")
		return r.fail("CPU check failed: %v", err)
	}
	rep.TokensMatchReference = true
	fmt.Fprintf(stdout, "  CPU check:                 passed: every token is the float64 reference's greedy token; logits max abs error %.2g over %d positions\n",
		maxErr, len(logits))
	return 0
}

// restartRun is step 4, with -restart: this command again as a fresh
// process with the caches this run left.
func (r *generateRun) restartRun() int {
	rep, stdout := r.rep, r.stdout
	if !r.cfg.restart {
		return 0
	}
	fmt.Fprintf(stdout, "\n== 3. a restart: this command re-executed as a fresh process with the caches this run left (tune winners,\n")
	fmt.Fprintf(stdout, "      kernels; Mesa's shader cache as it is), timed from its process start\n")
	if err := restartFigures(r.ctx, r.cfg, rep); err != nil {
		return r.fail("restart: %v", err)
	}
	fmt.Fprintf(stdout, "  restart to first token:    %.0f ms from process start (device open %.0f ms, warm-up %.0f ms of which compile %.1f ms,\n",
		rep.RestartMsToFirstToken, rep.RestartDeviceOpenMs, rep.RestartWarmupMs, rep.RestartWarmupCompileMs)
	fmt.Fprintf(stdout, "                             first token %.2f ms after it); %d keys tuned; %s\n",
		rep.RestartTTFTMs, rep.RestartTunedKeys, kernelLine(rep.RestartKernelCache, rep.RestartLoweringStarts))
	return 0
}

// kernelLine says what a process found in the kernel cache.
func kernelLine(k kernelCacheJSON, starts int64) string {
	sandbox := "the lowering's sandbox not started"
	if starts > 0 {
		sandbox = "the lowering's sandbox started"
	}
	s := fmt.Sprintf("kernel cache: %d sources read, %d lowered", k.StoreHits, k.Misses)
	if k.Rejected > 0 {
		s += fmt.Sprintf(", %d entries rejected", k.Rejected)
	}
	return s + "; " + sandbox
}

// coldRun is step 5, with -cold: the generation in a child process with
// empty caches.
func (r *generateRun) coldRun() int {
	rep, stdout, cfg, ctx := r.rep, r.stdout, r.cfg, r.ctx
	if cfg.cold {
		fmt.Fprintf(stdout, "\n== 4. the same generation cold: this command re-executed as a child with empty caches (kernels, lowering, pipelines;\n")
		fmt.Fprintf(stdout, "      Mesa's shader cache off), the winners above, no warm-up: its pipelines compile at their launches\n")
		if err := coldFigures(ctx, cfg, rep.Winners, rep, false); err != nil {
			return r.fail("cold: %v", err)
		}
		fmt.Fprintf(stdout, "  time to first token cold:  %.2f ms (%d pipelines compiled before it); %.0f ms from its process start\n",
			rep.TTFTMsCold, rep.ColdCompiles, rep.ColdMsToFirstToken)
		fmt.Fprintf(stdout, "  time to first token warm:  %.2f ms (cold ÷ warm %.1fx; cold − warm %+.2f ms)\n",
			rep.TTFTMsWarm, rep.TTFTMsCold/rep.TTFTMsWarm, rep.TTFTMsCold-rep.TTFTMsWarm)
		if len(rep.ColdTokenMs) > 0 {
			fmt.Fprintf(stdout, "  first decode step cold:    %.2f ms (%d more pipelines; warm median %.3f ms)\n", rep.ColdTokenMs[0], rep.ColdDecodeCompiles, rep.TokenMsMedian)
		}
		fmt.Fprintf(stdout, "  compiling alone, cold:     the prefill's pipelines %.1f ms, the decode step's others %.1f ms (after the sandbox's start, %.1f ms)\n",
			rep.CompileMsPrefill, rep.CompileMsDecode, rep.SandboxStartMs)
		if cfg.coldSandbox {
			var sb generateReport
			if err := coldFigures(ctx, cfg, rep.Winners, &sb, true); err != nil {
				return r.fail("cold, the sandbox's cache empty: %v", err)
			}
			rep.TTFTMsColdSandbox = sb.TTFTMsCold
			fmt.Fprintf(stdout, "  cold, the naga sandbox's compilation cache empty too: time to first token %.2f ms\n", rep.TTFTMsColdSandbox)
		}
		rep.Cold = true
	}
	return 0
}

// chart writes the chart with -out.
func (r *generateRun) chart() int {
	rep, stdout, cfg, mc := r.rep, r.stdout, r.cfg, r.cfg.model
	if cfg.out != "" {
		png, err := writeGenerateChart(cfg.out, mc, *rep)
		if err != nil {
			return r.fail("chart: %v", err)
		}
		rep.Chart = png
		fmt.Fprintf(stdout, "  chart:                     %s\n", png)
	}
	return 0
}
