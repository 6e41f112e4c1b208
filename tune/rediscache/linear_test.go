//go:build unix

package rediscache_test

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/redistest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/rediscache"
)

// The linearizability check of one key's history: several
// caches on one Redis store and load one key while the server is paused,
// killed and restarted; porcupine checks the history against linModel.
//
// The model is what the package doc promises for one key. A cache is a
// local cache in front of Redis, so the state is Redis's value and, per
// cache, its local entry and the number of its newest store that Redis
// got. The operations:
//
//   - A store's local effect (linStore), in the call: the cache's local
//     entry is the store's value.
//   - A store's effect in Redis (linSend): Redis holds the store's value,
//     unless this cache's Redis holds a newer store of this cache already
//     (a cache's stores of a key reach Redis in the order they were made;
//     a newer one drops an older one still queued). A store that returned
//     sent (Redis was up) is in Redis by its return; one that was queued
//     (Redis down) reaches it later: its operation ends when a later store
//     of the same cache returns, or when the run is quiet (every cache up,
//     nothing pending), and must have happened by then unless that later
//     store superseded it. A send that failed (a timeout against a paused
//     server) may yet have reached Redis: an operation of its own that may
//     or may not have happened, ending when the cache next sends a store
//     itself or at the quiet point.
//   - A load (linLoad) returns the cache's local entry if it has one; else
//     Redis's value, which it then keeps locally, or a miss (Redis down or
//     slow: a load never waits for Redis beyond the cache's timeout).
//     linFreshLoad is a load after the test forgot the local entry: what a
//     load reads from Redis.
//
// So a load that reads Redis returns a value some store wrote, never one
// older than the last store that was in Redis before the load began: an
// atomic register, with "completed" read as "reached Redis" (a store made
// while Redis is down completes for the caller before it does for Redis).
// A load served by the local cache returns that cache's own newest store
// or what it last read from Redis, possibly older than another cache's
// store: the local cache is not kept in step with Redis, and the model
// says so rather than check a promise the cache does not make.

type linKind uint8

const (
	linStore     linKind = iota // a store's local effect
	linSend                     // a store's effect in Redis
	linLoad                     // a load
	linFreshLoad                // the local entry forgotten, then a load
)

// linInput is an operation's input; a load's output is the value loaded,
// 0 for a miss.
type linInput struct {
	kind  linKind
	cache int
	seq   int  // linStore, linSend: the store's number in its cache, from 1
	value int  // linStore, linSend: the store's value, unique in the history
	must  bool // linSend: it reached Redis by the operation's return
}

func (in linInput) String() string {
	switch in.kind {
	case linStore:
		return fmt.Sprintf("cache %d store #%d v%d (local)", in.cache, in.seq, in.value)
	case linSend:
		return fmt.Sprintf("cache %d store #%d v%d (Redis, must %v)", in.cache, in.seq, in.value, in.must)
	case linLoad:
		return fmt.Sprintf("cache %d load", in.cache)
	}
	return fmt.Sprintf("cache %d fresh load", in.cache)
}

// linState is a state of the model; never modified once made.
type linState struct {
	redis int   // Redis's value, 0 none
	local []int // per cache: its local entry, 0 none
	sent  []int // per cache: the number of its newest store in Redis
	key   string
}

func newLinState(redis int, local, sent []int) *linState {
	return &linState{redis: redis, local: local, sent: sent, key: fmt.Sprint(redis, local, sent)}
}

func (s *linState) withLocal(i, v int) *linState {
	local := append([]int(nil), s.local...)
	local[i] = v
	return newLinState(s.redis, local, s.sent)
}

func (s *linState) withRedis(i, seq, v int) *linState {
	sent := append([]int(nil), s.sent...)
	sent[i] = seq
	return newLinState(v, s.local, sent)
}

var linSeed = maphash.MakeSeed()

