// Package webcache keeps tune results in the browser's own storage, so a
// page that tunes once finds its winners again on the next load: a
// [tune.Cache] for [tune.WithCache] in a GOOS=js GOARCH=wasm program, what
// tune/sqlitecache is on the desktop.
//
// It stores into the page's localStorage, not IndexedDB. tune.Cache is
// synchronous — Load returns the entry — and a Tuner calls it from any
// goroutine. localStorage answers synchronously from Go through syscall/js;
// IndexedDB answers only through callbacks and promises, which a goroutine
// must wait for, and which deadlock when the caller is itself a JavaScript
// callback (a js.FuncOf handler cannot wait for the event loop it blocks).
// Tune entries are small (a ranking of candidate names, about 100 bytes),
// so localStorage's quota of a few MB per origin holds tens of thousands.
//
// Each entry is one item: the key is the cache's prefix ([DefaultPrefix]
// unless [Open] is given another), the format version "v1:", then the
// device, the tuner key and the candidates' checksum, each base64url
// (storage keys are UTF-16 strings, the parts any bytes); the value is the
// entry's JSON (tune.Entry's, byte-exact). A second Open with the same
// prefix — on this load of the page or a later one of the same origin —
// sees every entry; caches with other prefixes do not see each other's. An
// item that does not decode is logged and ignored, never trusted, and a
// store over it replaces it; items of another version are misses. A store
// that the storage refuses (its quota is full, or the user turned storage
// off) is an error, never a panic.
//
// The cache exists only in GOOS=js GOARCH=wasm builds (webcache_js.go);
// elsewhere the package has the same API and [Open] fails with an error
// that says so, so code that chooses its cache by platform builds
// everywhere.
package webcache
