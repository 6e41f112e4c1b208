// Package registry holds the per-stream mode overrides of a process: whether
// a launch on a stream executes or is discarded.
//
// Overrides of one stream nest: the newest live one decides. They may be
// released in any order, from any goroutine; releasing twice does nothing.
// The overrides live in an immutable snapshot behind an atomic pointer (a
// [lockfree.Value]), so [Registry.Mode] — called on every launch — never
// locks and never allocates; while no live override sets the mode opposite
// to the default it asks for, it answers from one atomic word. Writers are
// lock-free too: each builds the next snapshot from the one it loaded and
// publishes it by compare-and-swap, retrying from the newer snapshot when
// another writer published first, so a writer descheduled mid-write never
// holds up another. Up to 8 streams overridden, the snapshot lists them in a
// small table that a read scans and a write copies; beyond that, the
// snapshot carries no table but a persistent hash trie from each stream to
// its override stack, its root node built in, of which a write copies one
// path, so Set and Release cost O(log k) with k streams overridden, not
// O(k). [Registry.All] lists the live overrides of one snapshot, for
// debugging.
package registry
