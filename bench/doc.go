// Package bench holds the implementations that [registry.Registry] is
// measured against, behind one small interface, [Impl], so a benchmark body
// (or the streamgate bench command) runs over all of them:
//
//   - [Seed]: a faithful Go port of the seed design — a sync.Mutex around a
//     slice of live overrides scanned newest-first under the lock, with two
//     atomic live counters for the fast path.
//   - [RWMutex]: the same under a sync.RWMutex, readers taking RLock.
//   - [RBMutex]: the same under an xsync.RBMutex (reader-biased).
//   - [MapOf]: an xsync.MapOf from each stream to its own override list,
//     with the seed's live counters for the fast path.
//   - [Registry]: an adapter for registry.Registry.
//
// [AtomicInt64] is the floor a fast path is compared with: one atomic load.
//
// Every implementation has the registry's semantics: overrides of one
// stream nest and the newest live one decides; they are released in any
// order, from any goroutine; releasing twice does nothing; (service, stream)
// is the key. The package's tests check every implementation against the
// sequential model in internal/model.
package bench
