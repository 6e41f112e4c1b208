// Package fuzz checks the registry and lockfree packages against the
// sequential model in internal/model: it decodes fuzz bytes into readable
// operation sequences, applies them to a real implementation and to the
// model, and compares every read (see [RunSequential] and [RunSlice]); and
// it runs concurrent programs on one registry while recording every call, then
// checks the history for linearizability with porcupine (see [Run] and
// [CheckHistory]).
//
// The fuzz targets themselves (FuzzRegistry, FuzzLockfree, FuzzConcurrent)
// live in this package's tests, with the exhaustive, random-history and
// stress tests and two deliberately broken registries that show the checkers
// fire. Their seed corpora are under testdata/fuzz/.
//
// Everything here drives an implementation through the [Registry]
// interface, so a test can hand it a broken one; [Wrap] adapts a
// *registry.Registry.
package fuzz
