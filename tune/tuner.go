package tune

// The API: Tuner, its options, Pick, Run and Forget. A decision reads top
// to bottom through the files: decide (here: the fast path, one map read)
// → decideSlow and fly (flight.go: the single flight and the call chain)
// → tune and measure (measure.go: the measurement loop) → lookup and
// remember (lookup.go: the decisions in memory and the cache). What an Op
// is, and the check every call makes of it, is in op.go.
//
// Lock order: Tuner.measuring (a token, held while measuring; a call chain
// nested in a measurement holds it through its context) before Tuner.mu.
// Tuner.mu is never held while a candidate, a cache or a callback runs.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
)

// An Option configures a [Tuner].
type Option interface{ apply(*Tuner) }

type optionFunc func(*Tuner)

func (f optionFunc) apply(t *Tuner) { f(t) }

// WithCache makes the tuner remember results in c rather than in memory
// only. The tuner does not close c.
func WithCache(c Cache) Option { return optionFunc(func(t *Tuner) { t.cache = c }) }

// WithDevice sets the device identity used in cache keys, overriding the
// service's [gpu.Identifier].
func WithDevice(identity string) Option { return optionFunc(func(t *Tuner) { t.device = identity }) }

// WithProgress calls f after each sample a tune takes, on the measuring
// goroutine; f must not call the tuner. By default nothing is reported: the
// tuner never draws on a terminal itself.
func WithProgress(f func(Progress)) Option { return optionFunc(func(t *Tuner) { t.progress = f }) }

// WithLogger sends the tuner's warnings (a cache store that failed) and,
// at Info, one record per decision it measures (key, winner, timing, each
// candidate's score, samples and status) to l.
// By default they go to slog.Default(), warnings and above; each Result
// also lists its own.
func WithLogger(l *slog.Logger) Option { return optionFunc(func(t *Tuner) { t.log = l }) }

// WithNoStall makes a caller of a key that another call chain is tuning
// not wait for the tune: [Tuner.Run] runs the op's default candidate
// ([Op.Default], else its first) at once, and [Tuner.Pick] returns that
// candidate with a Result whose Pending is set. The caller that starts a
// tune still waits for it, as does one whose key waits for another key's
// tune to end, and a nested Pick or Run inside a measurement. Without the
// option every caller of an undecided key waits for its decision: in a
// server, the first requests after a start stall for the whole tune.
func WithNoStall() Option { return optionFunc(func(t *Tuner) { t.noStall = true }) }

// WithTiming forces the timing method: [TimingWall] even on a service that
// has GPU timestamps.
func WithTiming(m Timing) Option {
	if m != TimingGPU && m != TimingWall {
		panic(fmt.Sprintf("tune: unknown timing method %v", m))
	}
	return optionFunc(func(t *Tuner) { t.forceWall = m == TimingWall })
}

// Tuner picks the fastest candidate per key on one device and remembers it.
//
// A Tuner is safe for concurrent use by multiple goroutines. Pick or Run of
// a key already decided costs a map read. Goroutines asking for the same
// undecided key measure it once: the others wait for its result, and every
// one of them gets an answer (the decision, or the tune's error). Measurements
// of different keys on one Tuner run one at a time, so they do not disturb
// each other's timings — except that a candidate may Pick or Run another key
// (nested tuning), which is then tuned inside the first. Tuners of different
// devices never wait for each other. Every wait ends when its context does.
// The zero value is not usable; use [New].
type Tuner struct {
	c         *client.Client                  // measures run on its stream; written once
	cache     Cache                           // written once
	device    string                          // written once
	timer     gpu.GPUTimer                    // nil: wall clock; written once
	forceWall bool                            // written once
	noStall   bool                            // written once
	progress  func(Progress)                  // nil: none; written once
	log       *slog.Logger                    // written once
	stats     tunerStats                      // atomic counts
	decided   *xsync.MapOf[string, *decision] // key → what Pick returns

	measuring chan struct{} // a token, held while measuring: one tune at a time

	mu       sync.Mutex                 // guards inflight and failed
	inflight map[string]*flight         // key → the tune in progress or waiting for the token
	failed   map[string]map[string]bool // key → candidates that failed a real run
}

