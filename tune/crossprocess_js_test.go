//go:build js

package tune_test

// childMain never runs a child: a js/wasm test binary cannot start
// processes, so TestCrossProcessCache is desktop-only
// (crossprocess_test.go); webcache's TestReopen checks what a second page
// load of the browser's cache sees.
func childMain() (code int, ok bool) { return 0, false }
