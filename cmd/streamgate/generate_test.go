//go:build cgo

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/workload/decoder"
	"github.com/streamgate/streamgate/internal/workload/genrun"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/wgpu"
)

// A cold child of generate or warmup re-executes this program, which in
// a test is the test binary: with the child's variable set it runs the
// command line instead of the tests.
func init() {
	if os.Getenv(coldChildEnv) != "" || os.Getenv(restartChildEnv) != "" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
}

// smallGenerate is a decoder small enough to tune in seconds on lavapipe:
// a prompt of 5 tokens and 6 generated, in a cache of 16 rows.
var smallGenerate = []string{"generate", "-layers", "2", "-width", "36", "-heads", "3", "-vocab", "50", "-max-seq", "16",
	"-prompt-len", "5", "-tokens", "6"}

var smallGenerateConfig = decoder.Config{Layers: 2, Width: 36, Heads: 3, Seq: 16, Vocab: 50, Seed: 1}

// runGenerate runs generate with -json and decodes its report.
func runGenerate(t *testing.T, args ...string) generateReport {
	t.Helper()
	code, out, errOut := runCmd(t, append(append(smallGenerate, "-json"), args...)...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	t.Log("\n" + out)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one object, one line: %s", out)
	var rep generateReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rep))
	var fields map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &fields))
	for _, k := range []string{"workload", "layers", "prompt_tokens", "tokens", "tokens_match_reference", "max_abs_error",
		"launches_per_token", "real_pass_compiles", "buffers_created_after_first_token", "ttft_ms_warm", "ttft_ms_cold",
		"token_ms_median", "token_ms_p99", "tokens_per_s", "replays", "tuned_keys", "cache_hits"} {
		assert.Contains(t, fields, k)
	}
	return rep
}

// useKernelDir gives the test process and its children the empty kernel
// cache dir for t.
func useKernelDir(t *testing.T, dir string) {
	t.Helper()
	t.Setenv(wgpu.KernelCacheEnv, dir)
	kd, err := wgpu.OpenKernelDir(dir)
	require.NoError(t, err)
	old := wgpu.SetKernelStore(kd)
	t.Cleanup(func() { wgpu.SetKernelStore(old) })
}

// TestGenerate: the generation tunes the prefill's and the decode's 14
// keys, replays the decode graph per token with 0 compiles and 0 new
// buffers, generates the reference's tokens, and its cold child (the
// test binary re-executed, caches empty) takes longer to the first token
// than the warm run; its restart child (re-executed with the caches the
// run left) tunes nothing, reads every source from the kernel cache and
// never starts the lowering's sandbox; a second run with the same cache
// finds every key there and measures nothing.
func TestGenerate(t *testing.T) {
	needAdapter(t)
	dir := t.TempDir()
	cache, out := filepath.Join(dir, "tune.db"), filepath.Join(dir, "out")
	useKernelDir(t, filepath.Join(dir, "kernels"))

	rep := runGenerate(t, "-cache", cache, "-out", out)
	assert.Equal(t, "generate", rep.Workload)
	assert.Equal(t, 2, rep.Layers)
	assert.Equal(t, 5, rep.PromptTokens)
	assert.Equal(t, 6, rep.Tokens)
	assert.Equal(t, smallGenerateConfig.DecodeLaunches(), rep.LaunchesPerToken, "the built decode step's, as the decoder describes it")
	assert.Equal(t, smallGenerateConfig.PrefillLaunches(), rep.LaunchesPrefill, "the built prefill's, as the decoder describes it")
	assert.Equal(t, 14, rep.Keys, "5 matmul shapes, the layer norm and the softmax, for the prefill and the decode step")
	assert.Equal(t, 14, rep.TunedKeys)
	assert.Zero(t, rep.CacheHits)
	assert.Len(t, rep.Winners, 14)
	assert.Positive(t, rep.MeasurementLaunches)
	assert.Equal(t, uint64(rep.LaunchesPrefill+rep.LaunchesPerToken), rep.LaunchesCaptured)
	assert.Zero(t, rep.RealPassCompiles)
	assert.Zero(t, rep.BuffersCreatedAfterFirst)
	assert.Equal(t, uint64(6), rep.Replays, "the prefill once, the decode step per token after the first")
	assert.True(t, rep.TokensMatchReference)
	assert.Less(t, rep.MaxAbsError, 1e-4)

	w := decoder.NewWeights(smallGenerateConfig)
	want := decoder.ReferenceGenerate(smallGenerateConfig, w, w.Tokens[:5], 6)
	assert.Equal(t, want.Tokens, rep.Generated)
	assert.Equal(t, w.Tokens[:5], rep.Prompt)

	assert.Positive(t, rep.TTFTMsWarm)
	assert.Len(t, rep.TokenMs, 5)
	assert.LessOrEqual(t, rep.TokenMsMin, rep.TokenMsMedian)
	assert.LessOrEqual(t, rep.TokenMsMedian, rep.TokenMsP99)
	assert.LessOrEqual(t, rep.TokenMsP99, rep.TokenMsMax)
	assert.Positive(t, rep.TokensPerS)

	assert.True(t, rep.Cold)
	assert.Greater(t, rep.TTFTMsCold, rep.TTFTMsWarm, "cold: a child with empty caches, compiling at its launches")
	assert.Positive(t, rep.ColdCompiles)
	assert.Len(t, rep.ColdTokenMs, 5)
	assert.Positive(t, rep.CompileMsPrefill)
	assert.Positive(t, rep.CompileMsDecode)
	assert.Zero(t, rep.TTFTMsColdSandbox, "not asked for")
	assert.Greater(t, rep.ColdMsToFirstToken, rep.TTFTMsCold, "from the cold child's process start")

	assert.Positive(t, rep.DeviceOpenMs)
	assert.Greater(t, rep.ProcessMsToFirstToken, rep.TTFTMsWarm+rep.DeviceOpenMs)
	assert.Positive(t, rep.KernelCache.Misses, "a new kernel cache: the sources are lowered")
	assert.Equal(t, filepath.Join(dir, "kernels"), rep.KernelCache.Store)
	assert.True(t, rep.Restart)
	assert.Zero(t, rep.RestartTunedKeys, "the restart finds every winner in the tune cache")
	assert.Zero(t, rep.RestartLoweringStarts, "the restart reads every source from the kernel cache")
	assert.Zero(t, rep.RestartKernelCache.Misses)
	assert.Positive(t, rep.RestartKernelCache.StoreHits, "the winners' sources, read")
	assert.Greater(t, rep.RestartMsToFirstToken, rep.RestartDeviceOpenMs+rep.RestartWarmupMs)
	assert.Positive(t, rep.RestartTTFTMs)

	assert.Equal(t, filepath.Join(out, "generate.png"), rep.Chart)
	png, err := os.ReadFile(rep.Chart)
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(png[:4]))
	assert.Equal(t, registry.ProcessExecute, registry.Default.ProcessMode(), "the process mode is restored")

	again := runGenerate(t, "-cache", cache, "-out", "", "-cold=false", "-restart=false")
	assert.Equal(t, 14, again.CacheHits)
	assert.Zero(t, again.TunedKeys)
	assert.Zero(t, again.MeasurementLaunches, "a second run measures nothing")
	assert.Equal(t, rep.Generated, again.Generated)
	assert.False(t, again.Cold)
	assert.Zero(t, again.TTFTMsCold)
	assert.False(t, again.Restart)
	assert.Zero(t, again.RestartMsToFirstToken)
}

