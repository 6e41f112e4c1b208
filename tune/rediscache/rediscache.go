package rediscache

// Lock order: a key's lock (keyLock.mu), then Cache.mu; never two keys'
// locks at once. Cache.mu is never held while Redis or the local cache is
// called; a key's lock is held across this cache's writes of that key, to
// the local cache and to Redis, so that they happen one at a time.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/streamgate/streamgate/internal/low/slogwarn"
	"github.com/streamgate/streamgate/tune"
)

// Defaults of the options.
const (
	DefaultTimeout  = 500 * time.Millisecond // one Redis call, at most
	DefaultClaimTTL = 10 * time.Second       // how long a claim to tune a key lasts
	DefaultPrefix   = "streamgate:tune:"     // of every key the cache writes
	retryInterval   = 500 * time.Millisecond // between pings while Redis is down
	pollInterval    = 20 * time.Millisecond  // between looks at a key another process tunes
)

// An Option configures [Open].
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

type config struct {
	log      *slog.Logger
	timeout  time.Duration
	claimTTL time.Duration
	prefix   string
	silenced Warning
	// Test hooks (export_test.go): brokenFlush restores a flusher that
	// sent a queued store over a newer one, so that the tests show they
	// catch it; flushHook is called before the flusher sends each pending
	// store.
	brokenFlush bool
	flushHook   func(tune.CacheKey)
}

// WithLogger sends the cache's warnings (Redis unreachable, a value that
// does not decode, a call Redis refused about one key) and, at Info, its
// recoveries to l. By default they go
// to slog.Default(), warnings and above.
func WithLogger(l *slog.Logger) Option { return optionFunc(func(c *config) { c.log = l }) }

// WithTimeout bounds each Redis call (a dial, a read, a write) by d, in
// addition to the caller's context; by default [DefaultTimeout].
func WithTimeout(d time.Duration) Option { return optionFunc(func(c *config) { c.timeout = d }) }

// WithClaimTTL sets how long a process's claim to tune a key lasts: a miss
// in both caches claims the key, and others that miss it wait up to that
// long for its result (or for their context to end) before they tune it
// themselves. A store of the key, or Close, releases the claim; a tune that
// decides nothing leaves it to expire. It should exceed the longest tune.
// 0 disables claims: processes that miss a key at once all tune it. By
// default [DefaultClaimTTL].
func WithClaimTTL(d time.Duration) Option { return optionFunc(func(c *config) { c.claimTTL = d }) }

// Warning names a warning the cache logs about Redis's state, which a
// program that reads that state from the cache's methods may say in its
// own words instead (see [WithSilenced]). Warnings combine with |.
type Warning uint8

const (
	// WarnOpen: Redis did not answer the ping of [Open], or answered it
	// with an error ([Cache.OpenErr], [Cache.OpenAnswered]).
	WarnOpen Warning = 1 << iota
	// WarnOutage: a call failed after Open, and the cache skips Redis
	// until it answers again ([Cache.Down]).
	WarnOutage
	// WarnRangeLocal: a Range listed the local cache alone, Redis being
	// down or failing during it ([Cache.Down], asked after the Range).
	WarnRangeLocal
	// WarnClosePending: Close left stores that Redis never got
	// ([Cache.Pending], asked before Close).
	WarnClosePending
)

// WithSilenced leaves the warnings w names out of the log: the program
// reads the state they report from the cache's methods and says it
// itself, as cmd/streamgate does. Every other record (a value that does
// not decode, a call Redis refused about one key, Redis back) is logged as
// ever. By default nothing is silenced.
func WithSilenced(w Warning) Option { return optionFunc(func(c *config) { c.silenced |= w }) }

// WithPrefix sets the prefix of every Redis key the cache reads and
// writes; by default [DefaultPrefix].
func WithPrefix(p string) Option { return optionFunc(func(c *config) { c.prefix = p }) }

