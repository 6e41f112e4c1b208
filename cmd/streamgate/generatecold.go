//go:build cgo

package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/wgpu"
)

// coldReport is what a child prints.
type coldReport = genrun.Cold

// coldFigures runs the cold child and, unless emptySandbox, the compile
// child, and fills rep's cold fields.
func coldFigures(ctx context.Context, cfg generateConfig, winners map[string]string, rep *generateReport, emptySandbox bool) error {
	var cold coldReport
	if err := runColdChild(ctx, generateChildArgs(cfg), childCold, winners, emptySandbox, &cold); err != nil {
		return err
	}
	rep.TTFTMsCold, rep.ColdCompiles, rep.ColdDecodeCompiles, rep.ColdTokenMs = cold.TTFTMs, cold.Compiles, cold.DecodeCompiles, cold.TokenMs
	rep.ColdMsToFirstToken = cold.ProcessMs
	if emptySandbox {
		return nil
	}
	var comp coldReport
	if err := runColdChild(ctx, generateChildArgs(cfg), childCompile, winners, false, &comp); err != nil {
		return err
	}
	rep.SandboxStartMs, rep.CompileMsPrefill, rep.CompileMsDecode = comp.SandboxStartMs, comp.CompileMsPrefill, comp.CompileMsDecode
	return nil
}

// generateChildArgs returns the command line of a child of generate: the
// same model, prompt, tokens and adapter.
func generateChildArgs(cfg generateConfig) []string {
	prompt := make([]string, len(cfg.prompt))
	for i, t := range cfg.prompt {
		prompt[i] = strconv.FormatUint(uint64(t), 10)
	}
	mc := cfg.model
	return []string{"generate",
		"-layers", strconv.Itoa(mc.Layers), "-width", strconv.Itoa(mc.Width), "-heads", strconv.Itoa(mc.Heads),
		"-vocab", strconv.Itoa(mc.Vocab), "-max-seq", strconv.Itoa(mc.Seq), "-seed", strconv.FormatUint(mc.Seed, 10),
		"-prompt", strings.Join(prompt, ","), "-tokens", strconv.Itoa(cfg.tokens), "-adapter", cfg.adapter}
}

// generateChild runs a child's measurement (mode childCold or
// childCompile) and prints its coldReport. It returns the exit status.
func generateChild(ctx context.Context, mode string, cfg generateConfig, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "streamgate generate (%s child): "+format+"\n", append([]any{mode}, args...)...)
		return 1
	}
	winners, err := childWinners()
	if err != nil {
		return fail("%v", err)
	}
	d, err := wgpu.Open(wgpu.Options{Adapter: cfg.adapter})
	if err != nil {
		return fail("opening the device: %v", err)
	}
	defer d.Close()
	w := cfg.modelWeights()
	g, err := decoder.NewGenerator(d, cfg.model, w, cfg.prompt)
	if err != nil {
		return fail("%v", err)
	}
	defer g.Release()
	var rep *coldReport
	switch mode {
	case childCold:
		t0 := sinceStart()
		if rep, err = genrun.Generate(ctx, g, winners, cfg.tokens); err == nil {
			rep.ProcessMs = t0 + rep.TTFTMs
		}
	case childCompile:
		rep, err = coldCompile(ctx, g, winners)
	default:
		err = fmt.Errorf("%s=%q: want %s or %s", coldChildEnv, mode, childCold, childCompile)
	}
	if err != nil {
		return fail("%v", err)
	}
	return writeJSON(stdout, rep)
}

// sandboxProbe is a kernel of its own whose compile starts the naga
// sandbox, so that the compile figures are the pipelines' alone.
const sandboxProbe = `@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1) fn main() { x[0] = 1u; }`

// coldCompile compiles the winners' pipelines of the prefill, then those
// the decode step adds, each primed with a dispatch of 0 workgroups
// (genrun.PrimePipelines), timing each set, after starting the sandbox.
func coldCompile(ctx context.Context, g *decoder.Generator, winners map[string]string) (*coldReport, error) {
	d := g.Device()
	var rep coldReport
	start := time.Now()
	if err := d.Compile(ctx, gpu.NewKernel("generate/sandbox-probe", sandboxProbe, "main")); err != nil {
		return nil, err
	}
	rep.SandboxStartMs = ms(time.Since(start))
	id := gpu.NewStreamID()
	defer d.CloseStream(id)
	seen := map[*gpu.Kernel]bool{}
	var err error
	start = time.Now()
	if _, err = genrun.PrimePipelines(ctx, g, g.PrefillPlan(), winners, seen, id); err != nil {
		return nil, err
	}
	rep.CompileMsPrefill, start = ms(time.Since(start)), time.Now()
	if _, err = genrun.PrimePipelines(ctx, g, g.DecodePlan(), winners, seen, id); err != nil {
		return nil, err
	}
	rep.CompileMsDecode = ms(time.Since(start))
	return &rep, nil
}
