package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBench(t *testing.T) {
	needAdapter(t)
	out := t.TempDir()
	code, stdout, stderr := runCmd(t, "bench", "-benchtime", "1x", "-count", "3", "-cpu", "1,2", "-out", out,
		"-run", `^Mode/impl=(seed|registry)/k=(0|8)$|^DiscardedLaunch/impl=client-wgpu/k=0$`)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	t.Log("\n" + stdout)
	assert.Contains(t, stdout, "| benchmark | ns/op (median) | min–max | allocs/op | B/op | ÷ baseline | baseline | metrics |")
	assert.Contains(t, stdout, "-count 3")
	assert.Contains(t, stderr, "round 3/3 ")
	for _, row := range []string{
		"| Mode/impl=seed/k=0 | ", "| Mode/impl=seed/k=8-2 | ",
		"| Mode/impl=registry/k=0 | ", "| Mode/impl=registry/k=8-2 | ",
	} {
		assert.Contains(t, stdout, row)
	}
	assert.Regexp(t, `\| Mode/impl=seed/k=8 \| [0-9.]+ \| [0-9.]+–[0-9.]+ \| \d+ \| \d+ \| 1\.000 \| seed \|`, stdout)
	assert.Regexp(t, `\| Mode/impl=registry/k=8-2 \| [0-9.]+ \| [0-9.]+–[0-9.]+ \| \d+ \| \d+ \| [0-9.]+ \| seed \|`, stdout)
	assert.NotContains(t, stdout, "FAILED")
	assert.NotContains(t, stdout, "ModeChurn")
	if launchCases {
		// One iteration a round: allocations are not settled (the race
		// detector allocates too); the row is what is checked.
		assert.Regexp(t, `\| DiscardedLaunch/impl=client-wgpu/k=0(-\d+)? \| [0-9.]+ \| [0-9.]+–[0-9.]+ \| \d+ \|`, stdout)
		assert.Contains(t, stdout, "- adapter: ")
	}
	for _, name := range []string{"bench-mode.png", "bench-mode.svg", "bench.md"} {
		fi, err := os.Stat(filepath.Join(out, name))
		if assert.NoError(t, err) {
			assert.Positive(t, fi.Size(), name)
		}
	}
	png, err := os.ReadFile(filepath.Join(out, "bench-mode.png"))
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(png[:4]))
}

func TestBenchUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		err  string
	}{
		{"bad cpu", []string{"bench", "-cpu", "1,x"}, `-cpu: "x" is not a positive integer`},
		{"bad run", []string{"bench", "-run", "("}, "-run: error parsing regexp"},
		{"bad benchtime", []string{"bench", "-benchtime", "soon", "-run", "^$"}, "-benchtime: "},
		{"nothing matches", []string{"bench", "-run", "^nothing$"}, "no case matches"},
		{"bad count", []string{"bench", "-count", "0"}, "-count 0: want at least 1"},
		{"negative settle", []string{"bench", "-settle", "-1s"}, "-settle -1s: want 0 or more"},
		{"bad settle", []string{"bench", "-settle", "soon"}, "invalid value \"soon\" for flag -settle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr := runCmd(t, append(tc.args, "-out", out)...)
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr, tc.err)
			_, err := os.Stat(out)
			assert.True(t, os.IsNotExist(err), "a usage error made -out %s (%v)", out, err)
		})
	}
}

// TestBenchModelStep: the decoder's step runs through the four
// implementations and shows its launches/s (the step's, not one an op's).
func TestBenchModelStep(t *testing.T) {
	needAdapter(t)
	if !launchCases {
		t.Skip("no launch cases without cgo")
	}
	code, stdout, stderr := runCmd(t, "bench", "-benchtime", "1x", "-count", "1", "-out", t.TempDir(), "-run", `^ModelStep/`)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	t.Log("\n" + stdout)
	for _, impl := range []string{"client", "device", "raw-one-pass", "raw-submit-each"} {
		assert.Regexp(t, `\| ModelStep/impl=`+impl+`(-\d+)? \| [0-9.]+ \| .* \| raw-one-pass \| [0-9.]+k? launches/s \|`, stdout)
	}
}

// TestBenchRoundOrder: the first round runs the cases as listed, every
// round runs each case once, the orders repeat from run to run, and over
// the rounds a case does not always follow the same one.
func TestBenchRoundOrder(t *testing.T) {
	results := make([]*result, 5)
	for i := range results {
		results[i] = &result{procs: i}
	}
	assert.Equal(t, results, roundOrder(results, 1))
	predecessors := map[int]map[int]bool{}
	for round := 1; round <= 11; round++ {
		order := roundOrder(results, round)
		assert.ElementsMatch(t, results, order, "round %d runs every case once", round)
		assert.Equal(t, order, roundOrder(results, round), "round %d's order repeats", round)
		for i := 1; i < len(order); i++ {
			if predecessors[order[i].procs] == nil {
				predecessors[order[i].procs] = map[int]bool{}
			}
			predecessors[order[i].procs][order[i-1].procs] = true
		}
	}
	for c, p := range predecessors {
		assert.Greater(t, len(p), 1, "case %d always follows the same case", c)
	}
	assert.Equal(t, []int{0, 1, 2, 3, 4}, []int{results[0].procs, results[1].procs, results[2].procs, results[3].procs, results[4].procs}, "the listed order is not changed")
}

// TestBenchSettle: -settle pauses before every run (here 2 rounds of 2
// cases: at least 4 pauses) and the table's header repeats it.
func TestBenchSettle(t *testing.T) {
	start := time.Now()
	code, stdout, stderr := runCmd(t, "bench", "-benchtime", "1x", "-count", "2", "-cpu", "1", "-settle", "100ms", "-out", t.TempDir(),
		"-run", `^Mode/impl=(seed|registry)/k=0$`)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.GreaterOrEqual(t, time.Since(start), 400*time.Millisecond, "four runs, each after a 100 ms pause")
	assert.Contains(t, stdout, "-count 2 -cpu 1 -settle 100ms")
	assert.Contains(t, stderr, "round 2/2 ")
}