// TestGenerateText: the text names the stages and the figures.
func TestGenerateText(t *testing.T) {
	needAdapter(t)
	code, out, errOut := runCmd(t, append(smallGenerate, "-cache", "", "-out", "", "-cold=false", "-restart=false", "-prompt", "3,1,4,1,5", "-tokens", "3")...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	t.Log("\n" + out)
	for _, s := range []string{"prompt:  3 1 4 1 5", "== 1. warm-up, process mode CompileAndAutotune", "launches captured:",
		"== 2. generation, process mode Execute", "time to first token:", "per token:", fmt.Sprintf("launches per token:        %d", smallGenerateConfig.DecodeLaunches()),
		"pipelines compiled:        0", "GPU buffers created:       0 after the first token", "CPU check:                 passed",
		"from process start:", "kernel cache:"} {
		assert.Contains(t, out, s)
	}
	assert.NotContains(t, out, "== 3.")
}

// TestGenerateUsage: bad flags are usage errors, exit status 2, naming
// the problem.
func TestGenerateUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"tokens", []string{"-tokens", "1"}, "-tokens must be at least 2"},
		{"prompt", []string{"-prompt", "1,x"}, `-prompt: "x" is not a token id`},
		{"prompt token", []string{"-prompt", "1,50"}, "prompt token 1 is 50, not below the vocabulary size 50"},
		{"too long", []string{"-tokens", "13"}, "over the maximum sequence length 16"},
		{"prompt len", []string{"-prompt-len", "17"}, "-prompt-len must be in 1..16"},
		{"heads", []string{"-heads", "5"}, "not a multiple of heads"},
		{"timing", []string{"-timing", "x"}, "-timing must be auto or wall"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCmd(t, append(smallGenerate, tc.args...)...)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, tc.want)
		})
	}
}

func TestLatencies(t *testing.T) {
	var ts []time.Duration
	for i := 100; i >= 1; i-- {
		ts = append(ts, time.Duration(i)*time.Millisecond)
	}
	median, p99, lo, hi, perS := genrun.Latencies(ts)
	assert.Equal(t, 51.0, median)
	assert.Equal(t, 99.0, p99)
	assert.Equal(t, 1.0, lo)
	assert.Equal(t, 100.0, hi)
	assert.InDelta(t, 100/5.05, perS, 1e-9)
	_, p99, _, _, _ = genrun.Latencies(ts[:10]) // 100..91 ms
	assert.Equal(t, 100.0, p99, "p99 of 10 is the largest")
	assert.Equal(t, 100*time.Millisecond, ts[0], "the input is not sorted in place")
}

// TestColdEnv: the cold child's environment turns Mesa's cache off, at an
// empty folder, and names the sandbox's cache only when asked.
func TestColdEnv(t *testing.T) {
	t.Setenv("MESA_SHADER_CACHE_DIR", "/somewhere")
	env, err := coldEnv("/tmp/x", childCold, map[string]string{"k": "v"}, false)
	require.NoError(t, err)
	assert.Contains(t, env, "MESA_SHADER_CACHE_DISABLE=true")
	assert.Contains(t, env, "MESA_SHADER_CACHE_DIR=/tmp/x/mesa")
	assert.NotContains(t, env, "MESA_SHADER_CACHE_DIR=/somewhere")
	assert.Contains(t, env, coldChildEnv+"=cold")
	assert.Contains(t, env, coldWinnersEnv+`={"k":"v"}`)
	for _, kv := range env {
		assert.False(t, strings.HasPrefix(kv, "XDG_CACHE_HOME=/tmp/x"), kv)
	}
	env, err = coldEnv("/tmp/x", childCold, nil, true)
	require.NoError(t, err)
	assert.Contains(t, env, "XDG_CACHE_HOME=/tmp/x/cache")
}
