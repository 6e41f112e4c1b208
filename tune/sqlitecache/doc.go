// Package sqlitecache keeps tune results in an SQLite file that several
// processes may share: a [tune.Cache] for [tune.WithCache]. The same file
// keeps compiled kernels ([Cache.LoadKernel], [Cache.StoreKernel]: a
// wgpu.KernelStore), in a table of their own, and lists them for a bundle
// ([Cache.RangeKernels]). It is a package
// of its own so that a program that never opens one does not link SQLite.
// It is desktop only: modernc.org/sqlite does not build for GOOS=js, so a js
// build has the same API with an [Open] that fails with an error saying so
// (sqlitecache_js.go); in a browser, tune/webcache keeps the winners.
//
// [Open] refuses any file that is not a streamgate tune cache rather than
// overwrite it. A valid cache that the process may not write — a file or
// directory without write permission, the way a container image ships one —
// opens read-only: loads read the file, and stores (tune entries and
// kernels) are kept in memory for the process's life, with one warning.
//
// Both kinds of store pass the conformance suite of package tune/cachetest,
// writable and read-only.
package sqlitecache
