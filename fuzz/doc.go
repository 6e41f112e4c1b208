// Package fuzz checks the registry and lockfree packages against the
// sequential oracle in internal/oracle: it decodes fuzz bytes into readable
// operation sequences, applies them to a real implementation and to the
// model, and compares every read (runSequential and runSlice); and it runs
// concurrent programs on one registry while recording every call, then
// checks the history for linearizability with porcupine (run and
// checkHistory).
//
// The fuzz targets themselves (FuzzRegistry, FuzzLockfree, FuzzConcurrent)
// live in this package's tests, with the exhaustive, random-history and
// stress tests and three deliberately broken registries that show the
// checkers fire (one of them writers that store where they must
// compare-and-swap). The concurrent checks and the exhaustive release orders
// also run with the registry's writers made to lose their compare-and-swap
// races (internal/low/testhook), so the retry path is what they check. Their
// seed corpora are under testdata/fuzz/.
//
// Everything here drives an implementation through the registryAPI
// interface, so a test can hand it a broken one; wrap adapts a
// *registry.Registry. The package exports nothing: the decoders, the
// model and the checkers serve its own tests only.
package fuzz
