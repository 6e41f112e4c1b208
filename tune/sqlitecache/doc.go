// Package sqlitecache keeps tune results in an SQLite file that several
// processes may share: a [tune.Cache] for [tune.WithCache]. It is a package
// of its own so that a program that never opens one does not link SQLite.
// It is desktop only: modernc.org/sqlite does not build for GOOS=js, so a js
// build has the same API with an [Open] that fails with an error saying so
// (sqlitecache_js.go); in a browser, tune/webcache keeps the winners.
//
// [Open] refuses any file that is not a streamgate tune cache rather than
// overwrite it. A valid cache that the process may not write — a file or
// directory without write permission, the way a container image ships one —
// opens read-only: loads read the file, and stores are kept in memory for
// the process's life, with one warning.
package sqlitecache
