package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/bench"
	"github.com/streamgate/streamgate/wgpu"
)

const benchSummary = "run the registry and launch benchmarks in one process; print a Markdown table and chart ns/op vs k"

func init() {
	register(&command{name: "bench", summary: benchSummary, flags: benchFlags})
}

// benchConfig is the bench command's flags.
type benchConfig struct {
	benchtime string         // as go test -benchtime: "100ms", "1x"
	cpus      []int          // GOMAXPROCS values (readers) of the PerCPU cases
	run       *regexp.Regexp // selects cases by name
	out       string         // directory for the chart and the table
	count     int            // interleaved repetitions of every case
	adapter   string         // wgpu.Options.Adapter of the launch cases
	settle    time.Duration  // a pause before each run, the process idle
}

func benchFlags() (*flag.FlagSet, func(context.Context, io.Writer, io.Writer) int) {
	fs := newFlagSet("bench", benchSummary+`.

Cases are named as go test names them, Benchmark<Thing>/impl=<name>/k=<n>,
less the Benchmark prefix. Registry cases read under b.RunParallel: each runs
once per -cpu value n with GOMAXPROCS n, so n parallel readers (as go test
-cpu does). With n above the machine's cores the readers time-slice. Launch
cases run at the machine's GOMAXPROCS. The ratio column is ns/op divided by
the baseline's (the seed design for registry cases, raw go-webgpu in one pass
for launch cases) at the same GOMAXPROCS: below 1 is faster.

Every case runs -count times, interleaved: each round runs every case once,
the first round in the listed order and each later one in an order shuffled
from the round's number (the same every run), so that no case always runs
right after the same other one (a case that follows work on the same device
can pay for it). The table gives the median ns/op with the min–max of the
rounds; ratios are of medians. Allocations and metrics are the median
round's.`)
	var cfg benchConfig
	var cpus, run string
	fs.StringVar(&cfg.benchtime, "benchtime", "100ms", "run each case for this long per round, or Nx for N iterations (go test -benchtime)")
	fs.IntVar(&cfg.count, "count", 5, "rounds: every case runs once per round, rounds interleaved; the table gives medians and min–max")
	fs.StringVar(&cpus, "cpu", "1,2,4,8", "comma-separated GOMAXPROCS values (parallel readers) for the registry cases")
	fs.StringVar(&cfg.adapter, "adapter", "", adapterUsage+" (launch cases)")
	fs.DurationVar(&cfg.settle, "settle", 0, "pause this long before each run, the process idle, so that a case does not pay for the one before (on lavapipe a model step after another wgpu-device case ran 15-25% slower without one)")
	fs.StringVar(&run, "run", "", "run only the cases whose name (e.g. Mode/impl=seed/k=8) matches this regexp")
	fs.StringVar(&cfg.out, "out", filepath.Join("out", "bench"), "directory for the chart (bench-mode.png, bench-mode.svg) and the table (bench.md)")
	return fs, func(ctx context.Context, stdout, stderr io.Writer) int {
		var err error
		if cfg.settle < 0 {
			return usageFail(stderr, "bench", "-settle %v: want 0 or more", cfg.settle)
		}
		if cfg.count < 1 {
			return usageFail(stderr, "bench", "-count %d: want at least 1", cfg.count)
		}
		if cfg.cpus, err = parseCPUs(cpus); err != nil {
			return usageFail(stderr, "bench", "-cpu: %v", err)
		}
		if cfg.run, err = regexp.Compile(run); err != nil {
			return usageFail(stderr, "bench", "-run: %v", err)
		}
		if err := checkOutDir("-out", cfg.out); err != nil {
			return usageFail(stderr, "bench", "%v", err)
		}
		return benchCmd(ctx, cfg, stdout, stderr)
	}
}

func parseCPUs(s string) ([]int, error) {
	var cpus []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}

