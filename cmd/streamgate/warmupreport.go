//go:build cgo

package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// warmupJSONHelp is the -json part of streamgate help warmup.
const warmupJSONHelp = "With -json it prints one JSON object instead of the text (tune progress\n" +
	"still goes to stderr), of one shape for both workloads; a field of the\n" +
	"other workload is 0:\n" +
	`  {"workload", "adapter", "interrupted",` + "\n" +
	`   "cache": {"file", "read_only", "stored", "redis", "shared"},` + "\n" +
	`   "layers", "width", "heads", "seq", "vocab", "m", "n", "k", "steps",` + "\n" +
	`   "launches_per_step", "warmup_seconds", "warmup_compiles", "warmup_compile_ms",` + "\n" +
	`   "compile_workers", "candidate_kernels", "lowering_starts",` + "\n" +
	`   "kernel_cache": {"store", "store_hits", "misses", "rejected", "store_errors"},` + "\n" +
	`   "launches_discarded", "measurement_launches", "replay", "launches_captured",` + "\n" +
	`   "keys", "tuned_keys", "cache_hits", "winners": {key: variant},` + "\n" +
	`   "real_pass_compiles", "real_pass_buffers_created", "cpu_check", "max_abs_error",` + "\n" +
	`   "tolerance", "matmul_max_error", "softmax_max_error", "sum_error",` + "\n" +
	`   "first_step_ms_warm", "first_step_ms_cold", "cold_compiles",` + "\n" +
	`   "step_ms_median", "step_ms_min", "step_ms_max", "chart"}` + "\n" +
	"(tuned_keys: measured in this run; cache_hits: found in the tune cache;\n" +
	"cache.stored: where this run's winners went, \"file\" or \"memory\" (no file,\n" +
	"or a read-only one); cache.shared: the -cache-url server answered and holds\n" +
	"them; interrupted: Ctrl-C stopped the run, the figures are those reached)."

// warmupReport is what warmup -json prints, as one JSON object, for either
// workload (see warmupJSONHelp); its field names are stable. A field of
// the other workload is 0, "", false or empty.
type warmupReport struct {
	Workload            string            `json:"workload"` // workloadModel or workloadOps
	Adapter             string            `json:"adapter"`
	Interrupted         bool              `json:"interrupted"` // Ctrl-C stopped the run
	Cache               cacheJSON         `json:"cache"`
	Layers              int               `json:"layers"` // model
	Width               int               `json:"width"`  // model
	Heads               int               `json:"heads"`  // model
	Seq                 int               `json:"seq"`    // model
	Vocab               int               `json:"vocab"`  // model
	M                   int               `json:"m"`      // ops
	N                   int               `json:"n"`      // ops
	K                   int               `json:"k"`      // ops
	Steps               int               `json:"steps"`
	LaunchesPerStep     int               `json:"launches_per_step"`
	WarmupSeconds       float64           `json:"warmup_seconds"`
	WarmupCompiles      int64             `json:"warmup_compiles"`
	WarmupCompileMs     float64           `json:"warmup_compile_ms"` // the warm-up's wgpu.Stats.CompileTime
	CompileWorkers      int               `json:"compile_workers"`
	CandidateKernels    int               `json:"candidate_kernels"`
	LoweringStarts      int64             `json:"lowering_starts"`    // the naga sandbox's starts in this process (0 or 1)
	KernelCache         kernelCacheJSON   `json:"kernel_cache"`       // what the warm-up's compiles found in the kernel cache
	LaunchesDiscarded   uint64            `json:"launches_discarded"` // the warm-up's: the step's own (0 with -replay)
	MeasurementLaunches uint64            `json:"measurement_launches"`
	Replay              bool              `json:"replay"`            // -replay: the warm-up captured, the real pass replayed
	LaunchesCaptured    uint64            `json:"launches_captured"` // -replay: the graph's launches
	Keys                int               `json:"keys"`              // tunable keys of the step
	TunedKeys           int               `json:"tuned_keys"`        // keys measured in this run
	CacheHits           int               `json:"cache_hits"`        // keys found in the tune cache
	Winners             map[string]string `json:"winners"`           // key → the variant that won
	RealPassCompiles    int64             `json:"real_pass_compiles"`
	RealBuffersCreated  int64             `json:"real_pass_buffers_created"` // GPU buffers made by the real steps after the first (model)
	CPUCheck            bool              `json:"cpu_check"`
	MaxAbsError         float64           `json:"max_abs_error"`
	Tolerance           float64           `json:"tolerance"`         // model: of the logits
	MatmulMaxError      float64           `json:"matmul_max_error"`  // ops
	SoftmaxMaxError     float64           `json:"softmax_max_error"` // ops
	SumError            float64           `json:"sum_error"`         // ops
	FirstStepMsWarm     float64           `json:"first_step_ms_warm"`
	FirstStepMsCold     float64           `json:"first_step_ms_cold"` // model
	ColdCompiles        int64             `json:"cold_compiles"`      // model
	StepMsMedian        float64           `json:"step_ms_median"`     // the steps after the first
	StepMsMin           float64           `json:"step_ms_min"`
	StepMsMax           float64           `json:"step_ms_max"`
	Chart               string            `json:"chart"` // the PNG written; "" for none (model)
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// stepFigures sets rep's step times from those of the real pass.
func stepFigures(rep *warmupReport, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	rep.FirstStepMsWarm = ms(times[0])
	steady := slices.Clone(times)
	if len(steady) > 1 {
		steady = steady[1:]
	}
	slices.Sort(steady)
	rep.StepMsMedian, rep.StepMsMin, rep.StepMsMax = ms(steady[len(steady)/2]), ms(steady[0]), ms(steady[len(steady)-1])
}

// interrupted reports on stderr that Ctrl-C stopped the run where: what
// was tuned (keys, of n) and where it is stored. It returns the exit
// status.
func interrupted(stderr io.Writer, rep *warmupReport, where string, keys []string, n int, cr *cacheReport) int {
	rep.Interrupted = true
	return sayInterrupted(stderr, "warmup", where, where == "in the warm-up pass", keys, rep.TunedKeys, rep.CacheHits, n, cr)
}

// sayInterrupted writes cmd's line for a run Ctrl-C stopped where: inWarmup
// when the warm-up was under way (keys: those tuned so far), else all n
// keys were decided, tuned of them measured and hits found in the cache.
// It returns the exit status.
func sayInterrupted(stderr io.Writer, cmd, where string, inWarmup bool, keys []string, tuned, hits, n int, cr *cacheReport) int {
	var what string
	switch {
	case !inWarmup && hits == n:
		what = fmt.Sprintf("all %d keys were found in the tune cache", n)
	case !inWarmup:
		what = fmt.Sprintf("all %d keys were decided (%d tuned, %d found in the tune cache); the tuned ones are stored %s",
			n, tuned, hits, cr.stored())
	case len(keys) == 0:
		what = fmt.Sprintf("nothing was tuned (%d of %d keys found in the tune cache)", hits, n)
	default:
		what = fmt.Sprintf("tuned %d of %d keys (%s), stored %s; %d found in the tune cache",
			len(keys), n, strings.Join(keys, ", "), cr.stored(), hits)
	}
	fmt.Fprintf(stderr, "streamgate %s: interrupted %s: %s\n", cmd, where, what)
	return exitInterrupted
}
