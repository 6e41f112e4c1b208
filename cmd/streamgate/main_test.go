//go:build cgo

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/internal/low/leaktest"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
)

func TestMain(m *testing.M) { gputest.Main(func() int { return leaktest.Run(m.Run) }) }

// launchCases: streamgate bench runs the launch cases in this build.
const launchCases = true

// needAdapter skips t, or fails it under STREAMGATE_REQUIRE_ADAPTER=1, when
// the machine has no WebGPU adapter.
func needAdapter(t *testing.T) { streamgatetest.OpenDevice(t) }

// small sizes, none a multiple of a tile, so every bounds check runs.
var smallWarmup = []string{"warmup", "-workload", "ops", "-m", "40", "-n", "36", "-k", "20", "-steps", "3"}

// count returns the integer the regexp's first group captures in s.
func count(t *testing.T, s, re string) int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(s)
	require.NotNil(t, m, "no %q in:\n%s", re, s)
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return n
}

func TestWarmupTunesThenHitsTheCache(t *testing.T) {
	streamgatetest.OpenDevice(t) // skips, or fails under STREAMGATE_REQUIRE_ADAPTER=1, without an adapter
	cache := filepath.Join(t.TempDir(), "tune.db")
	args := append(smallWarmup, "-cache", cache)

	code, out, errOut := runCmd(t, args...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	t.Log("\n" + out)
	assert.Empty(t, errOut)
	assert.Contains(t, out, "tune cache: "+cache)
	assert.Contains(t, out, "process mode CompileAndAutotune")
	assert.Equal(t, 4, count(t, out, `launches discarded:\s+(\d+)`), "the step's 4 launches (matmul, softmax, 2 reduce passes)")
	compiled := count(t, out, `pipelines compiled:\s+(\d+) \(of \d+ candidate kernels\)`)
	assert.Equal(t, 13, compiled, "every candidate's kernels compile in warm-up")
	assert.Positive(t, count(t, out, `measurement launches run:\s+(\d+)`))
	for _, key := range []string{"matmul/64x64x32", "softmax/64x64", "reduce/2048"} {
		assert.Regexp(t, regexp.QuoteMeta(key)+` \(timing: (gpu|wall)\)\n\s+candidate\s+samples\s+best\s+median\s+score\s+status\n`, out)
	}
	assert.Equal(t, 3, strings.Count(out, "  winner\n"), "one winner per op")
	assert.Contains(t, out, "tuned 3 ops")
	assert.Contains(t, out, "process mode Execute: 3 steps")
	assert.Equal(t, 12, count(t, out, `launches executed:\s+(\d+), discarded: 0`))
	assert.Equal(t, 0, count(t, out, `pipelines compiled:\s+(\d+) \(compile stalls avoided`), "the real pass compiles nothing")
	assert.Equal(t, compiled, count(t, out, `compile stalls avoided: (\d+) pipelines were compiled in warm-up`))
	assert.Contains(t, out, "CPU check:                 passed")
	assert.Equal(t, registry.ProcessExecute, registry.Default.ProcessMode(), "the process mode is restored")

	// A second run finds every winner in the cache and measures nothing.
	code, out, errOut = runCmd(t, args...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	t.Log("\n" + out)
	assert.Equal(t, 3, strings.Count(out, ": cache hit, winner "))
	assert.Equal(t, 3, strings.Count(out, "; nothing measured\n"))
	assert.NotContains(t, out, "(timing: ")
	assert.Contains(t, out, "tune cache hit for all 3 ops: nothing was measured")
	assert.Equal(t, 0, count(t, out, `measurement launches run:\s+(\d+)`))
	assert.Equal(t, 4, count(t, out, `launches discarded:\s+(\d+)`))
	assert.Equal(t, 4, count(t, out, `pipelines compiled:\s+(\d+) \(of`), "only the winners compile, at their discarded launches")
	assert.Equal(t, 0, count(t, out, `pipelines compiled:\s+(\d+) \(compile stalls avoided`))
	assert.Contains(t, out, "CPU check:                 passed")
}

// TestWarmupUnusableCache: an explicit -cache it cannot use is a usage
// error, with what to do; an unusable default -cache is a warning, and the
// run goes on in memory.
func TestWarmupUnusableCache(t *testing.T) {
	streamgatetest.OpenDevice(t)
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	args := append(smallWarmup, "-steps", "1", "-timing", "wall", "-cache", filepath.Join(file, "tune.db"))
	code, out, errOut := runCmd(t, args...)
	require.Equal(t, 2, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "streamgate warmup: -cache "+filepath.Join(file, "tune.db")+": ")
	assert.Contains(t, errOut, "give another -cache, or run with -cache ''\nsee 'streamgate help warmup'\n")

	t.Setenv("XDG_CACHE_HOME", file) // the default -cache is under a file
	code, out, errOut = runCmd(t, smallWarmup[0], smallWarmup[1], smallWarmup[2], "-steps", "1", "-timing", "wall")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.True(t, strings.HasPrefix(errOut, "streamgate warmup: warning: -cache "+filepath.Join(file, "streamgate", "tune.db")+": "), "stderr:\n%s", errOut)
	assert.Contains(t, errOut, "; tuning in memory only\n")
	assert.Contains(t, out, "tune cache: none, in memory only (the default -cache "+filepath.Join(file, "streamgate", "tune.db")+" is not usable)\n")
	assert.Contains(t, out, "the winners are stored in memory only (the default -cache")
	assert.Equal(t, 3, strings.Count(out, "(timing: wall)"))
	assert.Contains(t, out, "CPU check:                 passed")
}

func TestInfo(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	code, out, errOut := runCmd(t, "info")
	require.Equal(t, 0, code, "stderr:\n%s", errOut)
	t.Log("\n" + out)
	assert.Regexp(t, `adapters: [1-9]`, out)
	assert.Contains(t, out, "adapter:       "+d.Info().Name)
	assert.Contains(t, out, "timestamp-query: ")
	assert.Regexp(t, `MaxComputeWorkgroupsPerDimension\s+\d+`, out)
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out, err string // substrings of stdout and stderr
	}{
		{name: "no args", args: nil, code: 2, err: "usage: streamgate <command>"},
		{name: "unknown", args: []string{"bogus"}, code: 2, err: `unknown command "bogus"`},
		{name: "help", args: []string{"help"}, code: 0, out: "  warmup "},
		{name: "-h", args: []string{"-h"}, code: 0, out: "  info "},
		{name: "help warmup", args: []string{"help", "warmup"}, code: 0, out: "-steps"},
		{name: "help unknown", args: []string{"help", "bogus"}, code: 2, err: `unknown command "bogus"`},
		{name: "bad flag", args: []string{"warmup", "-bogus"}, code: 2, err: "flag provided but not defined"},
		{name: "-h flag", args: []string{"warmup", "-h"}, code: 0, out: "usage: streamgate warmup"},
		{name: "-help flag", args: []string{"info", "-help"}, code: 0, out: "usage: streamgate info"},
		{name: "bad flag is one line", args: []string{"warmup", "-bogus"}, code: 2, err: "streamgate warmup: flag provided but not defined: -bogus\nsee 'streamgate help warmup'\n"},
		{name: "help tune", args: []string{"help", "tune"}, code: 0, out: "  export   write the tune cache"},
		{name: "help wgsl", args: []string{"help", "wgsl"}, code: 0, out: "  check    check WGSL files"},
		{name: "help wgsl check", args: []string{"help", "wgsl", "check"}, code: 0, out: "usage: streamgate wgsl check"},
		{name: "help tune bogus", args: []string{"help", "tune", "bogus"}, code: 2, err: `unknown subcommand "bogus" of tune`},
		{name: "tune -h", args: []string{"tune", "-h"}, code: 0, out: "usage: streamgate tune <subcommand>"},
		{name: "help extra", args: []string{"help", "tune", "export", "extra"}, code: 2, err: "streamgate: help tune export: unexpected arguments: extra\nsee 'streamgate help'\n"},
		{name: "wgsl alone", args: []string{"wgsl"}, code: 2, err: "streamgate wgsl: missing subcommand: check\nsee 'streamgate help wgsl'\n"},
		{name: "extra args", args: []string{"info", "extra"}, code: 2, err: "unexpected arguments: extra"},
		{name: "zero steps", args: []string{"warmup", "-steps", "0"}, code: 2, err: "-steps must be at least 1"},
		{name: "bad timing", args: []string{"warmup", "-timing", "gpu-ish"}, code: 2, err: "-timing must be auto or wall"},
		{name: "bad size", args: []string{"warmup", "-workload", "ops", "-m", "0"}, code: 2, err: "must be positive"},
		{name: "bad workload", args: []string{"warmup", "-workload", "mlp"}, code: 2, err: "-workload must be model or ops"},
		{name: "bad heads", args: []string{"warmup", "-width", "30", "-heads", "4"}, code: 2, err: "width 30 is not a multiple of heads 4"},
		{name: "bad layers", args: []string{"warmup", "-layers", "0"}, code: 2, err: "sizes must be positive"},
		{name: "ops flag for model", args: []string{"warmup", "-m", "64"}, code: 2, err: "-m: not a flag of -workload model"},
		{name: "model flag for ops", args: []string{"warmup", "-workload", "ops", "-layers", "2"}, code: 2, err: "-layers: not a flag of -workload ops"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tc.args...)
			assert.Equal(t, tc.code, code, "run(%q) exit status", tc.args)
			assert.Contains(t, out, tc.out)
			assert.Contains(t, errOut, tc.err)
		})
	}
}
