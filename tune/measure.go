package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
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

// PanicError is the error of a candidate (or an [Op.NewInputs]) that
// panicked: the tuner recovers the panic, marks the candidate failed and
// carries on. Match it with errors.As.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack, as debug.Stack formats it
}

// Error returns "panic: " and the value; the stack is in Stack.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// runCandidate runs c once on in, its panic recovered as a *PanicError.
func runCandidate(ctx context.Context, c Candidate, cl *client.Client, in []gpu.Buffer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	return c.Run(ctx, cl, in)
}

// measurementInputs returns the buffers the measurements of op run on, and
// how to release them: fresh ones from op.NewInputs, else (op.Pure) the
// caller's own.
func measurementInputs(ctx context.Context, op Op, callers []gpu.Buffer) (in []gpu.Buffer, release func(), err error) {
	if op.NewInputs == nil {
		return callers, func() {}, nil
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = &PanicError{Value: r, Stack: debug.Stack()}
			}
		}()
		in, release, err = op.NewInputs(ctx)
	}()
	if err != nil {
		return nil, nil, fmt.Errorf("tune: %s: NewInputs: %w", op.Key, err)
	}
	if release == nil {
		release = func() {}
	}
	return in, release, nil
}

// Progress is a tune's progress, as the callback given to [WithProgress]
// sees it: Done of Total samples taken for Key. Total grows as the tune
// decides to take more rounds.
type Progress struct {
	Key         string
	Done, Total int
}

// measure tunes op's live candidates on in (see the package documentation).
func (t *Tuner) measure(ctx context.Context, op Op, cands []Candidate, in []gpu.Buffer) (*Result, error) {
	res := &Result{Key: op.Key, Timing: t.Timing()}
	rows := make([]*Row, len(cands))
	for i, c := range cands {
		rows[i] = &Row{Name: c.Name}
	}
	// Sized for the shortest tune (warm-up, dropped sample, MinSamples
	// rounds); grown by each further round.
	p := Progress{Key: op.Key, Total: len(cands) * (MinSamples + 2)}
	step := func() {
		p.Done++
		if t.progress != nil {
			t.progress(p)
		}
	}
	fail := func(r *Row, err error) {
		r.Err, r.Status = err, StatusFailed
	}
	// The candidates' kernels compile in one batch, in parallel where the
	// service can; measurements then run one at a time.
	var ks []*gpu.Kernel
	for _, c := range cands {
		ks = append(ks, c.Kernels...)
	}
	if len(ks) > 0 {
		// Errors are the candidates' own, reported by their warm-up run.
		_ = t.c.Service().Precompile(ctx, ks)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	// Warm-up (the pipeline compiles, unless listed in Kernels) and the
	// dropped first sample.
	for i, c := range cands {
		for range 2 {
			if _, err := t.sample(ctx, c, in); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				fail(rows[i], err)
				break
			}
			step()
		}
	}
	alive := func() []*Row {
		var out []*Row
		for _, r := range rows {
			if r.Status == StatusOK {
				out = append(out, r)
			}
		}
		return out
	}
	if len(alive()) == 0 {
		var errs []error
		for _, r := range rows {
			errs = append(errs, fmt.Errorf("%s: %w", r.Name, r.Err))
		}
		return nil, fmt.Errorf("tune: %s: every candidate failed: %w", op.Key, errors.Join(errs...))
	}
	for round := 1; round <= MaxSamples; round++ {
		improved := false
		for _, r := range alive() {
			d, err := t.sample(ctx, cands[indexOf(cands, r.Name)], in)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				fail(r, err)
				continue
			}
			step()
			before := r.Best()
			r.Samples = append(r.Samples, d)
			if before == 0 || float64(d) < float64(before)*(1-StopImprovement) {
				improved = true
			}
		}
		survivors := alive()
		if len(survivors) == 0 {
			return nil, fmt.Errorf("tune: %s: every candidate failed while measuring", op.Key)
		}
		if round < MinSamples {
			continue
		}
		// Prune the hopeless, keeping at least two.
		slices.SortFunc(survivors, func(a, b *Row) int { return cmp.Compare(a.Best(), b.Best()) })
		leader := survivors[0].Best()
		for i := len(survivors) - 1; i >= 2; i-- {
			if float64(survivors[i].Best()) > PruneRatio*float64(leader) {
				survivors[i].Status = StatusPruned
			}
		}
		if !improved {
			break
		}
		if round < MaxSamples {
			p.Total += len(alive())
		}
	}
	for _, r := range rows {
		r.score()
	}
	slices.SortStableFunc(rows, func(a, b *Row) int {
		if (a.Err == nil) != (b.Err == nil) {
			if a.Err == nil {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Score, b.Score)
	})
	for _, r := range rows {
		res.Rows = append(res.Rows, *r)
	}
	res.Winner = res.Rows[0].Name
	res.Rows[0].Status = StatusWinner
	return res, nil
}

// sample measures one run of c on in under a Measure override.
func (t *Tuner) sample(ctx context.Context, c Candidate, in []gpu.Buffer) (time.Duration, error) {
	mc := t.clientFor(ctx) // t.c, or its fork while t.c captures
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
