//go:build !js

// Command streamgate-web serves the browser demo of streamgate: it builds
// the program of cmd/streamgate-web/app with GOOS=js GOARCH=wasm (or
// takes one built already, -wasm), and serves it on 127.0.0.1 with its
// page (index.html) and the wasm_exec.js of the Go that built it. Opened
// in a browser with WebGPU, the page runs what streamgate generate runs
// in a terminal — the warm-up, the generation replayed per token, the CPU
// check, the same generation cold — on the browser's GPU and shows the
// adapter, the launches, the compiles avoided, the CPU check and the
// token times, with a chart.
//
// Usage:
//
//	streamgate-web [-addr 127.0.0.1:0] [-wasm app.wasm | -bundle web.bundle] [-go go]
//	streamgate-web -screenshot docs/demo-web.png [-query 'tokens=16'] [-export-bundle web.bundle]
//
// It prints the URL to open and how to give the browser WebGPU, and
// serves until interrupted. With -screenshot it instead opens the page in
// headless Chromium (with WebGPU), waits for the demo to finish, saves a
// PNG of the page and exits: 0 when the page's CPU check passed; with
// -export-bundle it also saves the bundle of the winners the page tuned.
// -bundle builds the page's program with that bundle embedded: a first
// visit, its localStorage empty, tunes none of the keys it holds.
//
// The server is a desktop program: its files are built for every
// platform but js (the page's program is the js one).
package main
