package tune

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/puzpuzpuz/xsync/v3"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
)

// Sampling limits; see the package documentation.
const (
	MinSamples      = 3    // kept samples per candidate, at least
	MaxSamples      = 10   // kept samples per candidate, at most
	PruneRatio      = 1.5  // drop a candidate whose best is worse than this times the leader's
	StopImprovement = 0.02 // stop once a round improves no survivor's best by more
)

// Timing methods, as a [Result] reports them.
const (
	TimingGPU  = "gpu"  // GPU timestamp queries around the candidate's passes
	TimingWall = "wall" // wall clock around a sync
)

// Candidate is one variant of an operation: a kernel with a workgroup size or
// tiling of its own, say.
type Candidate struct {
	// Name identifies the candidate within its key; names must be unique.
	Name string
	// Run issues one sample's work — the candidate's launches for one
	// problem — through c. It must launch through c (not another client) so
	// a measurement's override governs its launches.
	Run func(ctx context.Context, c *client.Client) error
}

// GPUTimer is implemented by services that can time a stream's work on the
// GPU: it runs record, which launches on stream, and returns the GPU time
// those launches took. The wgpu service implements it; a service that also
// has a HasTimestamps() bool method is used as a timer only when that
// reports true.
type GPUTimer interface {
	TimeStream(ctx context.Context, stream registry.StreamID, record func() error) (time.Duration, error)
}

// Identifier is implemented by services that can name their adapter
// (name, vendor, driver, backend): the device part of a cache key.
type Identifier interface {
	AdapterIdentity() string
}

// An Option configures a [Tuner].
type Option func(*Tuner)

// WithCache makes the tuner remember results in c rather than in memory
// only. The tuner does not close c.
func WithCache(c Cache) Option { return func(t *Tuner) { t.cache = c } }

// WithDevice sets the device identity used in cache keys, overriding the
// service's [Identifier].
func WithDevice(identity string) Option { return func(t *Tuner) { t.device = identity } }

// WithProgress draws a progress bar on w while tuning (by default, on
// standard error when it is a terminal, else nowhere). nil turns it off.
func WithProgress(w io.Writer) Option { return func(t *Tuner) { t.progress = w; t.progressSet = true } }

// WithTiming forces the timing method: [TimingWall] even on a service that
// has GPU timestamps.
func WithTiming(method string) Option {
	if method != TimingGPU && method != TimingWall {
		panic(fmt.Sprintf("tune: unknown timing method %q", method))
	}
	return func(t *Tuner) { t.forceWall = method == TimingWall }
}

// Tuner picks the fastest candidate per key on one device and remembers it.
//
// A Tuner is safe for concurrent use by multiple goroutines. Pick of a key
// already decided costs a map read. Two goroutines asking for the same
// undecided key measure it once: the second waits for the first's result.
// Measurements of different keys on one Tuner run one at a time, so they do
// not disturb each other's timings; Tuners of different devices never wait
// for each other. The zero value is not usable; use [New].
type Tuner struct {
	c           *client.Client // measures run on its stream; written once
	cache       Cache          // written once
	device      string         // written once
	timer       GPUTimer       // nil: wall clock; written once
	forceWall   bool           // written once
	progress    io.Writer      // written once
	progressSet bool           // written once

	decided *xsync.MapOf[string, *decision] // key → what Pick returns

	mu       sync.Mutex                 // guards inflight and failed
	inflight map[string]*flight         // key → the tune in progress
	failed   map[string]map[string]bool // key → candidates that failed a real run

	measure sync.Mutex // held while measuring: one tune at a time per device
}

// decision is a key's ranking, cached in memory.
type decision struct {
	names   []string // the candidate names it was decided among, in the caller's order
	ranking []string // best first
	timing  string   // how the ranking was measured
	result  *Result  // the measurement, nil when it came from the cache
}

// flight is one tune in progress that others wait for.
type flight struct {
	done chan struct{}
	d    *decision
	err  error
}

