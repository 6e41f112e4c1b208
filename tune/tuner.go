package tune

// Lock order: Tuner.measuring (a token, held while measuring; a call chain
// nested in a measurement holds it through its context) before Tuner.mu.
// Tuner.mu is never held while a candidate, a cache or a callback runs.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/puzpuzpuz/xsync/v3"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
)

// Candidate is one variant of an operation: a kernel with a workgroup size or
// tiling of its own, say.
type Candidate struct {
	// Name identifies the candidate within its op; names must be unique.
	Name string
	// Run issues one run's work — the candidate's launches for one
	// problem — through c, on the buffers in: the caller's own in a real
	// run ([Tuner.Run]), buffers made by [Op.NewInputs] in a measurement.
	// It must launch through c (not another client) so a measurement's
	// override governs its launches, must take the buffers it writes from
	// in (not capture the caller's), and must pass ctx to any Pick or Run it
	// calls (nested tuning).
	Run func(ctx context.Context, c *client.Client, in []gpu.Buffer) error
	// Kernels are the kernels Run launches, if the caller lists them
	// (optional): before a measurement times anything, the tuner compiles
	// every candidate's kernels in one batch ([gpu.Service.Precompile], on
	// the service's compile workers) rather than one at each candidate's
	// first run. A kernel that fails to compile there is left to its
	// candidate's first run, which fails the candidate with the error as
	// before.
	Kernels []*gpu.Kernel
}

// Op is one tunable operation: a key, the candidates that compete for it,
// and what the measurements may run them on. The tuner only reads an Op:
// one may be shared by goroutines.
//
// Measurements run the candidates many times. They run on buffers from
// NewInputs when it is set; else, when Pure is set, on the caller's
// buffers; with neither, Pick and Run refuse the op ([ErrUnsafeOp]) rather
// than run candidates on the caller's data.
type Op struct {
	// Key names the operation and its shape class, e.g. "matmul/256x256x256".
	Key string
	// Candidates are the variants, in the caller's order.
	Candidates []Candidate
	// NewInputs returns fresh buffers shaped like the real inputs, for the
	// measurements to read and overwrite, and a function that releases them
	// (nil if none is needed). It is called once per tune, never on a
	// decided key.
	NewInputs func(ctx context.Context) (in []gpu.Buffer, release func(), err error)
	// Pure declares that running the candidates on the caller's buffers is
	// harmless: a run's result does not depend on how many runs came before
	// (no in-place update such as y += a·x). Measurements then run on the
	// buffers given to Pick or Run. NewInputs, when set, is used instead.
	Pure bool
	// Default names the candidate that runs while the key is being tuned,
	// under [WithNoStall]; "" is the first candidate.
	Default string
}

// ErrUnsafeOp is returned for an [Op] with neither NewInputs nor Pure.
var ErrUnsafeOp = errors.New("op has neither NewInputs nor Pure: its measurements would run the candidates on the caller's data")

// ErrCycle is returned when a candidate's run needs, directly or through
// other keys, the decision its own tune is making.
var ErrCycle = errors.New("tuning cycle")

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

// decision is a key's ranking, cached in memory. It is immutable.
type decision struct {
	names   []string  // the candidate names it was decided among, in the caller's order
	ranking []string  // best first
	result  *Result   // what Pick returns
	ran     []*Result // ran[i]: what Run returns when ranking[i] ran
}

