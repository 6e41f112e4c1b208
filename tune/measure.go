package tune

// The measurement loop: a tune of one key (tune), the candidates' kernels
// compiled in one batch, a warm-up, rounds of one sample per surviving
// candidate until they stop improving, and the ranking (see the package
// documentation's Sampling and Score).

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
)

// Sampling limits; see the package documentation.
const (
	MinSamples      = 3    // kept samples per candidate, at least
	MaxSamples      = 10   // kept samples per candidate, at most
	PruneRatio      = 1.5  // drop a candidate whose best is worse than this times the leader's
	StopImprovement = 0.02 // stop once a round improves no survivor's best by more
)

// Progress is a tune's progress, as the callback given to [WithProgress]
// sees it: Done of Total samples taken for Key. Total grows as the tune
// decides to take more rounds.
type Progress struct {
	Key         string
	Done, Total int
}

// tune measures op's candidates that have not failed here through mc, on
// op's measurement inputs, and remembers the ranking. The caller holds the
// token.
func (t *Tuner) tune(ctx context.Context, mc *client.Client, op Op, callers []gpu.Buffer) (*decision, error) {
	var live []Candidate
	for _, c := range op.Candidates {
		if !t.hasFailed(op.Key, c.Name) {
			live = append(live, c)
		}
	}
	in, release, err := measurementInputs(ctx, op, callers)
	if err != nil {
		t.countError()
		return nil, err
	}
	res, err := t.measure(ctx, mc, op.Key, live, in)
	release()
	if err != nil {
		t.countError()
		return nil, err
	}
	t.countTuned()
	t.logDecision(ctx, res)
	return t.remember(ctx, op, res), nil
}

// measurement is one tune's loop: the rows it fills and its progress. It
// belongs to the goroutine that measures.
type measurement struct {
	t     *Tuner
	mc    *client.Client // the samples launch through it
	key   string
	cands []Candidate  // the live candidates, in the op's order
	in    []gpu.Buffer // what the samples run on
	rows  []*Row       // rows[i] is cands[i]'s until result sorts them
	p     Progress
}

// measure tunes key's live candidates cands on in (see the package
// documentation).
func (t *Tuner) measure(ctx context.Context, mc *client.Client, key string, cands []Candidate, in []gpu.Buffer) (*Result, error) {
	m := &measurement{t: t, mc: mc, key: key, cands: cands, in: in, rows: make([]*Row, len(cands))}
	for i, c := range cands {
		m.rows[i] = &Row{Name: c.Name}
	}
	// Sized for the shortest tune (warm-up, dropped sample, MinSamples
	// rounds); grown by each further round.
	m.p = Progress{Key: key, Total: len(cands) * (MinSamples + 2)}
	if err := m.precompile(ctx); err != nil {
		return nil, err
	}
	if err := m.warmUp(ctx); err != nil {
		return nil, err
	}
	if err := m.rounds(ctx); err != nil {
		return nil, err
	}
	return m.result(), nil
}

// precompile compiles the candidates' kernels in one batch, in parallel
// where the service can; measurements then run one at a time. It fails
// only when ctx ends: compile errors are the candidates' own, reported by
// their warm-up run.
func (m *measurement) precompile(ctx context.Context) error {
	var ks []*gpu.Kernel
	for _, c := range m.cands {
		ks = append(ks, c.Kernels...)
	}
	if len(ks) == 0 {
		return nil
	}
	_ = m.t.c.Service().Precompile(ctx, ks)
	return ctx.Err()
}

// warmUp runs each candidate twice, untimed: the warm-up (the pipeline
// compiles, unless listed in Kernels) and the dropped first sample. A
// candidate that fails is marked failed; when all have, the error says why
// for each.
func (m *measurement) warmUp(ctx context.Context) error {
	for i, c := range m.cands {
		for range 2 {
			if _, err := m.t.sample(ctx, m.mc, c, m.in); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				failRow(m.rows[i], err)
				break
			}
			m.step()
		}
	}
	if len(m.alive()) == 0 {
		var errs []error
		for _, r := range m.rows {
			errs = append(errs, fmt.Errorf("%s: %w", r.Name, r.Err))
		}
		return fmt.Errorf("tune: %s: every candidate failed: %w", m.key, errors.Join(errs...))
	}
	return nil
}