// Cache is a [tune.Cache] on Redis in front of a local cache. It is safe
// for concurrent use by multiple goroutines, and any number of processes
// may share one Redis. The zero value is not usable; use [Open].
type Cache struct {
	rdb      *redis.Client // written once
	local    tune.Cache    // written once
	log      *slog.Logger  // written once
	timeout  time.Duration // written once
	claimTTL time.Duration // written once
	prefix   string        // written once
	silenced Warning       // written once
	token    string        // this cache's claims hold it; written once
	server   string        // the server, for messages (no password); written once
	network  string        // the server's network and address; written once
	addr     string        // written once
	// dial dials the server as the client's pool does, TLS included, for
	// reachable; written once.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)

	// Test hooks (see config); written once.
	brokenFlush bool
	flushHook   func(tune.CacheKey)

	kernels      kernelStore // local's kernels, or a memory store when local keeps none; written once
	openErr      error       // the error of Open's ping; written once
	openAnswered bool        // Redis answered Open's ping (PONG or an error); written once

	mu      sync.Mutex                     // guards the fields below
	down    bool                           // Redis failed; the flusher pings until it answers
	seq     uint64                         // the last store issued, of any key: its number
	pending map[tune.CacheKey]pendingStore // per key, the newest store not yet in Redis, to send when it is back
	locks   map[tune.CacheKey]*keyLock     // the keys this cache is writing, or waits to
	claims  map[tune.CacheKey]bool         // claimed by this cache and not yet stored
	ignored map[tune.CacheKey]bool         // keys whose Redis value did not decode, logged once
	refused map[string]bool                // Redis keys a call about was refused, logged once
	badKeys map[string]bool                // Redis keys under the entries' prefix that did not parse, logged once

	kpending map[[32]byte]pendingKernel // per kernel key, the newest store not yet in Redis
	klocks   map[[32]byte]*keyLock      // the kernel keys this cache is writing, or waits to
	kignored map[[32]byte]bool          // kernel keys whose Redis value was not a sealed entry, logged once
	closed   bool

	wake chan struct{}  // a send makes the flusher look now
	done chan struct{}  // closed by Close
	wg   sync.WaitGroup // the flusher
}