func linModel(caches int) porcupine.Model {
	return (&porcupine.NondeterministicModel{
		Init: func() []any { return []any{newLinState(0, make([]int, caches), make([]int, caches))} },
		Step: func(state, input, output any) []any {
			s, in := state.(*linState), input.(linInput)
			i := in.cache
			switch in.kind {
			case linStore:
				return []any{s.withLocal(i, in.value)}
			case linSend:
				var next []any
				if in.seq >= s.sent[i] { // a resend of the same store is no reordering
					next = append(next, s.withRedis(i, in.seq, in.value))
				}
				if !in.must {
					next = append(next, s)
				}
				return next
			}
			got, local := output.(int), s.local[i]
			if in.kind == linFreshLoad {
				local = 0
				s = s.withLocal(i, 0)
			}
			switch {
			case local != 0:
				if got == local {
					return []any{s}
				}
			case got == 0:
				return []any{s}
			case got == s.redis:
				return []any{s.withLocal(i, got)}
			}
			return nil
		},
		Equal:             func(a, b any) bool { return a.(*linState).key == b.(*linState).key },
		Hash:              func(s any) uint64 { return maphash.String(linSeed, s.(*linState).key) },
		DescribeOperation: func(in, out any) string { return fmt.Sprintf("%v -> %v", in, out) },
		DescribeState:     func(s any) string { return s.(*linState).key },
	}).ToModel()
}

// linRecorder records what the caches did, then makes the history of it
// (ops): the times of the calls and returns, of the flushers' sends (the
// flush hook: a flusher calls it before each send), of the fault and of
// the quiet point.
type linRecorder struct {
	clock  atomic.Int64 // logical time: every event takes the next tick
	values atomic.Int64 // the last value stored

	mu     sync.Mutex
	loads  []porcupine.Operation
	stores [][]linStoreRec // per cache, in order
	hooks  [][]int64       // per cache: the ticks of its flusher's sends
	kill   bool            // the fault killed the server (else it paused it)
	down   int64           // the server was stopped or killed after this tick; 0 no fault
	back   int64           // and resumed or restarted after this one
	quiet  int64           // every cache up and nothing pending at this tick; 0 not yet
}

// linStoreRec is one store: its value, its ticks, how it went.
type linStoreRec struct {
	seq, value  int
	call, ret   int64
	sent, tried bool
}

func newLinRecorder(caches int) *linRecorder {
	return &linRecorder{stores: make([][]linStoreRec, caches), hooks: make([][]int64, caches)}
}

func (r *linRecorder) now() int64 { return r.clock.Add(1) }

// hook is cache i's flush hook: its flusher is about to send a store.
func (r *linRecorder) hook(i int) {
	h := r.now()
	r.mu.Lock()
	r.hooks[i] = append(r.hooks[i], h)
	r.mu.Unlock()
}

// fault runs stop, which pauses or kills the server, wait, and start,
// which resumes or restarts it, and notes when: nothing sent meanwhile
// reaches Redis before start.
func (r *linRecorder) fault(kill bool, stop, wait, start func()) {
	stop()
	down := r.now()
	wait()
	back := r.now()
	start()
	r.mu.Lock()
	r.kill, r.down, r.back = kill, down, back
	r.mu.Unlock()
}

// store stores a fresh value under k in cache i, which is c.
func (r *linRecorder) store(ctx context.Context, i int, c *rediscache.Cache, k tune.CacheKey) error {
	v := int(r.values.Add(1))
	call := r.now()
	sent, tried, err := c.StoreOutcome(ctx, k, entry(strconv.Itoa(v)))
	ret := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stores[i] = append(r.stores[i], linStoreRec{seq: len(r.stores[i]) + 1, value: v, call: call, ret: ret, sent: sent, tried: tried})
	return err
}

