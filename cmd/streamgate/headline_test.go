package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/bench"
)

// roundsResult is a case that ran one round at each of ns ns/op.
func roundsResult(c bench.Case, procs int, ns ...float64) *result {
	r := &result{Case: c, procs: procs}
	for _, v := range ns {
		r.runs = append(r.runs, testing.BenchmarkResult{N: 1000, T: time.Duration(v * 1000)})
	}
	r.settle()
	return r
}

// docHeadline returns the lines of doc's headline section, markers
// included, and doc without them.
func docHeadline(t *testing.T, doc string) (section, rest string) {
	t.Helper()
	before, after, ok := strings.Cut(doc, docBegin(headlineSection)+"\n")
	require.True(t, ok, "no headline section")
	body, after, ok := strings.Cut(after, docEnd(headlineSection)+"\n")
	require.True(t, ok, "the headline section has no end")
	return docBegin(headlineSection) + "\n" + body + docEnd(headlineSection) + "\n", before + after
}

// headlineRowLine returns the headline row labelled what in section.
func headlineRowLine(t *testing.T, section, what string) string {
	t.Helper()
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| "+what+" | ") {
			return line
		}
	}
	t.Fatalf("no headline row %q in\n%s", what, section)
	return ""
}

// TestBenchmarksHeadlineIsGenerated: BENCHMARKS.md opens with its
// headline table, in its generated section and as the code's table writes
// it (labels, columns, links); at most a dozen rows, each linking to a
// heading of the file; every row of cases names cases the suite has.
func TestBenchmarksHeadlineIsGenerated(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "BENCHMARKS.md"))
	require.NoError(t, err)
	doc := string(src)
	_, after, ok := strings.Cut(doc, "# Benchmarks\n\n## Headline\n")
	require.True(t, ok, "BENCHMARKS.md does not open with its headline")
	intro, _, ok := strings.Cut(after, "\n## ")
	require.True(t, ok, "the headline is the whole file")
	section, _ := docHeadline(t, doc)
	assert.Contains(t, intro, section, "the headline's generated section lies under its heading")

	lines := strings.Split(strings.TrimSuffix(section, "\n"), "\n")
	var b strings.Builder
	n := writeHeadline(&b, parseHeadline(lines[1:len(lines)-1]), nil)
	assert.Zero(t, n, "no results, no row recomputed")
	assert.Equal(t, b.String(), section, "the file's headline is not what the code's table writes: refresh it or edit headline.go")
	assert.NotContains(t, section, "| – |", "a row without figures")

	anchors := map[string]bool{}
	for _, line := range strings.Split(doc, "\n") {
		if title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			anchors[headingAnchor(title)] = true
		}
	}
	cases := map[string]bench.Case{}
	for _, c := range append(bench.RegistrySuite(), bench.LaunchSuite(nil)...) {
		cases[c.Name()] = c
	}
	assert.LessOrEqual(t, len(headline), 12, "a headline of at most a dozen rows")
	labels := map[string]bool{}
	for _, row := range headline {
		assert.False(t, labels[row.what], "two rows labelled %q", row.what)
		labels[row.what] = true
		assert.NotContains(t, row.what, "|", "a label holds a cell separator")
		assert.True(t, anchors[row.anchor], "row %q links to #%s, which no heading makes", row.what, row.anchor)
		if row.handWritten() {
			assert.NotEmpty(t, row.by, "hand-written row %q does not say what measures it", row.what)
			assert.Empty(t, row.base, "hand-written row %q has a baseline case", row.what)
			continue
		}
		assert.Empty(t, row.by, "row %q of cases says it is measured by hand", row.what)
		for _, name := range []string{row.ours, row.base} {
			c, ok := cases[name]
			if assert.True(t, ok, "row %q: the suite has no case %s", row.what, name) {
				assert.Equal(t, c.PerCPU, row.procs != 0, "row %q: procs %d for %s (PerCPU %v)", row.what, row.procs, name, c.PerCPU)
			}
		}
	}
}