// New returns a tuner that measures through c. c's registry decides nothing
// for the measurement itself: each sample runs under c.Measure().
func New(c *client.Client, opts ...Option) *Tuner {
	t := &Tuner{
		c:        c,
		decided:  xsync.NewMapOf[string, *decision](),
		inflight: map[string]*flight{},
		failed:   map[string]map[string]bool{},
	}
	for _, o := range opts {
		o(t)
	}
	if t.cache == nil {
		t.cache = NewMemoryCache()
	}
	if t.device == "" {
		if id, ok := c.Service().(Identifier); ok {
			t.device = id.AdapterIdentity()
		} else {
			t.device = fmt.Sprintf("service-%d", c.Stream().Service)
		}
	}
	if timer, ok := c.Service().(GPUTimer); ok && !t.forceWall {
		// A service may time only on some adapters (wgpu: those with
		// timestamp queries); it says so through HasTimestamps.
		if h, ok := c.Service().(interface{ HasTimestamps() bool }); !ok || h.HasTimestamps() {
			t.timer = timer
		}
	}
	if !t.progressSet && term.IsTerminal(int(os.Stderr.Fd())) {
		t.progress = os.Stderr
	}
	return t
}

// Timing returns how this tuner times samples: [TimingGPU] or [TimingWall].
func (t *Tuner) Timing() string {
	if t.timer != nil {
		return TimingGPU
	}
	return TimingWall
}

// Pick returns the winner among cands for key: from memory or the cache if
// decided before, else by measuring them now. The returned Result is the
// measurement, or for a cached decision a Result with Cached set and no
// samples.
//
// A candidate that fails to compile or launch is skipped and reported in the
// result; if all fail, the error says why for each. If ctx is done while
// measuring, Pick returns ctx.Err() and decides nothing.
func (t *Tuner) Pick(ctx context.Context, key string, cands []Candidate) (Candidate, *Result, error) {
	if err := checkCandidates(key, cands); err != nil {
		return Candidate{}, nil, err
	}
	d, err := t.decide(ctx, key, cands)
	if err != nil {
		return Candidate{}, nil, err
	}
	for _, name := range d.ranking {
		if i := indexOf(cands, name); i >= 0 && !t.hasFailed(key, name) {
			return cands[i], d.resultFor(key), nil
		}
	}
	return Candidate{}, nil, fmt.Errorf("tune: %s: every ranked candidate has failed", key)
}