// flight is one tune in progress that others wait for.
type flight struct {
	done    chan struct{} // closed when d and err are set
	claimed bool          // guarded by Tuner.mu: a goroutine holding the token measures it
	names   []string      // guarded by Tuner.mu: the candidates it measures
	d       *decision     // written before done is closed
	err     error         // written before done is closed
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

// decideSlow loads op's ranking from the cache, waits for another
// goroutine's tune of it, or measures it.
func (t *Tuner) decideSlow(ctx context.Context, op Op, in []gpu.Buffer) (*decision, error) {
	chain := chainOf(ctx)
	if chain.has(t, op.Key) {
		return nil, fmt.Errorf("tune: %s: %w: %s", op.Key, ErrCycle, chain.path(t, op.Key))
	}
	holds := chain.holds(t) // this call chain holds t.measuring already
	names := candidateNames(op.Candidates)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d, ok := t.lookup(ctx, op); ok {
			return d, nil
		}
		t.mu.Lock()
		f, mine := t.inflight[op.Key], false
		switch {
		case f != nil && t.noStall && !holds && slices.Equal(f.names, names):
			t.mu.Unlock()
			return pendingDecision(op), nil
		case f == nil:
			f, mine = &flight{done: make(chan struct{}), claimed: holds, names: names}, true
			t.inflight[op.Key] = f
		case holds && !f.claimed:
			// Its owner waits for the token this chain holds: measure it
			// here, or the two would wait for each other.
			f.claimed, f.names, mine = true, names, true
		}
		t.mu.Unlock()
		if mine {
			d, err, retry := t.fly(ctx, op, in, f, holds)
			if !retry {
				return d, err
			}
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if f.err == nil && f.d.matches(op.Candidates) {
			return f.d, nil
		}
		if f.err != nil && !isContextErr(f.err) && slices.Equal(f.names, names) {
			return nil, f.err // the same answer as the tune's own caller
		}
		// The other tune was canceled, or decided other candidates: again.
	}
}

// fly measures op for flight f, which this goroutine owns. Without the
// token it first waits for it; if another chain claims f meanwhile, fly
// leaves f to it and reports retry.
func (t *Tuner) fly(ctx context.Context, op Op, in []gpu.Buffer, f *flight, holds bool) (d *decision, err error, retry bool) {
	if !holds {
		select {
		case t.measuring <- struct{}{}:
		case <-ctx.Done():
			t.mu.Lock()
			claimed := f.claimed
			f.claimed = true // no chain takes it over now: it is finished here
			t.mu.Unlock()
			if claimed {
				return nil, nil, true // its claimer finishes it
			}
			t.finish(op.Key, f, nil, ctx.Err())
			return nil, ctx.Err(), false
		}
		defer func() { <-t.measuring }()
		t.mu.Lock()
		claimed := f.claimed
		if !claimed {
			f.claimed, f.names = true, candidateNames(op.Candidates)
		}
		t.mu.Unlock()
		if claimed {
			return nil, nil, true
		}
	}
	finished := false
	defer func() {
		if !finished { // a panic outside the candidates (a callback, a cache), or Goexit
			r := recover()
			t.finish(op.Key, f, nil, fmt.Errorf("tune: %s: tune aborted: %v", op.Key, r))
			if r != nil {
				panic(r)
			}
		}
	}()
	var ok bool
	if d, ok = t.lookup(ctx, op); !ok { // else decided while this goroutine waited
		d, err = t.tune(withLink(ctx, t, op.Key), op, in)
	}
	finished = true
	t.finish(op.Key, f, d, err)
	return d, err, false
}

// finish publishes f's outcome, stores a decision, and clears the key's
// in-flight state.
func (t *Tuner) finish(key string, f *flight, d *decision, err error) {
	if err == nil {
		t.decided.Store(key, d)
	}
	t.mu.Lock()
	if t.inflight[key] == f {
		delete(t.inflight, key)
	}
	f.d, f.err = d, err
	t.mu.Unlock()
	close(f.done)
}

// lookup returns op's decision from memory or the cache.
func (t *Tuner) lookup(ctx context.Context, op Op) (*decision, bool) {
	if d, ok := t.decided.Load(op.Key); ok && d.matches(op.Candidates) {
		return d, true
	}
	names := candidateNames(op.Candidates)
	e, ok := loadCache(ctx, t.cache, t.cacheKey(op.Key, op.Candidates))
	if !ok || !t.validRanking(op.Key, e.Ranking, names) {
		return nil, false
	}
	d := newDecision(names, e.Ranking, &Result{Key: op.Key, Timing: e.Timing, Cached: true, Winner: e.Ranking[0], ranking: e.Ranking})
	t.decided.Store(op.Key, d)
	t.countHit()
	return d, true
}

// tune measures op's candidates that have not failed here and stores the
// ranking. The caller holds the token.
func (t *Tuner) tune(ctx context.Context, op Op, callers []gpu.Buffer) (*decision, error) {
	var live []Candidate
	for _, c := range op.Candidates {
		if !t.hasFailed(op.Key, c.Name) {
			live = append(live, c)
		}
	}
	t.countMiss()
	// Measure through the client a launch here would use; when that is a
	// client capturing a graph, through a fork of it instead, so that the
	// measurements run (on their own stream) and stay out of the graph.
	mc := t.clientFor(ctx)
	if mc.Capturing() {
		mc = mc.Fork()
		defer mc.Close()
	}
	if l := chainOf(ctx); l != nil && l.t == t && l.key == op.Key {
		l.mc = mc
	}
	in, release, err := measurementInputs(ctx, op, callers)
	if err != nil {
		t.countError()
		return nil, err
	}
	res, err := t.measure(ctx, op, live, in)
	release()
	if err != nil {
		t.countError()
		return nil, err
	}
	t.countTuned()
	ranking := res.Ranking()
	t.logDecision(ctx, res)
	if err := storeCache(ctx, t.cache, t.cacheKey(op.Key, op.Candidates), Entry{Ranking: ranking, Timing: res.Timing, Created: time.Now()}); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
		t.log.Warn("tune: the result is not remembered", "key", op.Key, "err", err)
	}
	return newDecision(candidateNames(op.Candidates), ranking, res), nil
}

