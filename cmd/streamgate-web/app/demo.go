//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/cmd/streamgate-web/internal/page"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/webcache"
	"github.com/streamgate/streamgate/wgpu"
)

// demo runs streamgate generate's steps on d (package genrun, as the
// terminal does), reporting each to ui: the warm-up, the generation
// replayed, the CPU check and, with cfg.Cold, the generation cold on a
// device of its own. On an error the result holds what was measured
// before it.
func demo(ctx context.Context, ui *ui, d *wgpu.Device, cfg page.Config) (page.Result, error) {
	mc, prompt, n := cfg.Model, cfg.Prompt, cfg.Tokens
	res := page.Result{State: page.StateDone, Adapter: genrun.DescribeAdapter(d.Info()),
		Layers: mc.Layers, Width: mc.Width, Heads: mc.Heads, Vocab: mc.Vocab, MaxSeq: mc.Seq,
		Prompt: prompt, Tokens: n, LaunchesPrefill: mc.PrefillLaunches(), LaunchesPerToken: mc.DecodeLaunches()}
	ui.note("adapter: " + res.Adapter)

	ui.step("building the model and its float64 CPU reference")
	weights := decoder.NewWeights(mc)
	want := decoder.ReferenceGenerate(mc, weights, prompt, n)
	g, err := decoder.NewGenerator(d, mc, weights, prompt)
	if err != nil {
		return res, err
	}
	defer g.Release()
	var tunable []*decoder.Op
	for _, o := range g.Ops() {
		if o.Tunable() {
			tunable = append(tunable, o)
		}
	}
	res.Keys = len(tunable)

	// 1. The warm-up: both steps captured under CompileAndAutotune.
	reg := registry.Default
	c := client.New(d, client.WithRegistry(reg))
	defer c.Close()
	cache, where := tuneCache(cfg.Store, ui)
	res.Cache = where
	cache, res.BundleTuneEntries, err = withBundle(cache)
	defer cache.Close()
	if err != nil {
		return res, err
	}
	if res.BundleTuneEntries > 0 {
		ui.note(fmt.Sprintf("the page's embedded bundle holds %d tune winners, behind the tune cache", res.BundleTuneEntries))
	}
	tu := tune.New(c, tune.WithCache(cache), tune.WithProgress(ui.tuneProgress))
	winners := map[string]string{}
	launch := genrun.TunedLaunch(ctx, tu, c, func(o *decoder.Op, r *tune.Result) { winners[o.Key] = r.Winner })
	prev := reg.SetProcessMode(registry.ProcessCompileAndAutotune)
	defer reg.SetProcessMode(prev)
	ui.step(fmt.Sprintf("1. warm-up, process mode %v: the prefill and the decode step captured (%d and %d launches), nothing executed; %d tunable keys tuned",
		reg.ProcessMode(), mc.PrefillLaunches(), mc.DecodeLaunches(), len(tunable)))
	compiles0, start := d.Stats().Compiles, time.Now()
	pre, dec, err := genrun.Capture(c, g, launch)
	if err != nil {
		return res, fmt.Errorf("warm-up: %w", err)
	}
	defer pre.Release()
	defer dec.Release()
	if err := c.Sync(ctx); err != nil {
		return res, fmt.Errorf("warm-up sync: %w", err)
	}
	res.WarmupMs, res.WarmupCompiles = genrun.Ms(time.Since(start)), d.Stats().Compiles-compiles0
	res.LaunchesCaptured = c.Stats().Captured
	for _, o := range tunable {
		_, r, err := tu.Pick(ctx, o.Tune)
		if err != nil {
			return res, fmt.Errorf("%s: %w", o.Key, err)
		}
		if r.Cached {
			res.CacheHits++
		} else {
			res.TunedKeys++
		}
		winners[o.Key] = r.Winner
	}
	res.MeasurementLaunches = client.ServiceStats()[d.ServiceID()].Executed
	if cfg.Export {
		if res.Bundle, err = exportBundle(cache); err != nil {
			return res, fmt.Errorf("the bundle of the winners: %w", err)
		}
	}
	primed, primeTime, err := genrun.Prime(ctx, g, winners)
	if err != nil {
		return res, fmt.Errorf("warm-up: priming the pipelines: %w", err)
	}
	res.Primed, res.PrimeMs = primed, genrun.Ms(primeTime)
	ui.note(fmt.Sprintf("warm-up: %.0f ms, %d pipelines compiled, %d launches captured", res.WarmupMs, res.WarmupCompiles, res.LaunchesCaptured))

	// 2. The generation: the prefill replayed once, the decode graph per token.
	reg.SetProcessMode(registry.ProcessExecute)
	ui.step(fmt.Sprintf("2. generation, process mode %v: the prefill graph replayed once, the decode graph once per token (%d tokens)", reg.ProcessMode(), n))
	compiles1, st0 := d.Stats().Compiles, c.Stats()
	run, err := genrun.Replayed(ctx, g, c, pre, dec, n)
	if err != nil {
		return res, err
	}
	st1 := c.Stats()
	res.Generated, res.TTFTMsWarm, res.TokenMs = run.Tokens, genrun.Ms(run.TTFT), genrun.MsList(run.Steps)
	res.TokenMsMedian, res.TokenMsP99, _, _, res.TokensPerS = genrun.Latencies(run.Steps)
	res.RealPassCompiles, res.BuffersCreated = d.Stats().Compiles-compiles1, run.Created
	res.Replays, res.LaunchesExecuted = st1.Replays-st0.Replays, st1.Executed-st0.Executed
	res.CompilesAvoided = res.WarmupCompiles - res.RealPassCompiles
	if res.RealPassCompiles != 0 {
		return res, fmt.Errorf("the generation compiled %d pipelines: the warm-up missed them", res.RealPassCompiles)
	}

	// 3. The CPU check: every token and every position's logits.
	ui.step("3. CPU check: every token against the float64 reference's greedy token, every position's logits against its tolerance")
	logits, err := g.ReadLogits(ctx, n-1)
	if err != nil {
		return res, fmt.Errorf("reading the logits: %w", err)
	}
	res.MaxAbsError, err = decoder.CheckGeneration(want, run.Tokens, logits, len(prompt))
	if err != nil {
		return res, fmt.Errorf("CPU check failed: %w", err)
	}
	res.CPUCheck = true
	ui.note(fmt.Sprintf("CPU check passed: logits max abs error %.2g", res.MaxAbsError))

	// 4. Cold: the same generation on a fresh device, no warm-up.
	if cfg.Cold {
		ui.step("4. the same generation cold: a fresh device (its own pipeline cache; the browser's shader cache stays), the winners above, no warm-up: its pipelines compile at their launches")
		if err := cold(ctx, cfg, weights, winners, &res); err != nil {
			return res, fmt.Errorf("cold: %w", err)
		}
	}
	return res, nil
}