// load loads k from cache i, which is c; fresh: its local entry forgotten
// first.
func (r *linRecorder) load(i int, c *rediscache.Cache, local tune.Cache, k tune.CacheKey, fresh bool) error {
	call := r.now()
	kind := linLoad
	if fresh {
		kind = linFreshLoad
		if err := local.Delete(k); err != nil {
			return err
		}
	}
	e, ok := c.Load(k)
	ret := r.now()
	got := 0
	if ok {
		var err error
		if got, err = strconv.Atoi(e.Ranking[0]); err != nil {
			return fmt.Errorf("load: a value no store wrote: %v", e.Ranking)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loads = append(r.loads, porcupine.Operation{ClientId: i, Input: linInput{kind: kind, cache: i}, Call: call, Output: got, Return: ret})
	return nil
}

// markQuiet notes that every cache is up with nothing pending: each
// queued store has reached Redis by now, or was superseded.
func (r *linRecorder) markQuiet() {
	q := r.now()
	r.mu.Lock()
	r.quiet = q
	r.mu.Unlock()
}

// windows returns the parts of [from, to] in which a write sent at from
// may reach Redis: not while the server is stopped or dead, and, once it
// was killed, nothing sent before reaches it after the restart.
func (r *linRecorder) windows(from, to int64) [][2]int64 {
	if r.down == 0 || to <= r.down || from >= r.back {
		return [][2]int64{{from, to}}
	}
	var w [][2]int64
	if from < r.down {
		w = append(w, [2]int64{from, r.down})
	}
	if !r.kill && to > r.back {
		w = append(w, [2]int64{r.back, to})
	}
	return w
}

// firstHook returns the tick of cache i's first flusher send after t, or
// none.
func (r *linRecorder) firstHook(i int, t, none int64) int64 {
	for _, h := range r.hooks[i] {
		if h > t {
			return min(h, none)
		}
	}
	return none
}

// ops is the history, as linModel reads it.
//
// A store sent directly is in Redis by its return. A queued store is sent
// by its cache's flusher, after a flush hook call: each call after the
// store's, before the next store of the cache returns (which supersedes
// it, if it was not sent by then) or the quiet point, is a send of it
// that may have reached Redis; the last one before the quiet point must
// have. A send that failed (tried) may have reached Redis later: before
// the cache's flusher sends again after it (it pinged the server, which
// took the send first), the next store sent directly, or the quiet point.
func (r *linRecorder) ops() []porcupine.Operation {
	r.mu.Lock()
	defer r.mu.Unlock()
	ops := append([]porcupine.Operation(nil), r.loads...)
	add := func(in linInput, call, ret int64) {
		ops = append(ops, porcupine.Operation{ClientId: in.cache, Input: in, Call: call, Return: ret})
	}
	for i, stores := range r.stores {
		for j, st := range stores {
			in := linInput{kind: linStore, cache: i, seq: st.seq, value: st.value}
			add(in, st.call, st.ret)
			in.kind = linSend
			if st.sent {
				in.must = true
				add(in, st.call, st.ret)
				continue
			}
			end, must := r.quiet, true
			if j+1 < len(stores) {
				end, must = min(end, stores[j+1].ret), false
			}
			var sends []int64
			for _, h := range r.hooks[i] {
				if h > st.call && h < end {
					sends = append(sends, h)
				}
			}
			if must && len(sends) == 0 {
				sends = append(sends, st.call) // never sent: the model says whether that shows
			}
			for n, h := range sends {
				in.must = must && n == len(sends)-1
				add(in, h, end)
			}
			if st.tried {
				in.must = false
				nextSent := r.quiet
				for _, later := range stores[j+1:] {
					if later.sent {
						nextSent = min(nextSent, later.ret)
						break
					}
				}
				for _, w := range r.windows(st.call, nextSent) {
					if to := r.firstHook(i, max(w[0], st.ret), w[1]); to >= w[0] {
						add(in, w[0], to)
					}
				}
			}
		}
	}
	return ops
}

// check checks the history; when want is Ok and the result is not, it
// writes the history and porcupine's view of it to files and says where.
func (r *linRecorder) check(t *testing.T, caches int, want porcupine.CheckResult) (porcupine.CheckResult, int) {
	t.Helper()
	ops := r.ops()
	for _, op := range ops {
		require.GreaterOrEqual(t, op.Return, op.Call, "%v", op.Input)
	}
	model := linModel(caches)
	timeout := time.Minute
	if want == porcupine.Illegal { // the broken flusher: how often it is caught, not a failure
		timeout = 20 * time.Second
	}
	res, info := porcupine.CheckOperationsVerbose(model, ops, timeout)
	if res != want && want == porcupine.Ok {
		f, err := os.CreateTemp("", "rediscache-linearizability-*.html")
		if err == nil {
			f.Close()
			if porcupine.VisualizePath(model, info, f.Name()) == nil {
				t.Logf("the history, as porcupine shows it: %s", f.Name())
			}
			slices.SortFunc(ops, func(a, b porcupine.Operation) int { return cmp.Compare(a.Call, b.Call) })
			var b strings.Builder
			for _, op := range ops {
				fmt.Fprintf(&b, "[%d,%d] %v -> %v\n", op.Call, op.Return, op.Input, op.Output)
			}
			os.WriteFile(f.Name()+".txt", []byte(b.String()), 0o644)
		}
	}
	return res, len(ops)
}

// waitQuiet waits until every cache knows Redis to be up and has nothing
// pending.
func waitQuiet(t *testing.T, caches []*rediscache.Cache) {
	t.Helper()
	for _, c := range caches {
		waitUp(t, c)
		waitPending(t, c)
	}
}

var linKey = tune.CacheKey{Device: "d", Key: "linearizable", Candidates: "c"}

// linCaches opens n caches on srv, each with its own local cache: claims
// off (a miss is a miss at once), the timeout given (what a paused server
// costs each call), opts added.
func linCaches(t *testing.T, srv *redistest.Server, n int, timeout time.Duration, opts ...rediscache.Option) ([]*rediscache.Cache, []tune.Cache) {
	caches, locals := make([]*rediscache.Cache, n), make([]tune.Cache, n)
	for i := range caches {
		locals[i] = tune.NewMemoryCache()
		caches[i] = open(t, srv.URL(0), locals[i], append([]rediscache.Option{
			rediscache.WithClaimTTL(0), rediscache.WithTimeout(timeout),
			rediscache.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		}, opts...)...)
	}
	return caches, locals
}

// TestLinearizableThroughOutages: four caches on one Redis store and load one
// key, each from its own goroutine, while the server is paused and
// resumed, killed and restarted; the history fits linModel. Under
// STREAMGATE_SOAK=1 it runs 40 outages rather than 4, and runs the broken
// flusher too, reporting how often the check rejects it.
func TestLinearizableThroughOutages(t *testing.T) {
	phases := []string{"pause", "kill", "pause", "kill"}
	if os.Getenv("STREAMGATE_SOAK") == "1" {
		phases = nil
		for i := range 40 {
			phases = append(phases, []string{"pause", "kill"}[i%2])
		}
	}
	variants := []bool{false}
	if os.Getenv("STREAMGATE_SOAK") == "1" {
		variants = append(variants, true)
	}
	for _, broken := range variants {
		name := "fixed"
		if broken {
			name = "broken"
		}
		t.Run(name, func(t *testing.T) {
			rejected, unknown := 0, 0
			for p, fault := range phases {
				res, ops := linRun(t, fault, int64(p), broken)
				t.Logf("outage %d (%s): %d operations, %s", p, fault, ops, res)
				if !broken {
					require.Equal(t, porcupine.Ok, res, "outage %d (%s), %d operations: not linearizable", p, fault, ops)
					continue
				}
				switch res { // a history that is not linearizable may take the check past its time
				case porcupine.Illegal:
					rejected++
				case porcupine.Unknown:
					unknown++
				}
			}
			t.Logf("%s flusher: %d of %d outages (paused or killed, then back) gave a history the check rejects, %d one it gave up on",
				name, rejected, len(phases), unknown)
		})
	}
}

// linRun runs one outage of the given kind against a fresh server and
// caches and checks its history: the clients run while the server is up,
// then down, then back, then stop; the caches then send what they kept.
func linRun(t *testing.T, fault string, seed int64, broken bool) (porcupine.CheckResult, int) {
	const n = 4
	srv := redistest.Start(t)
	// The flusher waits, before each send, for its cache's client to make a
	// store (20ms at most): the interleaving a broken flusher shows in.
	stores := make([]atomic.Int64, n)
	r := newLinRecorder(n)
	var caches []*rediscache.Cache
	var locals []tune.Cache
	for i := range n {
		opts := []rediscache.Option{rediscache.WithFlushHook(func(tune.CacheKey) {
			n0 := stores[i].Load()
			for end := time.Now().Add(20 * time.Millisecond); stores[i].Load() == n0 && time.Now().Before(end); {
				time.Sleep(time.Millisecond)
			}
			r.hook(i)
		})}
		if broken {
			opts = append(opts, rediscache.WithBrokenFlusher())
		}
		c, l := linCaches(t, srv, 1, 300*time.Millisecond, opts...)
		caches, locals = append(caches, c[0]), append(locals, l[0])
	}
	ctx := deadline(t)
	stop := make(chan struct{})
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(i)))
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				var err error
				switch x := rng.IntN(10); {
				case x < 4:
					err = r.store(ctx, i, caches[i], linKey)
					stores[i].Add(1)
				case x < 7:
					err = r.load(i, caches[i], locals[i], linKey, false)
				default:
					err = r.load(i, caches[i], locals[i], linKey, true)
				}
				if err != nil {
					errs <- err
					return
				}
				time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond)
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	wait := func() { time.Sleep(400 * time.Millisecond) }
	switch fault {
	case "pause":
		r.fault(false, srv.Pause, wait, srv.Resume)
	case "kill":
		r.fault(true, srv.Kill, wait, srv.Restart)
	}
	time.Sleep(700 * time.Millisecond) // past the flushers' next ping: stores race their sends
	close(stop)
	wg.Wait()
	for range n {
		require.NoError(t, <-errs)
	}
	waitQuiet(t, caches)
	r.markQuiet()
	// A last fresh load by each cache, now that everything is in Redis.
	for i := range n {
		require.NoError(t, r.load(i, caches[i], locals[i], linKey, true))
	}
	want := porcupine.Ok
	if broken {
		want = porcupine.Illegal
	}
	return r.check(t, n, want)
}