// New returns a tuner that measures through c. c's registry decides nothing
// for the measurement itself: each sample runs under c.Measure().
func New(c *client.Client, opts ...Option) *Tuner {
	t := &Tuner{
		c:         c,
		decided:   xsync.NewMapOf[string, *decision](),
		measuring: make(chan struct{}, 1),
		inflight:  map[string]*flight{},
		failed:    map[string]map[string]bool{},
	}
	for _, o := range opts {
		o.apply(t)
	}
	if t.cache == nil {
		t.cache = NewMemoryCache()
	}
	if t.log == nil {
		t.log = defaultLogger()
	}
	if t.device == "" {
		if id, ok := c.Service().(gpu.Identifier); ok {
			t.device = id.AdapterIdentity()
		} else {
			t.device = fmt.Sprintf("service-%d", c.Stream().Service)
		}
	}
	// A service may time only on some adapters (wgpu: those with timestamp
	// queries); it says so through HasTimestamps.
	if timer, ok := c.Service().(gpu.GPUTimer); ok && timer.HasTimestamps() && !t.forceWall {
		t.timer = timer
	}
	return t
}

// Timing returns how this tuner times samples: [TimingGPU] or [TimingWall].
func (t *Tuner) Timing() Timing {
	if t.timer != nil {
		return TimingGPU
	}
	return TimingWall
}

// Device returns the device identity of this tuner's cache keys.
func (t *Tuner) Device() string { return t.device }

// Pick returns the winner among op's candidates: from memory or the cache if
// decided before, else by measuring them now (on op.NewInputs's buffers, or
// for a Pure op on in). The Result is the measurement, or for a cached
// decision a Result with Cached set and no rows.
//
// A candidate that fails to compile or launch, or panics, is skipped and
// reported in the result; if all fail, the error says why for each. If ctx
// is done while waiting or measuring, Pick returns ctx.Err() and decides
// nothing. Under [WithNoStall], while another call chain tunes the key,
// Pick returns the op's default candidate and a Result with Pending set.
func (t *Tuner) Pick(ctx context.Context, op Op, in ...gpu.Buffer) (Candidate, *Result, error) {
	d, err := t.decide(ctx, op, in)
	if err != nil {
		return Candidate{}, nil, err
	}
	for _, name := range d.ranking {
		if i := indexOf(op.Candidates, name); i >= 0 && !t.hasFailed(op.Key, name) {
			return op.Candidates[i], d.result, nil
		}
	}
	return Candidate{}, nil, fmt.Errorf("tune: %s: every ranked candidate has failed", op.Key)
}

// Run picks the winner as [Tuner.Pick] does and runs it on in — the
// caller's buffers — through the tuner's client, under whatever mode that
// client's stream has: this is the real work, not a measurement. If the
// winner fails (an error or a panic), Run falls back to the next best, and so
// on; a failed candidate is excluded in this process and the key's cached
// decision dropped, so the next Pick re-tunes without it. While the
// tuner's client captures a graph (client.Client.Capture) there is no
// fallback: what the failed candidate launched is already in the graph, so
// Run returns the error, for the capture to fail. It returns the
// decision's Result, with Ran naming the candidate that ran.
func (t *Tuner) Run(ctx context.Context, op Op, in ...gpu.Buffer) (*Result, error) {
	d, err := t.decide(ctx, op, in)
	if err != nil {
		return nil, err
	}
	var errs []error
	for i, name := range d.ranking {
		ci := indexOf(op.Candidates, name)
		if ci < 0 || t.hasFailed(op.Key, name) {
			continue
		}
		cl := t.clientFor(ctx)
		err := runCandidate(ctx, op.Candidates[ci], cl, in)
		if err == nil {
			return d.ran[i], nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
		t.markFailed(op.Key, op.Candidates, name)
		if cl.Capturing() {
			// What the failed candidate launched before failing is in the
			// graph: falling back would capture both. Fail the capture.
			return nil, fmt.Errorf("tune: %s: %s failed during a capture (no fallback into a graph): %w", op.Key, name, err)
		}
	}
	return nil, fmt.Errorf("tune: %s: no candidate ran: %w", op.Key, errors.Join(errs...))
}

// Forget drops the decision for op from memory and from the cache.
func (t *Tuner) Forget(op Op) error {
	t.decided.Delete(op.Key)
	return t.cache.Delete(t.cacheKey(op.Key, op.Candidates))
}

func (t *Tuner) hasFailed(key, name string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed[key][name]
}

func (t *Tuner) markFailed(key string, cands []Candidate, name string) {
	t.mu.Lock()
	if t.failed[key] == nil {
		t.failed[key] = map[string]bool{}
	}
	t.failed[key][name] = true
	t.mu.Unlock()
	// Best effort: a stale entry is re-checked on load.
	_ = t.Forget(Op{Key: key, Candidates: cands})
}

// decide returns op's decision: the fast path is one map read.
func (t *Tuner) decide(ctx context.Context, op Op, in []gpu.Buffer) (*decision, error) {
	if err := checkOp(op); err != nil {
		return nil, err
	}
	if d, ok := t.decided.Load(op.Key); ok && d.matches(op.Candidates) {
		return d, nil
	}
	return t.decideSlow(ctx, op, in)
}