// rounds samples the survivors round after round: at least MinSamples
// rounds, at most MaxSamples, pruning the hopeless after MinSamples and
// stopping at the first round that improves no survivor's best.
func (m *measurement) rounds(ctx context.Context) error {
	for round := 1; round <= MaxSamples; round++ {
		improved, err := m.round(ctx)
		if err != nil {
			return err
		}
		survivors := m.alive()
		if len(survivors) == 0 {
			return fmt.Errorf("tune: %s: every candidate failed while measuring", m.key)
		}
		if round < MinSamples {
			continue
		}
		prune(survivors)
		if !improved {
			break
		}
		if round < MaxSamples {
			m.p.Total += len(m.alive())
		}
	}
	return nil
}

// round takes one sample of each surviving candidate. improved reports
// whether a sample bettered its candidate's best by more than
// StopImprovement (or was its first).
func (m *measurement) round(ctx context.Context) (improved bool, err error) {
	for _, r := range m.alive() {
		d, err := m.t.sample(ctx, m.mc, m.cands[indexOf(m.cands, r.Name)], m.in)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			failRow(r, err)
			continue
		}
		m.step()
		before := r.Best()
		r.Samples = append(r.Samples, d)
		if before == 0 || float64(d) < float64(before)*(1-StopImprovement) {
			improved = true
		}
	}
	return improved, nil
}

// prune marks pruned the survivors whose best is worse than PruneRatio
// times the leader's, keeping at least two.
func prune(survivors []*Row) {
	slices.SortFunc(survivors, func(a, b *Row) int { return cmp.Compare(a.Best(), b.Best()) })
	leader := survivors[0].Best()
	for i := len(survivors) - 1; i >= 2; i-- {
		if float64(survivors[i].Best()) > PruneRatio*float64(leader) {
			survivors[i].Status = StatusPruned
		}
	}
}

// result scores the rows and ranks them, best first and failed last: the
// first is the winner.
func (m *measurement) result() *Result {
	for _, r := range m.rows {
		r.score()
	}
	slices.SortStableFunc(m.rows, func(a, b *Row) int {
		if (a.Err == nil) != (b.Err == nil) {
			if a.Err == nil {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Score, b.Score)
	})
	res := &Result{Key: m.key, Timing: m.t.Timing()}
	for _, r := range m.rows {
		res.Rows = append(res.Rows, *r)
	}
	res.Winner = res.Rows[0].Name
	res.Rows[0].Status = StatusWinner
	return res
}

// step counts one sample taken and reports the progress.
func (m *measurement) step() {
	m.p.Done++
	if m.t.progress != nil {
		m.t.progress(m.p)
	}
}

// alive returns the rows still measured: not failed, not pruned.
func (m *measurement) alive() []*Row {
	var out []*Row
	for _, r := range m.rows {
		if r.Status == StatusOK {
			out = append(out, r)
		}
	}
	return out
}

func failRow(r *Row, err error) { r.Err, r.Status = err, StatusFailed }

// sample measures one run of c on in through mc, under a Measure override.
func (t *Tuner) sample(ctx context.Context, mc *client.Client, c Candidate, in []gpu.Buffer) (time.Duration, error) {
	o := mc.Measure()
	defer o.Release()
	if err := mc.Sync(ctx); err != nil {
		return 0, err
	}
	if t.timer != nil {
		// The candidate runs inside the service's timer: its panic is
		// recovered here, so none crosses the service.
		return t.timer.TimeStream(ctx, mc.Stream().Stream, func() error { return runCandidate(ctx, c, mc, in) })
	}
	start := time.Now()
	if err := runCandidate(ctx, c, mc, in); err != nil {
		return 0, err
	}
	if err := mc.Sync(ctx); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}
