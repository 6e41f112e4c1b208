//go:build cgo

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/wgpu"
)

// The cold figures come from child processes: the command re-executed
// with generateChildEnv set to what the child measures and
// generateWinnersEnv to the warm run's winners (a JSON object, key →
// variant). A child prints one JSON object (coldReport) and nothing else
// on stdout.
const (
	generateChildEnv   = "STREAMGATE_GENERATE_CHILD"
	generateWinnersEnv = "STREAMGATE_GENERATE_WINNERS"

	childCold    = "cold"    // the generation without a warm-up
	childCompile = "compile" // compiling the winners' pipelines alone
)

// coldReport is what a child prints.
type coldReport = genrun.Cold

// coldEnv returns the environment of a cold child: this process's, with
// Mesa's shader cache off and pointed at the empty folder dir/mesa (other
// drivers' on-disk caches are not cleared), and with emptySandbox the
// user cache directory — where the naga sandbox keeps its compilation
// cache — an empty dir/cache too.
func coldEnv(dir, mode string, winners map[string]string, emptySandbox bool) ([]string, error) {
	w, err := json.Marshal(winners)
	if err != nil {
		return nil, err
	}
	set := map[string]string{
		"MESA_SHADER_CACHE_DISABLE": "true",
		"MESA_GLSL_CACHE_DISABLE":   "true", // the name before Mesa 22
		"MESA_SHADER_CACHE_DIR":     filepath.Join(dir, "mesa"),
		generateChildEnv:            mode,
		generateWinnersEnv:          string(w),
	}
	if emptySandbox {
		set["XDG_CACHE_HOME"] = filepath.Join(dir, "cache")
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); set[k] == "" {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env, nil
}

// coldFigures runs the cold child and, unless emptySandbox, the compile
// child, and fills rep's cold fields.
func coldFigures(ctx context.Context, cfg generateConfig, winners map[string]string, rep *generateReport, emptySandbox bool) error {
	cold, err := runColdChild(ctx, cfg, childCold, winners, emptySandbox)
	if err != nil {
		return err
	}
	rep.TTFTMsCold, rep.ColdCompiles, rep.ColdDecodeCompiles, rep.ColdTokenMs = cold.TTFTMs, cold.Compiles, cold.DecodeCompiles, cold.TokenMs
	if emptySandbox {
		return nil
	}
	comp, err := runColdChild(ctx, cfg, childCompile, winners, false)
	if err != nil {
		return err
	}
	rep.SandboxStartMs, rep.CompileMsPrefill, rep.CompileMsDecode = comp.SandboxStartMs, comp.CompileMsPrefill, comp.CompileMsDecode
	return nil
}

// runColdChild re-executes this program as a child of the given mode, on
// the same model, prompt and adapter, and decodes its report.
func runColdChild(ctx context.Context, cfg generateConfig, mode string, winners map[string]string, emptySandbox bool) (*coldReport, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to re-execute: %w", err)
	}
	dir, err := os.MkdirTemp("", "streamgate-cold-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	env, err := coldEnv(dir, mode, winners, emptySandbox)
	if err != nil {
		return nil, err
	}
	prompt := make([]string, len(cfg.prompt))
	for i, t := range cfg.prompt {
		prompt[i] = strconv.FormatUint(uint64(t), 10)
	}
	mc := cfg.model
	cmd := exec.CommandContext(ctx, exe, "generate",
		"-layers", strconv.Itoa(mc.Layers), "-width", strconv.Itoa(mc.Width), "-heads", strconv.Itoa(mc.Heads),
		"-vocab", strconv.Itoa(mc.Vocab), "-max-seq", strconv.Itoa(mc.Seq), "-seed", strconv.FormatUint(mc.Seed, 10),
		"-prompt", strings.Join(prompt, ","), "-tokens", strconv.Itoa(cfg.tokens), "-adapter", cfg.adapter)
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("the %s child (%s generate): %v\n%s", mode, exe, err, strings.TrimSpace(errOut.String()))
	}
	var rep coldReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return nil, fmt.Errorf("the %s child's report %q: %v", mode, out.String(), err)
	}
	return &rep, nil
}

// generateChild runs a child's measurement (mode childCold or
// childCompile) and prints its coldReport. It returns the exit status.
func generateChild(ctx context.Context, mode string, cfg generateConfig, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "streamgate generate (%s child): "+format+"\n", append([]any{mode}, args...)...)
		return 1
	}
	var winners map[string]string
	if err := json.Unmarshal([]byte(os.Getenv(generateWinnersEnv)), &winners); err != nil {
		return fail("%s: %v", generateWinnersEnv, err)
	}
	d, err := wgpu.Open(wgpu.Options{Adapter: cfg.adapter})
	if err != nil {
		return fail("opening the device: %v", err)
	}
	defer d.Close()
	w := decoder.NewWeights(cfg.model)
	g, err := decoder.NewGenerator(d, cfg.model, w, cfg.prompt)
	if err != nil {
		return fail("%v", err)
	}
	defer g.Release()
	var rep *coldReport
	switch mode {
	case childCold:
		rep, err = genrun.Generate(ctx, g, winners, cfg.tokens)
	case childCompile:
		rep, err = coldCompile(ctx, g, winners)
	default:
		err = fmt.Errorf("%s=%q: want %s or %s", generateChildEnv, mode, childCold, childCompile)
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