// TestHeadlineRefresh: a refresh of BENCHMARKS.md recomputes the headline
// rows whose two cases ran in full (the ratio of medians; the range our
// min over its max to our max over its min; bold when all of it is below
// 1), keeps every other row's figures and the hand-written rows', and
// leaves the rest of the file (whose benchmarks ran in part) as it was.
func TestHeadlineRefresh(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "BENCHMARKS.md"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	require.NoError(t, os.WriteFile(path, src, 0o644))

	perCPU := func(thing, impl, k string) bench.Case {
		return bench.Case{Thing: thing, Impl: impl, Key: "k", Value: k, Baseline: "seed", PerCPU: true}
	}
	launch := func(thing, impl string) bench.Case {
		return bench.Case{Thing: thing, Impl: impl, Key: "kernels", Value: "1"}
	}
	results := []*result{
		// The 8-overrides read row: two readers ran, and one, which the
		// row does not read.
		roundsResult(perCPU("Mode", "registry", "8"), 1, 9, 9, 9),
		roundsResult(perCPU("Mode", "seed", "8"), 1, 20, 20, 20),
		roundsResult(perCPU("Mode", "registry", "8"), 2, 4, 5, 4.5),
		roundsResult(perCPU("Mode", "seed", "8"), 2, 30, 25, 27),
		// Set+Release, slower: not bold.
		roundsResult(perCPU("SetRelease", "registry", "8"), 2, 400, 500, 450),
		roundsResult(perCPU("SetRelease", "seed", "8"), 2, 150, 140, 160),
		// The 64-overrides read (no row): its baseline did not run.
		roundsResult(perCPU("Mode", "registry", "64"), 2, 1, 1, 1),
		// Replay kernels=1: its baseline, the C floor, failed.
		roundsResult(launch("Replay", "client-replay"), 2, 400, 400, 400),
		{Case: launch("Floor", "c"), procs: 2, failed: true},
	}
	suite := map[string]int{}
	for _, c := range append(bench.RegistrySuite(), bench.LaunchSuite(nil)...) {
		suite[c.Thing]++
	}
	run := docRun{cfg: benchConfig{benchtime: "1x", count: 3, cpus: []int{1, 2}, run: regexp.MustCompile("^(Mode|SetRelease|Replay|Floor)/")}, date: time.Now()}
	up, err := updateDoc(path, run, results, suite, map[string]bool{"Replay": true, "Floor": true})
	require.NoError(t, err)
	assert.Equal(t, []string{"Headline (2 of its 9 rows of cases)"}, up.refreshed)
	assert.Len(t, up.skipped, 4, "Mode, SetRelease and Replay ran in part, Floor failed")

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	oldSection, oldRest := docHeadline(t, string(src))
	section, rest := docHeadline(t, string(b))
	t.Log("\n" + section)
	assert.Equal(t, oldRest, rest, "the refresh changed the file outside the headline")

	for _, tc := range []struct{ what, want string }{
		// 4.5/27, 4/30, 5/25
		{"the registry's read ÷ the seed's design, 8 overrides live", " | **0.17** | 0.13–0.20 | `make bench` | [Mode](#mode) |"},
		// 450/150, 400/160, 500/140
		{"the registry's Set+Release ÷ the seed's, 8 overrides live (writes pay for lock-free reads)", " | 3.00 | 2.50–3.57 | `make bench` | [SetRelease](#setrelease) |"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			assert.Equal(t, "| "+tc.what+tc.want, headlineRowLine(t, section, tc.what))
		})
	}
	for _, row := range headline {
		if strings.Contains(row.what, "Set+Release") || strings.HasSuffix(row.what, "8 overrides live") {
			continue
		}
		assert.Equal(t, headlineRowLine(t, oldSection, row.what), headlineRowLine(t, section, row.what), "a row whose cases did not run in full")
	}

	// A row the previous table lacks, not run, has no figures yet.
	var w strings.Builder
	writeHeadline(&w, nil, nil)
	assert.Contains(t, w.String(), "| an executed launch through a client ÷ the C floor, kernels=3 | – | – | `make bench` | [ExecutedLaunch](#executedlaunch) |\n")
}

func TestHeadlineRatio(t *testing.T) {
	row := headlineRow{ours: "Decode/impl=client-replay", base: "Decode/impl=raw-one-pass"}
	ours := func(ns ...float64) *result {
		return roundsResult(bench.Case{Thing: "Decode", Impl: "client-replay"}, 2, ns...)
	}
	base := func(ns ...float64) *result {
		return roundsResult(bench.Case{Thing: "Decode", Impl: "raw-one-pass"}, 2, ns...)
	}
	for _, tc := range []struct {
		name    string
		row     headlineRow
		results []*result
		want    headlineFigures
		ok      bool
	}{
		{"faster, told apart", row, []*result{ours(8, 9, 10), base(20, 22, 21)}, headlineFigures{"**0.43**", "0.36–0.50"}, true},
		{"spans 1", row, []*result{ours(8, 12, 10), base(9, 11, 10)}, headlineFigures{"1.00", "0.73–1.33"}, true},
		{"one round", row, []*result{ours(5), base(10)}, headlineFigures{"**0.50**", "0.50–0.50"}, true},
		{"no baseline", row, []*result{ours(5)}, headlineFigures{}, false},
		{"failed", row, []*result{ours(5), {Case: bench.Case{Thing: "Decode", Impl: "raw-one-pass"}, procs: 2, failed: true}}, headlineFigures{}, false},
		{"other readers", headlineRow{ours: row.ours, base: row.base, procs: 4}, []*result{ours(5), base(10)}, headlineFigures{}, false},
		{"hand-written", headlineRow{by: "by hand"}, []*result{ours(5), base(10)}, headlineFigures{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := headlineRatio(tc.row, tc.results)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// headingAnchor is the fragment GitHub gives a Markdown heading: lower
// case, spaces as hyphens, other punctuation dropped.
func headingAnchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