// tuneCache opens the page's tune cache: with store, the page's
// localStorage (tune/webcache), else, or where the page may not store,
// the memory cache (said in a note); it returns where it is.
func tuneCache(store bool, ui *ui) (tune.Cache, string) {
	if store {
		c, err := webcache.Open("")
		if err == nil {
			return c, page.CacheStorage
		}
		ui.note(fmt.Sprintf("the tune cache stays in memory: %v", err))
	}
	return tune.NewMemoryCache(), page.CacheMemory
}

// cold runs the generation without a warm-up on a device of its own and
// sets res's cold figures; genrun.Generate checks its tokens on the CPU.
func cold(ctx context.Context, cfg page.Config, weights *decoder.Weights, winners map[string]string, res *page.Result) error {
	d, err := wgpu.Open(wgpu.Options{})
	if err != nil {
		return fmt.Errorf("opening a second device: %w", err)
	}
	defer d.Close()
	g, err := decoder.NewGenerator(d, cfg.Model, weights, cfg.Prompt)
	if err != nil {
		return err
	}
	defer g.Release()
	c, err := genrun.Generate(ctx, g, winners, cfg.Tokens)
	if err != nil {
		return err
	}
	res.Cold, res.ColdCPUCheck = true, true
	res.TTFTMsCold, res.ColdCompiles, res.ColdTokenMs = c.TTFTMs, c.Compiles, c.TokenMs
	if len(c.TokenMs) > 0 {
		res.ColdFirstStepMs = c.TokenMs[0]
		res.ColdTokenMsMed = medianOf(c.TokenMs[1:])
	}
	return nil
}

// medianOf is the median of ms; 0 for none.
func medianOf(ms []float64) float64 {
	if len(ms) == 0 {
		return 0
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return s[len(s)/2]
}