// Open returns a cache on the Redis server at rawURL in front of local:
// redis://[[user]:password@]host[:port][/db] or rediss:// (TLS), as
// redis.ParseURL reads them. Only a malformed URL is an error: a server
// that does not answer is logged, and the cache works from local until it
// does. Close closes local too. In a GOOS=js build Open fails with
// ErrUnsupported (desktop only: a page has no TCP).
func Open(rawURL string, local tune.Cache, opts ...Option) (*Cache, error) {
	cfg := config{log: slogwarn.New(), timeout: DefaultTimeout, claimTTL: DefaultClaimTTL, prefix: DefaultPrefix}
	for _, o := range opts {
		o.apply(&cfg)
	}
	if local == nil {
		panic("rediscache: nil local cache")
	}
	if errPlatform != nil {
		return nil, errPlatform
	}
	ro, err := redis.ParseURL(rawURL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message repeats the URL, password and all
		}
		return nil, fmt.Errorf("tune: redis URL: %w", err)
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout = cfg.timeout, cfg.timeout, cfg.timeout
	ro.ContextTimeoutEnabled = true // the caller's deadline bounds a call too
	ro.MaxRetries = -1              // a fault is the local cache's turn, not a retry's
	ro.DialerRetries = 1
	ro.DisableIdentity = true // CLIENT SETINFO: Redis 7.0 lacks it
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	var tok [8]byte
	_, _ = rand.Read(tok[:])
	c := &Cache{
		rdb: redis.NewClient(ro), local: local, log: cfg.log, timeout: cfg.timeout, claimTTL: cfg.claimTTL,
		prefix: cfg.prefix, silenced: cfg.silenced, token: hex.EncodeToString(tok[:]), server: fmt.Sprintf("%s db %d", ro.Addr, ro.DB),
		network: ro.Network, addr: ro.Addr, dial: redis.NewDialer(ro),
		brokenFlush: cfg.brokenFlush, flushHook: cfg.flushHook,
		pending: map[tune.CacheKey]pendingStore{}, locks: map[tune.CacheKey]*keyLock{}, claims: map[tune.CacheKey]bool{},
		ignored: map[tune.CacheKey]bool{}, refused: map[string]bool{}, badKeys: map[string]bool{},
		kpending: map[[32]byte]pendingKernel{}, klocks: map[[32]byte]*keyLock{}, kignored: map[[32]byte]bool{},
		wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	c.kernels = localKernels(local)
	if err := c.ping(context.Background()); err != nil {
		var re redis.Error
		c.openErr, c.openAnswered = err, errors.As(err, &re)
		c.markDown()
		if c.silenced&WarnOpen == 0 {
			c.log.Warn("tune: Redis unavailable; tuning from the local cache, stores kept to send when it is back",
				"server", c.server, "op", "open", "err", err)
		}
	} else {
		c.openAnswered = true
	}
	c.wg.Add(1)
	go c.flusher()
	return c, nil
}

var _ tune.ContextCache = (*Cache)(nil)

// pendingStore is a store that waits for Redis.
type pendingStore struct {
	entry tune.Entry
	value []byte // entry, encoded
	seq   uint64 // the store's number: a newer store of the key has a higher one
}

// keyLock serializes this cache's writes of one key (see [Cache.lockKey]).
type keyLock struct {
	mu   sync.Mutex
	refs int // goroutines that hold mu or wait for it; guarded by Cache.mu
}

// lockKey takes k's lock, which every write of k by this cache holds: a
// store (to the local cache and Redis), a delete, the flusher's send of k,
// and a load keeping what Redis has. It returns the function that releases
// it. A key nobody writes has no lock (c.locks holds the others).
func (c *Cache) lockKey(k tune.CacheKey) (unlock func()) { return lockIn(c, c.locks, k) }

// lockIn takes k's lock in locks, which c.mu guards: c.locks for tune
// entries, c.klocks for kernels.
func lockIn[K comparable](c *Cache, locks map[K]*keyLock, k K) (unlock func()) {
	c.mu.Lock()
	l := locks[k]
	if l == nil {
		l = &keyLock{}
		locks[k] = l
	}
	l.refs++
	c.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		c.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(locks, k)
		}
		c.mu.Unlock()
	}
}

// redisKey is k's key of kind in Redis, under the cache's prefix; kind
// "e" is the entry, "c" the claim.
func (c *Cache) redisKey(kind string, k tune.CacheKey) string { return redisKey(c.prefix, kind, k) }

// call returns a context for one Redis call: ctx bounded by the timeout.
func (c *Cache) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.timeout)
}

// reachable dials the server as the client's pool would, TLS included,
// and hangs up. The pool prints a line of its own to stderr for each dial
// that fails, through go-redis's logger, which is the program's to set
// (redis.SetLogger is process-wide, and a library that set it would
// silence or redirect every other go-redis client in the program): so a
// cache that does not know Redis to be up dials it here first, and calls
// the client only once a dial succeeds.
func (c *Cache) reachable(ctx context.Context) error {
	cctx, cancel := c.call(ctx)
	defer cancel()
	cn, err := c.dial(cctx, c.network, c.addr)
	if err != nil {
		return err
	}
	return cn.Close()
}

// ping asks the server for a PONG once it is reachable.
func (c *Cache) ping(ctx context.Context) error {
	if err := c.reachable(ctx); err != nil {
		return err
	}
	cctx, cancel := c.call(ctx)
	defer cancel()
	return c.rdb.Ping(cctx).Err()
}

