// Package rediscache shares tune results with a fleet on Redis: a
// [tune.Cache] in front of a process's local cache (an SQLite file from
// package tune/sqlitecache, say). It is a package of its own so that a
// program that never uses Redis does not link its client. It is desktop
// only: a GOOS=js build compiles, and [Open] there fails with an error that
// says so (a browser page has no TCP; tune/webcache is its cache).
//
// A load asks the local cache first, then Redis, and keeps what Redis has
// in the local cache; a store goes to both. While one process tunes a key,
// the others that miss it wait for its result rather than measure it too
// (a claim on the key in Redis, which expires). Redis only ever makes a
// load slower by a bounded time, never fails one: a server that is
// unreachable, killed or slow is logged once, the caller's decision comes
// from the local cache or from tuning, and the stores made meanwhile are
// sent once it is back. A value in Redis that does not decode is logged
// and ignored, never trusted. Range lists every entry in Redis under the
// cache's prefix, whichever process stored it, with the local entries
// Redis lacks: what tune.Export writes for a fleet.
//
// # One key's ordering
//
// What the cache promises about one key, checked by
// TestLinearizableThroughOutages (a porcupine check of several caches on one
// Redis while the server is paused, killed and restarted):
//
//   - A load returns an entry some store of the key wrote, or misses; it
//     never makes one up. A miss is always possible: Redis down or slow.
//   - A load served by the local cache returns this cache's newest store
//     of the key, or the entry it last read from Redis. The local cache is
//     not kept in step with Redis: such a load may return an entry older
//     than one another process stored since.
//   - A load that reads Redis (the local cache lacks the key) returns an
//     entry never older than the last store that reached Redis before the
//     load began, and keeps it locally only if the local cache still lacks
//     the key: it never replaces a store made meanwhile.
//   - A store reaches Redis before it returns, unless the cache knows
//     Redis to be down (or the call fails): it is then queued and sent once
//     Redis answers again, unless a newer store of the key by this cache
//     replaces it first. This cache's stores of a key reach Redis in the
//     order they were made: a queued store never overwrites a newer one,
//     whichever sent that, the caller or the flusher. Stores of one key by
//     different processes land in the order Redis receives them.
//   - A send that timed out against a server that was only slow or paused
//     may still reach it; it is sent again once the server answers, and so
//     may reach Redis twice.
//   - A call about a key that Redis refuses (a value of another type under
//     it: WRONGTYPE) is about that key: it is logged once per key, a load
//     of the key misses and it is tuned, a store of it replaces the value
//     (SET), and the cache stays on Redis for every key. Only a
//     failure of the server or of the way to it (no answer, a timeout, an
//     answer about the server: loading, read-only, out of memory, a wrong
//     password) marks Redis down ([Cache.Down]).
//
// # Kernels
//
// The cache shares compiled kernels too ([Cache.LoadKernel],
// [Cache.StoreKernel]: a wgpu.KernelStore), so that a fleet compiles each
// kernel once, under the rules above: a load asks the local cache first
// (when it keeps kernels, as tune/sqlitecache does; else a memory store of
// the cache's own), then Redis, and keeps what Redis has locally; a store
// goes to both, waits out an outage, and this cache's stores of a key reach
// Redis in order. A kernel lives in Redis under a kind of its own ("k",
// the key in hex), sealed: a magic, the key and a SHA-256 of both and the
// entry, so that a value truncated, changed or copied from another key is
// a miss with one warning per key, never returned. There is no claim on a
// kernel: processes that miss one at once each compile it.
//
// # State
//
// A program reads the cache's state from its methods, never from its log:
// [Cache.OpenErr] and [Cache.OpenAnswered] (did Redis answer the ping of
// Open, and with what), [Cache.Down] (is it known to be down now),
// [Cache.Pending] (how many stores wait for it). [WithSilenced] leaves out
// of the log the warnings that report those states, for a program that
// says them in its own words.
//
// Both kinds of store pass the conformance suite of package
// tune/cachetest.
//
// go-redis prints a line of its own to stderr for each dial of its pool
// that fails, through a logger that is process-wide (redis.SetLogger):
// the package leaves that logger to the program. It keeps go-redis's
// lines few instead: a cache that does not know Redis to be up (at Open,
// and while it waits for Redis to come back) dials it outside the pool
// first, so an outage prints at most the line of the call that runs into
// it. A program that wants none sets redis.SetLogger, as cmd/streamgate
// does.
package rediscache
