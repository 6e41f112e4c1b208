// Package rediscache shares tune results with a fleet on Redis: a
// [tune.Cache] in front of a process's local cache (an SQLite file from
// package tune/sqlitecache, say). It is a package of its own so that a
// program that never uses Redis does not link its client.
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
// go-redis prints a line of its own to stderr for each dial of its pool
// that fails, through a logger that is process-wide (redis.SetLogger):
// the package leaves that logger to the program. It keeps go-redis's
// lines few instead: a cache that does not know Redis to be up (at Open,
// and while it waits for Redis to come back) dials it outside the pool
// first, so an outage prints at most the line of the call that runs into
// it. A program that wants none sets redis.SetLogger, as cmd/streamgate
// does.
package rediscache