// roundOrder is the order of round's runs (from 1): the listed order
// first, then a permutation seeded by the round's number, so that the
// figures do not depend on which case precedes which (lavapipe's threads
// may still be busy with the previous case's work) and a rerun repeats
// the same orders.
func roundOrder(results []*result, round int) []*result {
	if round == 1 {
		return results
	}
	order := slices.Clone(results)
	rand.New(rand.NewPCG(uint64(round), 0x5eed)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// result is one case run at one GOMAXPROCS, -count times.
type result struct {
	bench.Case
	procs  int
	runs   []testing.BenchmarkResult // one a round, in round order
	r      testing.BenchmarkResult   // the run of median ns/op
	failed bool
}

// settle picks the median run into r once every round has run.
func (r *result) settle() {
	if r.failed || len(r.runs) == 0 {
		r.failed = true
		return
	}
	sorted := slices.Clone(r.runs)
	slices.SortFunc(sorted, func(a, b testing.BenchmarkResult) int {
		return cmp.Compare(nsOf(a), nsOf(b))
	})
	r.r = sorted[len(sorted)/2]
}

func nsOf(b testing.BenchmarkResult) float64 { return float64(b.T.Nanoseconds()) / float64(b.N) }

// spread returns the min and max ns/op over the rounds.
func (r result) spread() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, b := range r.runs {
		lo, hi = min(lo, nsOf(b)), max(hi, nsOf(b))
	}
	return lo, hi
}

// name is the case's name as go test prints it: -N for GOMAXPROCS N != 1.
func (r result) name() string {
	if r.procs == 1 {
		return r.Name()
	}
	return fmt.Sprintf("%s-%d", r.Name(), r.procs)
}

func (r result) nsPerOp() float64 { return float64(r.r.T.Nanoseconds()) / float64(r.r.N) }

// setBenchtime makes testing.Benchmark run for d (go test's -benchtime
// syntax), returning the function that restores the previous value.
func setBenchtime(d string) (restore func(), err error) {
	testing.Init() // registers test.benchtime; no effect when already done
	f := flag.Lookup("test.benchtime")
	if f == nil {
		return nil, errors.New("testing has no test.benchtime flag")
	}
	old := f.Value.String()
	if err := f.Value.Set(d); err != nil {
		return nil, err
	}
	return func() { f.Value.Set(old) }, nil
}

// benchCmd runs the selected cases and reports them. It returns 1 when a
// case failed or the launch cases could not run.
func benchCmd(ctx context.Context, cfg benchConfig, stdout, stderr io.Writer) int {
	restore, err := setBenchtime(cfg.benchtime)
	if err != nil {
		return usageFail(stderr, "bench", "-benchtime: %v", err)
	}
	defer restore()
	status := 0

	selected := func(cs []bench.Case) []bench.Case {
		return slices.DeleteFunc(cs, func(c bench.Case) bool { return !cfg.run.MatchString(c.Name()) })
	}
	cases := selected(bench.RegistrySuite())
	adapter := ""
	if launch := selected(bench.LaunchSuite(nil)); len(launch) > 0 {
		env, err := bench.OpenLaunchEnv(wgpu.Options{Adapter: cfg.adapter})
		switch {
		case errors.Is(err, bench.ErrNoCgo):
			fmt.Fprintf(stderr, "streamgate bench: skipping the %d launch cases: %v\n", len(launch), err)
		case err != nil:
			fmt.Fprintf(stderr, "streamgate bench: skipping the %d launch cases: opening the devices: %v\n", len(launch), err)
			status = 1
		default:
			defer env.Close()
			adapter = env.Adapter()
			cases = append(cases, selected(bench.LaunchSuite(env))...)
		}
	}
	if len(cases) == 0 && status != 0 {
		return status // the launch cases matched but could not run; said above
	}
	if len(cases) == 0 {
		return usageFail(stderr, "bench", "no case matches -run %q", cfg.run)
	}

	start := time.Now()
	var results []*result
	for _, c := range cases {
		procs := []int{runtime.GOMAXPROCS(0)}
		if c.PerCPU {
			procs = cfg.cpus
		}
		for _, p := range procs {
			results = append(results, &result{Case: c, procs: p})
		}
	}
	for round := 1; round <= cfg.count; round++ {
		for _, res := range roundOrder(results, round) {
			if err := ctx.Err(); err != nil {
				fmt.Fprintf(stderr, "streamgate bench: %v\n", err)
				return 1
			}
			if res.failed {
				continue
			}
			if cfg.settle > 0 {
				select {
				case <-time.After(cfg.settle):
				case <-ctx.Done():
					fmt.Fprintf(stderr, "streamgate bench: %v\n", ctx.Err())
					return 1
				}
			}
			prev := runtime.GOMAXPROCS(res.procs)
			br := testing.Benchmark(res.F)
			runtime.GOMAXPROCS(prev)
			if br.N == 0 {
				res.failed = true
				status = 1
				fmt.Fprintf(stderr, "round %d/%d %-50s FAILED\n", round, cfg.count, res.name())
				continue
			}
			res.runs = append(res.runs, br)
			fmt.Fprintf(stderr, "round %d/%d %-50s %12d %14.4g ns/op\n", round, cfg.count, res.name(), br.N, nsOf(br))
		}
	}
	for _, res := range results {
		res.settle()
	}
	elapsed := time.Since(start)

	var md strings.Builder
	writeHeader(&md, cfg, adapter, elapsed)
	md.WriteString("\n")
	writeTable(&md, results)
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		fmt.Fprintf(stderr, "streamgate bench: %v\n", err)
		return 1
	}
	charts, err := writeModeCharts(cfg.out, results, cfg.cpus)
	if err != nil {
		fmt.Fprintf(stderr, "streamgate bench: chart: %v\n", err)
		status = 1
	}
	if len(charts) > 0 {
		fmt.Fprintf(&md, "\nchart: %s\n", strings.Join(charts, ", "))
	} else {
		md.WriteString("\nchart: none (no Mode case ran)\n")
	}
	io.WriteString(stdout, md.String())
	table := filepath.Join(cfg.out, "bench.md")
	if err := os.WriteFile(table, []byte(md.String()), 0o644); err != nil {
		fmt.Fprintf(stderr, "streamgate bench: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "table: %s\n", table)
	return status
}

// writeHeader writes the command's settings and the machine.
func writeHeader(w io.Writer, cfg benchConfig, adapter string, elapsed time.Duration) {
	fmt.Fprintf(w, "streamgate bench -benchtime %s -count %d -cpu %s", cfg.benchtime, cfg.count, joinInts(cfg.cpus))
	if cfg.settle > 0 {
		fmt.Fprintf(w, " -settle %v", cfg.settle)
	}
	if cfg.run.String() != "" {
		fmt.Fprintf(w, " -run '%s'", cfg.run)
	}
	fmt.Fprintf(w, "  (%s)\n\n", elapsed.Round(time.Second))
	fmt.Fprintf(w, "- machine: %d CPUs, %s, %s memory; GOMAXPROCS %d by default\n",
		runtime.NumCPU(), cpuModel(), memTotal(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "- go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if adapter != "" {
		fmt.Fprintf(w, "- adapter: %s\n", adapter)
	}
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// cpuModel returns the first "model name" of /proc/cpuinfo, or "unknown CPU".
func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for line := range strings.SplitSeq(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// memTotal returns MemTotal of /proc/meminfo in GiB, or "unknown".
func memTotal() string {
	b, _ := os.ReadFile("/proc/meminfo")
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb float64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%f kB", &kb); err == nil {
				return fmt.Sprintf("%.0f GiB", kb/(1<<20))
			}
		}
	}
	return "unknown"
}

// redundant metrics are 1e9 / ns/op for a case that does one of them per
// op; a case that does several (ModelStep's launches) shows its rate.
var redundant = map[string]bool{"ops/s": true, "launches/s": true}

// isRedundant reports whether metric unit's value v is 1e9 / ns/op.
func isRedundant(unit string, v, nsPerOp float64) bool {
	return redundant[unit] && math.Abs(v*nsPerOp/1e9-1) < 0.01
}

// writeTable writes one Markdown row per result: ns/op, allocs/op, B/op,
// ns/op over the baseline's at the same GOMAXPROCS, and the other metrics.
func writeTable(w io.Writer, results []*result) {
	type key struct {
		thing, k, v string
		procs       int
		impl        string
	}
	ns := map[key]float64{}
	for _, r := range results {
		if !r.failed {
			ns[key{r.Thing, r.Key, r.Value, r.procs, r.Impl}] = r.nsPerOp()
		}
	}
	fmt.Fprintln(w, "| benchmark | ns/op (median) | min–max | allocs/op | B/op | ÷ baseline | baseline | metrics |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---|---|")
	for _, r := range results {
		if r.failed {
			fmt.Fprintf(w, "| %s | FAILED | | | | | | |\n", r.name())
			continue
		}
		lo, hi := r.spread()
		ratio := ""
		if r.Baseline != "" {
			if base, ok := ns[key{r.Thing, r.Key, r.Value, r.procs, r.Baseline}]; ok {
				ratio = fmt.Sprintf("%.3f", r.nsPerOp()/base)
			}
		}
		var metrics []string
		for _, unit := range slices.Sorted(maps.Keys(r.r.Extra)) {
			if !isRedundant(unit, r.r.Extra[unit], r.nsPerOp()) {
				metrics = append(metrics, fmt.Sprintf("%s %s", formatRate(r.r.Extra[unit]), unit))
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s–%s | %d | %d | %s | %s | %s |\n", r.name(), formatNs(r.nsPerOp()), formatNs(lo), formatNs(hi),
			r.r.AllocsPerOp(), r.r.AllocedBytesPerOp(), ratio, r.Baseline, strings.Join(metrics, ", "))
	}
}

// formatNs formats ns/op with 4 significant digits, as go test does.
func formatNs(ns float64) string {
	switch {
	case ns >= 1000:
		return strconv.FormatFloat(math.Round(ns), 'f', 0, 64)
	case ns >= 100:
		return strconv.FormatFloat(ns, 'f', 1, 64)
	case ns >= 10:
		return strconv.FormatFloat(ns, 'f', 2, 64)
	default:
		return strconv.FormatFloat(ns, 'f', 3, 64)
	}
}

// formatRate formats a rate with 3 significant digits and an SI prefix.
func formatRate(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.3gG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.3gM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.3gk", v/1e3)
	}
	return fmt.Sprintf("%.3g", v)
}
