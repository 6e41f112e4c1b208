// Package bench holds the comparisons across implementations, as suites of
// [Case]s that go test (through the Benchmark wrappers in this package's
// _test files) and the streamgate bench command run alike:
// [RegistrySuite] (the stream mode registry against the designs it
// replaces) and [LaunchSuite] (the launch path against hand-written wgpu,
// on the devices of [OpenLaunchEnv]).
//
// The registry suite runs one body over every implementation of a small
// interface (impl):
//
//   - seed: a faithful Go port of the seed design — a sync.Mutex around a
//     slice of live overrides scanned newest-first under the lock, with two
//     atomic live counters for the fast path;
//   - seedNewestFirst: the seed with newest-first removal;
//   - rwMutex: the same under a sync.RWMutex, readers taking RLock;
//   - rbMutex: the same under an xsync.RBMutex (reader-biased);
//   - mapOf: an xsync.MapOf from each stream to its own override list,
//     with the seed's live counters for the fast path;
//   - registryImpl: an adapter for registry.Registry.
//
// atomicInt64 is the floor a fast path is compared with: one atomic load.
//
// Every implementation has the registry's semantics: overrides of one
// stream nest and the newest live one decides; they are released in any
// order, from any goroutine; releasing twice does nothing; (service, stream)
// is the key. The package's tests check every implementation against the
// sequential oracle in internal/oracle.
package bench