// TestLinearizabilityCheckRejectsBrokenFlusher: the check rejects the broken
// flusher (WithBrokenFlusher), in the history that shows it every time: a
// store queued while Redis is killed; Redis back, and the flusher held
// before it sends; a newer store of the key sent directly; the flusher let
// go; a load by another cache. The fixed flusher's history passes.
func TestLinearizabilityCheckRejectsBrokenFlusher(t *testing.T) {
	for _, tc := range []struct {
		name   string
		broken bool
		want   porcupine.CheckResult
	}{
		{"fixed", false, porcupine.Ok},
		{"broken", true, porcupine.Illegal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := redistest.Start(t)
			gate := make(chan struct{})
			var once sync.Once
			r := newLinRecorder(2)
			opts := []rediscache.Option{rediscache.WithFlushHook(func(tune.CacheKey) {
				once.Do(func() { <-gate })
				r.hook(0)
			})}
			open := sync.OnceFunc(func() { close(gate) })
			defer open() // before the caches close: a failing test does not leave the flusher waiting
			if tc.broken {
				opts = append(opts, rediscache.WithBrokenFlusher())
			}
			// A generous timeout: the store made once Redis is back must
			// be sent by the call, however loaded the machine.
			a, localsA := linCaches(t, srv, 1, 5*time.Second, opts...)
			b, localsB := linCaches(t, srv, 1, 5*time.Second)
			caches, locals := []*rediscache.Cache{a[0], b[0]}, []tune.Cache{localsA[0], localsB[0]}
			ctx := deadline(t)

			r.fault(true, srv.Kill, func() {
				require.NoError(t, r.store(ctx, 0, caches[0], linKey))
				require.Equal(t, 1, caches[0].Pending(), "queued while Redis is dead")
			}, srv.Restart)
			waitUp(t, caches[0]) // the flusher is in the hook, before its send
			require.NoError(t, r.store(ctx, 0, caches[0], linKey))
			r.mu.Lock()
			require.True(t, r.stores[0][1].sent, "the newer store was sent by the call")
			r.mu.Unlock()
			open()
			waitQuiet(t, caches)
			r.markQuiet()
			require.NoError(t, r.load(1, caches[1], locals[1], linKey, true))
			res, _ := r.check(t, 2, tc.want)
			var hist []string
			for _, op := range r.ops() {
				hist = append(hist, fmt.Sprintf("[%d,%d] %v -> %v", op.Call, op.Return, op.Input, op.Output))
			}
			t.Logf("%s flusher: %s\n%s", tc.name, res, strings.Join(hist, "\n"))
			assert.Equal(t, tc.want, res)
		})
	}
}