// refused reports whether err is Redis's answer refusing a call about its
// keys — a value of another type than the call's under one (WRONGTYPE),
// say — rather than a failure of the server or of the way to it: no answer
// (a network error, a timeout), or an answer that is about the server
// (it is loading its data, read-only, out of memory, refusing this client's
// password or its permissions, ...), which would refuse any call.
func refused(err error) bool {
	var re redis.Error
	if !errors.As(err, &re) || errors.Is(err, redis.Nil) {
		return false
	}
	server := redis.IsLoadingError(err) || redis.IsReadOnlyError(err) || redis.IsMasterDownError(err) ||
		redis.IsClusterDownError(err) || redis.IsTryAgainError(err) || redis.IsMaxClientsError(err) ||
		redis.IsAuthError(err) || redis.IsPermissionError(err) || redis.IsOOMError(err) ||
		redis.IsNoReplicasError(err) || redis.IsExecAbortError(err) ||
		redis.HasErrorPrefix(err, "BUSY") || redis.HasErrorPrefix(err, "MISCONF")
	return !server
}

// failed records a failed Redis call about k: one that Redis refused
// ([refused]) is about k alone, logged once per key, and Redis stays in
// use; any other failure is an outage ([Cache.fault]).
func (c *Cache) failed(op string, k tune.CacheKey, err error) {
	c.failedAt(op, c.redisKey("e", k), k.String(), err)
}

// failedAt is failed for the key whose Redis key is rkey, shown in the log
// as shown.
func (c *Cache) failedAt(op, rkey, shown string, err error) {
	if !refused(err) {
		c.fault(op, err)
		return
	}
	c.mu.Lock()
	logged := c.refused[rkey]
	c.refused[rkey] = true
	c.mu.Unlock()
	if !logged {
		c.log.Warn("tune: Redis refused a call about one key; the key is tuned and kept locally, Redis stays in use for the others",
			"key", shown, "op", op, "err", err)
	}
}

// fault records a failed Redis call: the first of an outage is logged, and
// Redis is skipped until the flusher's ping gets an answer.
func (c *Cache) fault(op string, err error) {
	if c.markDown() && c.silenced&WarnOutage == 0 {
		c.log.Warn("tune: Redis unavailable; tuning from the local cache, stores kept to send when it is back",
			"server", c.server, "op", op, "err", err)
	}
	c.poke()
}

// markDown records that Redis is down; first: it was not known to be.
func (c *Cache) markDown() (first bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	first = !c.down
	c.down = true
	return first
}

func (c *Cache) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Load is LoadContext with a background context: a wait for another
// process's tune lasts at most the claim TTL.
func (c *Cache) Load(k tune.CacheKey) (tune.Entry, bool) {
	return c.LoadContext(context.Background(), k)
}

// LoadContext returns k's entry from the local cache, else from Redis
// (keeping it locally). On a miss in both it claims k for this process —
// the caller is then expected to tune and store it — unless another
// process holds the claim: it then waits for that process's entry until
// the claim ends or ctx does. A fault or a value that does not decode is
// logged and is a miss. It returns by the time ctx ends.
func (c *Cache) LoadContext(ctx context.Context, k tune.CacheKey) (tune.Entry, bool) {
	if e, ok := c.local.Load(k); ok {
		return e, true
	}
	if c.Down() {
		return tune.Entry{}, false
	}
	if c.claimTTL > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.claimTTL)
		defer cancel()
	}
	for {
		e, ok, err := c.get(ctx, k)
		if err != nil || ok {
			return e, ok
		}
		if c.claimTTL <= 0 {
			return tune.Entry{}, false
		}
		mine, err := c.claim(ctx, k)
		if err != nil {
			return tune.Entry{}, false
		}
		if mine {
			// Another process may have stored k and released its claim
			// between the look above and this claim: look once more.
			if e, ok, _ := c.get(ctx, k); ok {
				c.unclaim(ctx, k)
				return e, true
			}
			return tune.Entry{}, false
		}
		select { // another process tunes k: look again soon
		case <-time.After(pollInterval):
		case <-ctx.Done():
			return tune.Entry{}, false
		}
	}
}

