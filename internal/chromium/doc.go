// Package chromium finds and starts the headless Chromium that streamgate's
// browser tests run in: the test runner for GOOS=js GOARCH=wasm
// (scripts/wasmexec) and the tests that drive the demo page.
//
// [Path] finds the binary: $CHROMIUM when set, else /usr/bin/chromium (Debian's
// chromium package, which scripts/install-deps.sh chromium installs), else a
// chromium, chromium-browser or google-chrome on PATH. [Flags] are the command
// line flags that give a page a real WebGPU adapter headless: without
// --enable-unsafe-webgpu, Chromium on Linux answers
// navigator.gpu.requestAdapter() with null. [NewAllocator] and [NewContext]
// build chromedp contexts with them; canceling the context kills the browser
// and every process it started.
//
// A test that needs Chromium calls [Require]: without a binary it skips, or
// fails when STREAMGATE_REQUIRE_CHROMIUM=1 (set by make test).
//
// It drives the browser from the host, so a GOOS=js build (the program in
// the page) has none of it: the package is empty there.
package chromium
