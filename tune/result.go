package tune

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Timing is how samples are timed.
type Timing uint8

// Timing methods, as a [Result] and a cache [Entry] report them.
const (
	TimingGPU  Timing = iota + 1 // GPU timestamp queries around the candidate's passes
	TimingWall                   // wall clock around a sync
)

// String returns "gpu" or "wall".
func (m Timing) String() string {
	switch m {
	case TimingGPU:
		return "gpu"
	case TimingWall:
		return "wall"
	}
	return fmt.Sprintf("Timing(%d)", uint8(m))
}

// MarshalText encodes m as its String; an unknown Timing is an error.
func (m Timing) MarshalText() ([]byte, error) {
	if m != TimingGPU && m != TimingWall {
		return nil, fmt.Errorf("tune: unknown timing %d", uint8(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText decodes "gpu" or "wall".
func (m *Timing) UnmarshalText(b []byte) error {
	switch string(b) {
	case "gpu":
		*m = TimingGPU
	case "wall":
		*m = TimingWall
	default:
		return fmt.Errorf("tune: unknown timing %q", b)
	}
	return nil
}

// Status is what became of a candidate in a tune.
type Status uint8

// Candidate statuses, as a [Row] reports them.
const (
	StatusOK     Status = iota // measured, not the winner
	StatusWinner               // measured, the lowest score
	StatusPruned               // dropped early: hopelessly slower than the leader
	StatusFailed               // returned an error or panicked; see Row.Err
)

// String returns "ok", "winner", "pruned" or "failed".
func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusWinner:
		return "winner"
	case StatusPruned:
		return "pruned"
	case StatusFailed:
		return "failed"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Result is one key's tune, or its cached decision. A Result returned by
// [Tuner.Pick] or [Tuner.Run] is shared by every later call that gets the
// same decision: read it, do not modify it.
type Result struct {
	Key      string
	Timing   Timing   // how the ranking was measured, also when Cached
	Cached   bool     // the decision came from the cache: nothing was measured
	Pending  bool     // under WithNoStall: another call is tuning the key; Winner is the op's default, unmeasured
	Winner   string   // the winning candidate's name
	Ran      string   // the candidate Run ran: the winner, or the next best after a failure; "" from Pick
	Rows     []Row    // every candidate, best first, failed last; empty when Cached
	Warnings []string // e.g. a cache store that failed (also sent to the tuner's logger)
	ranking  []string // when Cached or Pending: the ranking
}

// Ranking returns the usable candidates' names, best first.
func (r *Result) Ranking() []string {
	if r.Cached || r.Pending {
		return slices.Clone(r.ranking)
	}
	var out []string
	for _, row := range r.Rows {
		if row.Err == nil {
			out = append(out, row.Name)
		}
	}
	return out
}

// Table formats the result as a text table: candidate, samples, best,
// median, score, status.
func (r *Result) Table() string {
	var b strings.Builder
	if r.Pending {
		fmt.Fprintf(&b, "%s: being tuned; the default %s runs meanwhile\n", r.Key, r.Winner)
		return b.String()
	}
	if r.Cached {
		fmt.Fprintf(&b, "%s: cache hit, winner %s (ranking %s, timed by %s); nothing measured\n", r.Key, r.Winner, strings.Join(r.ranking, " > "), r.Timing)
		return b.String()
	}
	fmt.Fprintf(&b, "%s (timing: %s)\n", r.Key, r.Timing)
	fmt.Fprintf(&b, "  %-24s %7s %12s %12s %12s  %s\n", "candidate", "samples", "best", "median", "score", "status")
	for _, row := range r.Rows {
		status := row.Status.String()
		if row.Err != nil {
			status = "failed: " + firstLine(row.Err.Error())
		}
		fmt.Fprintf(&b, "  %-24s %7d %12s %12s %12s  %s\n", row.Name, len(row.Samples), fmtDur(row.Best()), fmtDur(row.Median()), fmtDur(row.Score), status)
	}
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func fmtDur(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return d.Round(100 * time.Nanosecond).String()
}

// Row is one candidate's measurement.
type Row struct {
	Name    string
	Samples []time.Duration // kept samples, in order taken
	Score   time.Duration   // see the package documentation; 0 if failed
	Status  Status
	Err     error // why it failed; a *PanicError if it panicked
}

// Best returns the smallest sample, or 0.
func (r *Row) Best() time.Duration {
	if len(r.Samples) == 0 {
		return 0
	}
	return slices.Min(r.Samples)
}

// Median returns the median sample, or 0.
func (r *Row) Median() time.Duration { return quantile(r.Samples, 0.5) }

func (r *Row) score() {
	if r.Err != nil || len(r.Samples) == 0 {
		r.Score = 0
		return
	}
	r.Score = Score(r.Samples)
}