// Run picks the winner for key and runs it through the tuner's client (under
// whatever mode that client's stream has: this is the real work, not a
// measurement). If the winner fails, Run falls back to the next best, and so
// on; the failed candidate is excluded in this process and the key's cached
// decision dropped, so the next Pick re-tunes without it. It returns the
// name of the candidate that ran.
func (t *Tuner) Run(ctx context.Context, key string, cands []Candidate) (string, error) {
	if err := checkCandidates(key, cands); err != nil {
		return "", err
	}
	d, err := t.decide(ctx, key, cands)
	if err != nil {
		return "", err
	}
	var errs []error
	for _, name := range d.ranking {
		i := indexOf(cands, name)
		if i < 0 || t.hasFailed(key, name) {
			continue
		}
		err := cands[i].Run(ctx, t.c)
		if err == nil {
			return name, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
		t.markFailed(key, cands, name)
	}
	return "", fmt.Errorf("tune: %s: no candidate ran: %w", key, errors.Join(errs...))
}

// Forget drops key's decision from memory and from the cache.
func (t *Tuner) Forget(key string, cands []Candidate) error {
	t.decided.Delete(key)
	return t.cache.Delete(t.cacheKey(key, cands))
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
	_ = t.Forget(key, cands) // best effort: a stale entry is re-checked on load
}

// decide returns key's decision: the fast path is one map read.
func (t *Tuner) decide(ctx context.Context, key string, cands []Candidate) (*decision, error) {
	if d, ok := t.decided.Load(key); ok && d.matches(cands) {
		return d, nil
	}
	t.mu.Lock()
	if f, ok := t.inflight[key]; ok {
		t.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if f.err == nil && f.d.matches(cands) {
			return f.d, nil
		}
		return t.decide(ctx, key, cands) // the other tune failed or tuned other candidates
	}
	f := &flight{done: make(chan struct{})}
	t.inflight[key] = f
	t.mu.Unlock()

	f.d, f.err = t.decideSlow(ctx, key, cands)
	if f.err == nil {
		t.decided.Store(key, f.d)
	}
	t.mu.Lock()
	delete(t.inflight, key)
	t.mu.Unlock()
	close(f.done)
	return f.d, f.err
}

// decideSlow loads key's ranking from the cache or measures it.
func (t *Tuner) decideSlow(ctx context.Context, key string, cands []Candidate) (*decision, error) {
	names := candidateNames(cands)
	ck := t.cacheKey(key, cands)
	if e, ok := t.cache.Load(ck); ok && t.validRanking(key, e.Ranking, names) {
		return &decision{names: names, ranking: e.Ranking, timing: e.Timing}, nil
	}
	t.measure.Lock()
	defer t.measure.Unlock()
	live := cands[:0:0]
	for _, c := range cands {
		if !t.hasFailed(key, c.Name) {
			live = append(live, c)
		}
	}
	res, err := t.tune(ctx, key, live)
	if err != nil {
		return nil, err
	}
	ranking := res.Ranking()
	if err := t.cache.Store(ck, Entry{Ranking: ranking, Timing: res.Timing, Created: time.Now()}); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	return &decision{names: names, ranking: ranking, timing: res.Timing, result: res}, nil
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

// cacheKey is the persistent key: format version, device, tuner key, and a
// checksum of the candidate names. Change any and the key re-tunes.
func (t *Tuner) cacheKey(key string, cands []Candidate) string {
	h := sha256.New()
	for _, n := range candidateNames(cands) {
		fmt.Fprintf(h, "%d:%s;", len(n), n)
	}
	return fmt.Sprintf("v%d|%s|%s|%s", CacheVersion, t.device, key, hex.EncodeToString(h.Sum(nil)[:8]))
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

// resultFor is what Pick reports: the measurement the first time, a cached
// result after.
func (d *decision) resultFor(key string) *Result {
	if d.result != nil {
		return d.result
	}
	return &Result{Key: key, Timing: d.timing, Cached: true, Winner: d.ranking[0], ranking: d.ranking}
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

func checkCandidates(key string, cands []Candidate) error {
	if len(cands) == 0 {
		return fmt.Errorf("tune: %s: no candidates", key)
	}
	seen := map[string]bool{}
	for i, c := range cands {
		if c.Name == "" || c.Run == nil {
			return fmt.Errorf("tune: %s: candidate %d has no name or no Run", key, i)
		}
		if seen[c.Name] {
			return fmt.Errorf("tune: %s: two candidates named %q", key, c.Name)
		}
		seen[c.Name] = true
	}
	return nil
}

// tune measures cands for key (see the package documentation).
func (t *Tuner) tune(ctx context.Context, key string, cands []Candidate) (*Result, error) {
	res := &Result{Key: key, Timing: t.Timing()}
	rows := make([]*Row, len(cands))
	for i, c := range cands {
		rows[i] = &Row{Name: c.Name}
	}
	var bar *progressbar.ProgressBar
	if t.progress != nil {
		// Sized for the shortest tune (warm-up, dropped sample, MinSamples
		// rounds); grown by each further round.
		bar = progressbar.NewOptions(len(cands)*(MinSamples+2),
			progressbar.OptionSetWriter(t.progress),
			progressbar.OptionSetDescription("tune "+key),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(50*time.Millisecond),
		)
		defer bar.Finish()
	}
	step := func(n int) {
		if bar != nil {
			_ = bar.Add(n)
		}
	}
	// Warm-up (the pipeline compiles) and the dropped first sample.
	for i, c := range cands {
		for range 2 {
			if _, err := t.sample(ctx, c); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				rows[i].Err = err
				rows[i].Status = "failed"
				break
			}
			step(1)
		}
	}
	alive := func() []*Row {
		var out []*Row
		for _, r := range rows {
			if r.Status == "" {
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
		return nil, fmt.Errorf("tune: %s: every candidate failed: %w", key, errors.Join(errs...))
	}
	for round := 1; round <= MaxSamples; round++ {
		improved := false
		for _, r := range alive() {
			d, err := t.sample(ctx, cands[indexOf(cands, r.Name)])
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				r.Err, r.Status = err, "failed"
				continue
			}
			step(1)
			before := r.Best()
			r.Samples = append(r.Samples, d)
			if before == 0 || float64(d) < float64(before)*(1-StopImprovement) {
				improved = true
			}
		}
		survivors := alive()
		if len(survivors) == 0 {
			return nil, fmt.Errorf("tune: %s: every candidate failed while measuring", key)
		}
		if round < MinSamples {
			continue
		}
		// Prune the hopeless, keeping at least two.
		slices.SortFunc(survivors, func(a, b *Row) int { return cmp.Compare(a.Best(), b.Best()) })
		leader := survivors[0].Best()
		for i := len(survivors) - 1; i >= 2; i-- {
			if float64(survivors[i].Best()) > PruneRatio*float64(leader) {
				survivors[i].Status = "pruned"
			}
		}
		if !improved {
			break
		}
		if bar != nil && round < MaxSamples {
			bar.ChangeMax(bar.GetMax() + len(alive()))
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
	res.Rows[0].Status = "winner"
	for i := range res.Rows {
		if res.Rows[i].Status == "" {
			res.Rows[i].Status = "ok"
		}
	}
	return res, nil
}

// sample measures one run of c under a Measure override.
func (t *Tuner) sample(ctx context.Context, c Candidate) (time.Duration, error) {
	o := t.c.Measure()
	defer o.Release()
	if t.timer != nil {
		if err := t.c.Sync(ctx); err != nil {
			return 0, err
		}
		return t.timer.TimeStream(ctx, t.c.Stream().Stream, func() error { return c.Run(ctx, t.c) })
	}
	if err := t.c.Sync(ctx); err != nil {
		return 0, err
	}
	start := time.Now()
	if err := c.Run(ctx, t.c); err != nil {
		return 0, err
	}
	if err := t.c.Sync(ctx); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// Result is one key's tune.
type Result struct {
	Key      string
	Timing   string   // TimingGPU or TimingWall: how the ranking was measured, also when Cached
	Cached   bool     // the decision came from the cache: nothing was measured
	Winner   string   // the winning candidate's name
	Rows     []Row    // every candidate, best first, failed last; empty when Cached
	Warnings []string // e.g. a cache store that failed
	ranking  []string // when Cached: the cached ranking
}

// Ranking returns the usable candidates' names, best first.
func (r *Result) Ranking() []string {
	if r.Cached {
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
	if r.Cached {
		fmt.Fprintf(&b, "%s: cache hit, winner %s (ranking %s, timed by %s); nothing measured\n", r.Key, r.Winner, strings.Join(r.ranking, " > "), r.Timing)
		return b.String()
	}
	fmt.Fprintf(&b, "%s (timing: %s)\n", r.Key, r.Timing)
	fmt.Fprintf(&b, "  %-24s %7s %12s %12s %12s  %s\n", "candidate", "samples", "best", "median", "score", "status")
	for _, row := range r.Rows {
		status := row.Status
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
	Status  string          // "winner", "ok", "pruned" or "failed"
	Err     error           // why it failed
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

// Score returns the score of samples (see the package documentation).
func Score(samples []time.Duration) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	lo, med := float64(slices.Min(samples)), float64(quantile(samples, 0.5))
	iqr := float64(quantile(samples, 0.75) - quantile(samples, 0.25))
	spread := 0.0
	if med > 0 {
		spread = iqr / med
	}
	return time.Duration((0.75*lo + 0.25*med) * (1 + 0.5*spread))
}

// quantile returns the q-quantile of xs by linear interpolation.
func quantile(xs []time.Duration, q float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	frac := pos - float64(i)
	return s[i] + time.Duration(frac*float64(s[i+1]-s[i]))
}
