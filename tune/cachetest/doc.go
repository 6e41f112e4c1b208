// Package cachetest is the conformance suite of the tune caches: one set
// of checks that every [tune.Cache] passes (the memory cache,
// tune/sqlitecache, tune/rediscache, tune/webcache), and one that every
// kernel store passes (a [KernelStore]: wgpu's memory store, the SQLite
// file, Redis). A new backend imports it, calls [Run] or [RunKernels] from
// a test, and is done when they pass; what only that backend promises (a
// file that survives a reopen, a server that goes down and comes back) is
// tested beside it.
//
// The checks are the contract as a caller relies on it: a load misses or
// returns exactly what was stored, whatever bytes the key's parts hold; a
// store replaces; a delete forgets; Range lists every entry once, in key
// order ([tune.CompareKeys]), stops when told, and lets its callback use
// the cache; many goroutines may store and load at once and lose nothing
// (run the suite under -race); a [tune.ContextCache] returns promptly on a
// context that is done, and never with a made-up entry. A kernel store
// returns a copy (the caller may change the bytes it got or gave), keeps an
// empty entry and a large one whole, and is just as safe to share.
//
// Each check returns by a deadline: one that does not (a Range that calls
// its callback under the lock the callback needs, say) fails as a
// deadlock rather than hanging the test binary.
package cachetest
