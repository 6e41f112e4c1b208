//go:build cgo

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/registry"
)

// smallModel is a decoder small enough to tune in seconds on lavapipe; its
// width is a multiple of no tile and its vocabulary not of 4 (the logits'
// matmul has no vec4 variant).
var smallModel = []string{"warmup", "-layers", "2", "-width", "36", "-heads", "3", "-seq", "9", "-vocab", "50", "-steps", "3"}

// smallModelConfig is smallModel's decoder (warmup's -seed is 1 by default).
var smallModelConfig = decoder.Config{Layers: 2, Width: 36, Heads: 3, Seq: 9, Vocab: 50, Seed: 1}

// runModel runs the model workload with -json and decodes its report.
func runModel(t *testing.T, args ...string) warmupReport {
	t.Helper()
	code, out, errOut := runCmd(t, append(append(smallModel, "-json"), args...)...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	t.Log("\n" + out)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one object, one line: %s", out)
	var rep warmupReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rep))
	// The fields a caller of -json reads, by their JSON names.
	var fields map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &fields))
	for _, k := range []string{"workload", "layers", "launches_per_step", "real_pass_compiles", "cpu_check", "max_abs_error",
		"first_step_ms_warm", "first_step_ms_cold", "step_ms_median", "tuned_keys", "cache_hits"} {
		assert.Contains(t, fields, k)
	}
	return rep
}

// TestModelWarmup: the decoder tunes 7 keys, runs with 0 compiles and 0
// new buffers after its first step, passes the CPU check, and its cold
// child (the test binary re-executed, caches empty) takes longer over its
// first step than the warm run; a second run with the same cache finds
// every key there and measures nothing.
func TestModelWarmup(t *testing.T) {
	needAdapter(t)
	dir := t.TempDir()
	cache, out := filepath.Join(dir, "tune.db"), filepath.Join(dir, "out")

	rep := runModel(t, "-cache", cache, "-out", out)
	assert.Equal(t, "model", rep.Workload)
	assert.Equal(t, 2, rep.Layers)
	assert.Equal(t, smallModelConfig.Launches(), rep.LaunchesPerStep, "the built step's, as the decoder describes it")
	assert.Equal(t, uint64(rep.LaunchesPerStep), rep.LaunchesDiscarded, "the warm-up discards the step's own launches")
	assert.Equal(t, 7, rep.Keys, "5 matmul shapes, the layer norm, the softmax")
	assert.Equal(t, 7, rep.TunedKeys)
	assert.Zero(t, rep.CacheHits)
	assert.Len(t, rep.Winners, 7)
	assert.Positive(t, rep.MeasurementLaunches)
	assert.Equal(t, int64(rep.CandidateKernels), rep.WarmupCompiles, "every candidate's kernel compiles in warm-up")
	assert.Zero(t, rep.RealPassCompiles)
	assert.Zero(t, rep.RealBuffersCreated)
	assert.True(t, rep.CPUCheck)
	assert.Less(t, rep.MaxAbsError, 1e-4)
	assert.LessOrEqual(t, rep.MaxAbsError, rep.Tolerance)
	assert.Positive(t, rep.FirstStepMsWarm)
	assert.Greater(t, rep.FirstStepMsCold, rep.FirstStepMsWarm, "cold: a child with empty caches, compiling at its launches")
	assert.Positive(t, rep.ColdCompiles)
	assert.Positive(t, rep.StepMsMedian)
	assert.LessOrEqual(t, rep.StepMsMin, rep.StepMsMedian)
	assert.LessOrEqual(t, rep.StepMsMedian, rep.StepMsMax)
	assert.Equal(t, filepath.Join(out, "model-steps.png"), rep.Chart)
	png, err := os.ReadFile(rep.Chart)
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(png[:4]))
	assert.Equal(t, registry.ProcessExecute, registry.Default.ProcessMode(), "the process mode is restored")

	assert.Equal(t, runtime.GOMAXPROCS(0), rep.CompileWorkers, "-compile-workers defaults to GOMAXPROCS")
	assert.Positive(t, rep.WarmupCompileMs)

	again := runModel(t, "-cache", cache, "-out", "", "-compile-workers", "1")
	assert.Equal(t, 1, again.CompileWorkers)
	assert.Positive(t, again.WarmupCompileMs)
	assert.LessOrEqual(t, again.WarmupCompileMs, 1e3*again.WarmupSeconds, "the compile time is within the warm-up")
	assert.Equal(t, 7, again.CacheHits)
	assert.Zero(t, again.TunedKeys)
	assert.Zero(t, again.MeasurementLaunches, "nothing is measured")
	assert.Equal(t, rep.Winners, again.Winners)
	assert.Zero(t, again.RealPassCompiles)
	assert.True(t, again.CPUCheck)
	assert.Empty(t, again.Chart)
}

// TestModelWarmupText: the text output names the passes, the tune tables
// and the figures a user reads.
func TestModelWarmupText(t *testing.T) {
	needAdapter(t)
	code, out, errOut := runCmd(t, append(smallModel, "-cache", "", "-out", "", "-timing", "wall")...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	t.Log("\n" + out)
	assert.Contains(t, out, fmt.Sprintf("%d launches a step", smallModelConfig.Launches()))
	assert.Contains(t, out, "process mode CompileAndAutotune")
	assert.Regexp(t, `warm-up compile:\s+[0-9.]+ ms on \d+ workers \(\d+ pipelines\)`, out)
	assert.Equal(t, 7, strings.Count(out, "(timing: wall)"))
	assert.Equal(t, 7, strings.Count(out, "  winner\n"), "one winner per key")
	assert.Equal(t, smallModelConfig.Launches(), count(t, out, `launches discarded:\s+(\d+)`))
	assert.Equal(t, 0, count(t, out, `pipelines compiled:\s+(\d+) \(compile stalls avoided`))
	assert.Equal(t, 0, count(t, out, `GPU buffers created:\s+(\d+) after the first step`))
	assert.Contains(t, out, "CPU check:                 passed")
	assert.Contains(t, out, "first step cold:")
}

// TestModelWarmupReplay: with -replay the warm-up captures the step (its
// keys tuned first, their measurements run) and the real pass replays it:
// 0 compiles and 0 buffers after the first step, and the CPU check passes.
func TestModelWarmupReplay(t *testing.T) {
	needAdapter(t)
	rep := runModel(t, "-cache", "", "-out", "", "-replay", "-timing", "wall")
	assert.True(t, rep.Replay)
	assert.Equal(t, uint64(rep.LaunchesPerStep), rep.LaunchesCaptured, "the graph holds the step's launches")
	assert.Equal(t, 7, rep.TunedKeys)
	assert.Positive(t, rep.MeasurementLaunches, "the keys were measured before the capture recorded their winners")
	assert.Equal(t, int64(rep.CandidateKernels), rep.WarmupCompiles)
	assert.Zero(t, rep.RealPassCompiles)
	assert.Zero(t, rep.RealBuffersCreated)
	assert.True(t, rep.CPUCheck, "the replayed step computes the reference's logits")
	assert.Equal(t, registry.ProcessExecute, registry.Default.ProcessMode())

	code, _, errOut := runCmd(t, "warmup", "-workload", "ops", "-replay")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-replay: not a flag of -workload ops")
}
