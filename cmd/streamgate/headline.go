package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
)

// headlineSection is the name in the markers of BENCHMARKS.md's headline
// table; it is no benchmark's Thing, so no run adds or skips it as one.
const headlineSection = "Headline"

// headlineRow is one row of the headline table: a ratio of two cases'
// medians measured side by side, or a row measured outside streamgate
// bench, whose figures are written by hand.
type headlineRow struct {
	what string // the row's label, as the table shows it
	// ours and base are the cases divided (Case.Name, ours over base); both
	// "" for a hand-written row.
	ours, base string
	// procs is the GOMAXPROCS of both cases (the readers of a PerCPU case);
	// 0 for cases that run once, at the machine's GOMAXPROCS.
	procs int
	// by names what measures a hand-written row; "" for a row of cases.
	by string
	// section and anchor make the row's link to its section of the file.
	section, anchor string
}

// handWritten reports whether the row's figures come from outside the run.
func (h headlineRow) handWritten() bool { return h.ours == "" }

// headline is BENCHMARKS.md's headline table, at most a dozen rows. The
// registry's rows read at two readers, the cores of the machine the table
// was first written on.
var headline = []headlineRow{
	{what: "a replayed step's launch ÷ the C floor (the same loop in C, no Go), kernels=1",
		ours: "Replay/impl=client-replay/kernels=1", base: "Floor/impl=c/kernels=1",
		section: "Replay", anchor: "replay"},
	{what: "a replayed step's launch ÷ the C floor, three kernels alternating (kernels=3)",
		ours: "Replay/impl=client-replay/kernels=3", base: "Floor/impl=c/kernels=3",
		section: "Replay", anchor: "replay"},
	{what: "an executed launch through a client ÷ the C floor, kernels=1",
		ours: "ExecutedLaunch/impl=client/kernels=1", base: "Floor/impl=c/kernels=1",
		section: "ExecutedLaunch", anchor: "executedlaunch"},
	{what: "an executed launch through a client ÷ the C floor, kernels=3",
		ours: "ExecutedLaunch/impl=client/kernels=3", base: "Floor/impl=c/kernels=3",
		section: "ExecutedLaunch", anchor: "executedlaunch"},
	{what: "10,000 launches through a client ÷ go-webgpu as users write it (a submit per dispatch)",
		ours: "LaunchLoop/impl=client/workgroups=1", base: "LaunchLoop/impl=raw-submit-each/workgroups=1",
		section: "LaunchLoop", anchor: "launchloop"},
	{what: "a model's forward step replayed ÷ hand-written go-webgpu, one pass",
		ours: "ModelStep/impl=client-replay", base: "ModelStep/impl=raw-one-pass",
		section: "ModelStep", anchor: "modelstep"},
	{what: "a decode token (57 launches) replayed ÷ hand-written go-webgpu, one pass",
		ours: "Decode/impl=client-replay", base: "Decode/impl=raw-one-pass",
		section: "Decode", anchor: "decode"},
	{what: "the registry's read ÷ the seed's design, 8 overrides live",
		ours: "Mode/impl=registry/k=8", base: "Mode/impl=seed/k=8", procs: 2,
		section: "Mode", anchor: "mode"},
	{what: "the registry's Set+Release ÷ the seed's, 8 overrides live (writes pay for lock-free reads)",
		ours: "SetRelease/impl=registry/k=8", base: "SetRelease/impl=seed/k=8", procs: 2,
		section: "SetRelease", anchor: "setrelease"},
	{what: "a restart on warm caches, process start to first token (device open included) ÷ before the kernel cache (9 interleaved rounds)",
		by:      "`scripts/startwarm-bench.sh`, by hand",
		section: "Start warm", anchor: "start-warm-a-restart-on-warm-caches-issue-43"},
	{what: "in a browser: a launch recorded in Go ÷ the same loop in plain JS (7 runs' medians)",
		by:      "`BenchmarkWeb`, by hand",
		section: "In a browser", anchor: "in-a-browser-issue-29-a-launch-recorded-in-go-in-plain-js-replayed"},
	{what: "in a browser: a replayed launch ÷ plain JS",
		by:      "`BenchmarkWeb`, by hand",
		section: "In a browser", anchor: "in-a-browser-issue-29-a-launch-recorded-in-go-in-plain-js-replayed"},
}

// headlineCaseRows returns how many rows of the headline a run can refresh.
func headlineCaseRows() int {
	n := 0
	for _, row := range headline {
		if !row.handWritten() {
			n++
		}
	}
	return n
}

// headlineFigures are a row's ratio and range cells, as the table shows them.
type headlineFigures struct{ ratio, span string }

// noFigures fills the cells of a row that no run or hand has measured yet.
var noFigures = headlineFigures{"–", "–"}

// parseHeadline returns the figures of each row of a headline section's
// lines (the markers excluded), keyed by the row's label. Lines that are
// not rows of the table are ignored.
func parseHeadline(lines []string) map[string]headlineFigures {
	figures := map[string]headlineFigures{}
	for _, line := range lines {
		cells := strings.Split(line, "|")
		// "| what | ratio | range | measured by | section |" splits into 7 cells.
		if len(cells) != 7 || strings.TrimSpace(cells[0]) != "" {
			continue
		}
		figures[strings.TrimSpace(cells[1])] = headlineFigures{strings.TrimSpace(cells[2]), strings.TrimSpace(cells[3])}
	}
	return figures
}

// headlineRatio returns row's figures from the results: the ratio of the
// two cases' medians and the range of their rounds paired the worst way
// each way (our min over its max, our max over its min), the ratio in bold
// where the whole range is below 1. ok is false unless both cases ran, at
// the row's GOMAXPROCS, and neither failed.
func headlineRatio(row headlineRow, results []*result) (f headlineFigures, ok bool) {
	find := func(name string) *result {
		for _, r := range results {
			if r.Name() == name && (row.procs == 0 || r.procs == row.procs) && !r.failed {
				return r
			}
		}
		return nil
	}
	ours, base := find(row.ours), find(row.base)
	if row.handWritten() || ours == nil || base == nil {
		return f, false
	}
	oLo, oHi := ours.spread()
	bLo, bHi := base.spread()
	lo, hi := oLo/bHi, oHi/bLo
	f.ratio = fmt.Sprintf("%.2f", ours.nsPerOp()/base.nsPerOp())
	if hi < 1 {
		f.ratio = "**" + f.ratio + "**"
	}
	f.span = fmt.Sprintf("%.2f–%.2f", lo, hi)
	return f, true
}

// writeHeadline writes the headline section, markers included: each row
// of cases that ran in full with its figures from results, every other
// row with its figures from prev (the section as it was, by label). It
// returns how many rows it recomputed.
func writeHeadline(w io.Writer, prev map[string]headlineFigures, results []*result) (refreshed int) {
	fmt.Fprintln(w, docBegin(headlineSection))
	fmt.Fprintln(w, "| what | ratio | range | measured by | section |")
	fmt.Fprintln(w, "|---|---:|---:|---|---|")
	for _, row := range headline {
		f, ok := headlineRatio(row, results)
		if ok {
			refreshed++
		} else if f, ok = prev[row.what]; !ok {
			f = noFigures
		}
		by := cmp.Or(row.by, "`make bench`")
		fmt.Fprintf(w, "| %s | %s | %s | %s | [%s](#%s) |\n", row.what, f.ratio, f.span, by, row.section, row.anchor)
	}
	fmt.Fprintln(w, docEnd(headlineSection))
	return refreshed
}