// get reads k's entry from Redis and keeps it locally. A fault is logged
// and returned; a value that does not decode is logged and is a miss.
func (c *Cache) get(ctx context.Context, k tune.CacheKey) (tune.Entry, bool, error) {
	cctx, cancel := c.call(ctx)
	defer cancel()
	v, err := c.rdb.Get(cctx, c.redisKey("e", k)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return tune.Entry{}, false, nil
	case err != nil:
		if ctx.Err() == nil { // not the caller's deadline: Redis's fault
			c.failed("load", k, err)
		}
		return tune.Entry{}, false, err
	}
	e, ok := c.decode(k, v)
	if !ok {
		return tune.Entry{}, false, nil
	}
	c.keep(k, e)
	return e, true, nil
}

// keep stores e, k's entry in Redis, in the local cache, unless the local
// cache has k by now: a store of k made since the load missed it locally
// is newer than what the load read, or as new, and is not replaced.
func (c *Cache) keep(k tune.CacheKey, e tune.Entry) {
	unlock := c.lockKey(k)
	defer unlock()
	if _, ok := c.local.Load(k); ok {
		return
	}
	if err := c.local.Store(k, e); err != nil {
		c.log.Warn("tune: an entry from Redis is not kept locally", "key", k.String(), "err", err)
	}
}

// decode decodes v, k's value in Redis. One that does not decode is
// logged, once per key, and is a miss.
func (c *Cache) decode(k tune.CacheKey, v []byte) (tune.Entry, bool) {
	var e tune.Entry
	if err := json.Unmarshal(v, &e); err != nil {
		c.mu.Lock()
		logged := c.ignored[k]
		c.ignored[k] = true
		c.mu.Unlock()
		if !logged { // not once per look while another process tunes k
			c.log.Warn("tune: Redis entry ignored: it does not decode", "key", k.String(), "err", err)
		}
		return tune.Entry{}, false
	}
	return e, true
}

// claim takes k's claim for this cache, or reports that it holds it
// already; false: another process does.
func (c *Cache) claim(ctx context.Context, k tune.CacheKey) (mine bool, err error) {
	cctx, cancel := c.call(ctx)
	defer cancel()
	ck := c.redisKey("c", k)
	ok, err := c.rdb.SetNX(cctx, ck, c.token, c.claimTTL).Result()
	if err == nil && !ok {
		var holder string
		holder, err = c.rdb.Get(cctx, ck).Result()
		if errors.Is(err, redis.Nil) {
			return false, nil // released meanwhile: look again
		}
		ok = holder == c.token
	}
	if err != nil {
		if ctx.Err() == nil {
			c.failed("claim", k, err)
		}
		return false, err
	}
	if ok {
		c.mu.Lock()
		c.claims[k] = true
		c.mu.Unlock()
	}
	return ok, nil
}

// unclaim releases this cache's claim on k.
func (c *Cache) unclaim(ctx context.Context, k tune.CacheKey) {
	cctx, cancel := c.call(ctx)
	defer cancel()
	if err := release.Run(cctx, c.rdb, []string{c.redisKey("c", k)}, c.token).Err(); err == nil {
		c.mu.Lock()
		delete(c.claims, k)
		c.mu.Unlock()
	}
}

// release drops this cache's claim on k, if it still holds it.
var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Store is StoreContext with a background context.
func (c *Cache) Store(k tune.CacheKey, e tune.Entry) error {
	return c.StoreContext(context.Background(), k, e)
}

// StoreContext saves e under k in the local cache and in Redis, and
// releases this process's claim on k. A Redis fault is logged, never
// returned: e is then sent once Redis is back, unless a newer store of k
// by this cache replaces it first. A call about k that Redis refuses
// (WRONGTYPE, say) is logged once per key and e is not sent again. The
// error is the local cache's.
//
// This cache's stores of k reach Redis in the order they were made: an
// older one is never sent after a newer one, whichever sends them
// (StoreContext itself or the flusher, once Redis is back).
func (c *Cache) StoreContext(ctx context.Context, k tune.CacheKey, e tune.Entry) error {
	_, _, err := c.store(ctx, k, e)
	return err
}