// pendingDecision is what a caller of op gets under WithNoStall while
// another chain tunes it: the default candidate first, then the others in
// the op's order. It is not stored.
func pendingDecision(op Op) *decision {
	names := candidateNames(op.Candidates)
	def := names[0]
	if op.Default != "" {
		def = op.Default
	}
	ranking := append([]string{def}, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == def })...)
	return newDecision(names, ranking, &Result{Key: op.Key, Pending: true, Winner: def, ranking: ranking})
}

func newDecision(names, ranking []string, res *Result) *decision {
	d := &decision{names: names, ranking: ranking, result: res, ran: make([]*Result, len(ranking))}
	for i, name := range ranking {
		r := *res
		r.Ran = name
		d.ran[i] = &r
	}
	return d
}

// validRanking reports whether a cached ranking names only known candidates
// and has at least one that has not failed here.
func (t *Tuner) validRanking(key string, ranking, names []string) bool {
	ok := false
	for _, r := range ranking {
		if !slices.Contains(names, r) {
			return false
		}
		if !t.hasFailed(key, r) {
			ok = true
		}
	}
	return ok
}

func (d *decision) matches(cands []Candidate) bool {
	if len(d.names) != len(cands) {
		return false
	}
	for i, c := range cands {
		if d.names[i] != c.Name {
			return false
		}
	}
	return true
}

func candidateNames(cands []Candidate) []string {
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.Name
	}
	return names
}

func indexOf(cands []Candidate, name string) int {
	for i, c := range cands {
		if c.Name == name {
			return i
		}
	}
	return -1
}

func checkOp(op Op) error {
	if len(op.Candidates) == 0 {
		return fmt.Errorf("tune: %s: no candidates", op.Key)
	}
	for i, c := range op.Candidates {
		if c.Name == "" || c.Run == nil {
			return fmt.Errorf("tune: %s: candidate %d has no name or no Run", op.Key, i)
		}
		// Quadratic, but candidates are few and this allocates nothing:
		// it runs on every Pick and Run.
		for _, prev := range op.Candidates[:i] {
			if prev.Name == c.Name {
				return fmt.Errorf("tune: %s: two candidates named %q", op.Key, c.Name)
			}
		}
	}
	if op.Default != "" && indexOf(op.Candidates, op.Default) < 0 {
		return fmt.Errorf("tune: %s: the default candidate %q is not one of the candidates", op.Key, op.Default)
	}
	if op.NewInputs == nil && !op.Pure {
		return fmt.Errorf("tune: %s: %w", op.Key, ErrUnsafeOp)
	}
	return nil
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// link is one key being tuned by a call chain: the chain is carried in the
// context a measurement passes to its candidates, so a nested Pick or Run
// knows which keys are being tuned above it (a cycle) and that it already
// holds the tuner's token.
type link struct {
	t   *Tuner
	key string
	up  *link
	mc  *client.Client // the client key's measurements launch through, set by tune
}

type linkKey struct{}

func chainOf(ctx context.Context) *link {
	l, _ := ctx.Value(linkKey{}).(*link)
	return l
}

func withLink(ctx context.Context, t *Tuner, key string) context.Context {
	return context.WithValue(ctx, linkKey{}, &link{t: t, key: key, up: chainOf(ctx)})
}

// clientFor returns the client a launch of t in ctx goes through: the
// measuring client of the nearest tune of t up the chain (a measurement's
// nested Run launches where the measurement does), else t's own.
func (t *Tuner) clientFor(ctx context.Context) *client.Client {
	for l := chainOf(ctx); l != nil; l = l.up {
		if l.t == t && l.mc != nil {
			return l.mc
		}
	}
	return t.c
}

func (l *link) has(t *Tuner, key string) bool {
	for ; l != nil; l = l.up {
		if l.t == t && l.key == key {
			return true
		}
	}
	return false
}

func (l *link) holds(t *Tuner) bool {
	for ; l != nil; l = l.up {
		if l.t == t {
			return true
		}
	}
	return false
}

// path formats the cycle that key closes: "a → b → a".
func (l *link) path(t *Tuner, key string) string {
	keys := []string{key}
	for ; l != nil; l = l.up {
		if l.t == t {
			keys = append(keys, l.key)
			if l.key == key {
				break
			}
		}
	}
	slices.Reverse(keys)
	return strings.Join(keys, " → ")
}