// store is StoreContext; sent: e is in Redis, sent by this call; tried:
// it was sent and the send failed, and e is queued (a send that timed out
// may still reach a server that was only slow).
//
// It holds k's lock throughout. A store drops k's pending store, which is
// older, as it is issued; the flusher sends a pending store only while
// holding k's lock and only if it is still k's pending store. So while
// the flusher sends one, no store of k is issued, and a store that was
// issued after it has dropped it: the flusher never sends a store of k
// older than one this cache sent already, and neither does a store.
func (c *Cache) store(ctx context.Context, k tune.CacheKey, e tune.Entry) (sent, tried bool, err error) {
	value, err := json.Marshal(e)
	if err != nil {
		return false, false, fmt.Errorf("tune: cache store: %w", err)
	}
	unlock := c.lockKey(k)
	defer unlock()
	lerr := c.local.Store(k, e)
	c.mu.Lock()
	c.seq++
	p := pendingStore{entry: e, value: value, seq: c.seq}
	if !c.brokenFlush {
		delete(c.pending, k) // older: this store replaces it, sent now or queued
	}
	down := c.down
	c.mu.Unlock()
	if !down {
		err := c.send(ctx, k, value)
		if err == nil {
			return true, false, lerr
		}
		if refused(err) {
			return false, false, lerr // logged; sent again, it would be refused again
		}
		tried = true
	}
	c.mu.Lock()
	c.pending[k] = p
	c.mu.Unlock()
	c.poke()
	return false, tried, lerr
}

// send writes one entry to Redis and releases this cache's claim on it;
// the caller holds k's lock. It returns nil once the entry is in Redis: a
// claim that Redis refuses to release (a value of another type under the
// claim's key) is logged, and is no error of the store's.
func (c *Cache) send(ctx context.Context, k tune.CacheKey, value []byte) error {
	cctx, cancel := c.call(ctx)
	defer cancel()
	var set *redis.StatusCmd
	var rel *redis.Cmd
	_, err := c.rdb.TxPipelined(cctx, func(p redis.Pipeliner) error {
		set = p.Set(cctx, c.redisKey("e", k), value, 0)
		rel = release.Eval(cctx, p, []string{c.redisKey("c", k)}, c.token) // Eval: a pipeline cannot fall back from EVALSHA
		return nil
	})
	if err != nil && set.Err() == nil && refused(rel.Err()) {
		c.failed("store", k, rel.Err()) // the entry is in Redis; the claim, if any, expires
		err = nil
	}
	if err != nil {
		if ctx.Err() == nil {
			c.failed("store", k, err)
		}
		return err
	}
	c.mu.Lock()
	delete(c.claims, k)
	c.mu.Unlock()
	return nil
}

// Delete forgets k locally and in Redis, and drops a store of k that
// waits for Redis; a Redis fault is logged.
func (c *Cache) Delete(k tune.CacheKey) error {
	unlock := c.lockKey(k)
	defer unlock()
	err := c.local.Delete(k)
	c.mu.Lock()
	delete(c.pending, k)
	down := c.down
	c.mu.Unlock()
	if !down {
		ctx, cancel := c.call(context.Background())
		defer cancel()
		if rerr := c.rdb.Del(ctx, c.redisKey("e", k)).Err(); rerr != nil {
			c.failed("delete", k, rerr)
		}
	}
	return err
}

// Down reports whether the cache knows Redis to be down: a call failed
// and the cache's ping has not been answered since. Meanwhile loads and
// Range use the local cache alone and stores wait (see [Cache.Pending]).
// A program that must know whether a Range listed Redis asks Down after
// it, as `streamgate tune export` does.
func (c *Cache) Down() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.down
}

// Pending returns how many stores wait for Redis to come back, tune
// entries and kernels together (a newer store of a key replaces its
// waiting one).
func (c *Cache) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) + len(c.kpending)
}

// OpenErr returns the error of the ping [Open] sent, nil if Redis answered
// it with PONG; [Cache.OpenAnswered] tells an error that is Redis's answer
// from no answer. The cache has worked from the local cache since, until
// Redis answered the flusher's ping ([Cache.Down] tells whether it has).
func (c *Cache) OpenErr() error { return c.openErr }

// OpenAnswered reports whether Redis answered the ping of [Open], with
// PONG or with an error of its own (a wrong password, a database number
// out of range: see [Cache.OpenErr]); false: no answer (nothing listening,
// a timeout, a TLS handshake that failed).
func (c *Cache) OpenAnswered() bool { return c.openAnswered }

// flusher pings a Redis that is down until it answers, then sends the
// stores kept meanwhile.
func (c *Cache) flusher() {
	defer c.wg.Done()
	tick := time.NewTicker(retryInterval)
	defer tick.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-tick.C:
		case <-c.wake:
			if c.Down() {
				continue // the next tick pings: not one ping per fault
			}
		}
		c.flush()
	}
}

// flush pings Redis if it is down and, once it answers, sends the pending
// stores.
func (c *Cache) flush() {
	c.mu.Lock()
	down, n := c.down, len(c.pending)+len(c.kpending)
	c.mu.Unlock()
	if !down && n == 0 {
		return
	}
	if down {
		if c.ping(context.Background()) != nil {
			return
		}
		c.mu.Lock()
		c.down = false
		c.mu.Unlock()
		c.log.Info("tune: Redis is back", "server", c.server, "pending stores", n)
	}
	if c.flushEntries() {
		c.flushKernels()
	}
}

// flushEntries sends the pending tune entries; false: Redis is down again.
func (c *Cache) flushEntries() bool {
	for {
		c.mu.Lock()
		var k tune.CacheKey
		var p pendingStore
		found := false
		for k, p = range c.pending {
			found = true
			break
		}
		c.mu.Unlock()
		if !found {
			return true
		}
		if c.flushHook != nil {
			c.flushHook(k)
		}
		if !c.flushOne(k, p) {
			return false // down again; kept for the next try
		}
	}
}

// flushOne sends p, k's pending store, unless a newer store of k has
// replaced it since the flusher picked it (see [Cache.store]); false:
// Redis is down again.
func (c *Cache) flushOne(k tune.CacheKey, p pendingStore) bool {
	if !c.brokenFlush {
		unlock := c.lockKey(k)
		defer unlock()
		c.mu.Lock()
		cur, ok := c.pending[k]
		c.mu.Unlock()
		if !ok || cur.seq != p.seq {
			return true // replaced: the newer store is sent, or pending
		}
	}
	if err := c.send(context.Background(), k, p.value); err != nil && !refused(err) {
		return false
	}
	c.mu.Lock()
	if cur, ok := c.pending[k]; ok && cur.seq == p.seq {
		delete(c.pending, k) // sent, or refused (logged)
	}
	c.mu.Unlock()
	return true
}

// Close stops sending, releases this cache's claims (best effort, bounded
// by the timeout), and closes the Redis client and the local cache. Stores
// still pending are in the local cache, not in Redis.
func (c *Cache) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	claims := make([]string, 0, len(c.claims))
	for k := range c.claims {
		claims = append(claims, c.redisKey("c", k))
	}
	down, n := c.down, len(c.pending)+len(c.kpending)
	c.mu.Unlock()
	close(c.done)
	c.wg.Wait()
	if n > 0 && c.silenced&WarnClosePending == 0 {
		c.log.Warn("tune: closing with stores Redis never got; they are in the local cache only", "server", c.server, "pending stores", n)
	}
	if !down && len(claims) > 0 {
		ctx, cancel := c.call(context.Background())
		for _, ck := range claims {
			release.Run(ctx, c.rdb, []string{ck}, c.token)
		}
		cancel()
	}
	return errors.Join(c.rdb.Close(), c.local.Close())
}
