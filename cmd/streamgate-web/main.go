//go:build !js

package main

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"
)

// addrEnv, when set, is the default of -addr (make demo-web ADDR=...).
const addrEnv = "STREAMGATE_WEB_ADDR"

// howToEnable is what the server prints beside the URL.
const howToEnable = `Open it in a browser with WebGPU:
  Chromium or Chrome: it has WebGPU on by default where the GPU is supported; elsewhere (Linux,
    most machines) start it with --enable-unsafe-webgpu (and --enable-features=Vulkan), or enable
    chrome://flags/#enable-unsafe-webgpu, e.g.
      chromium --enable-unsafe-webgpu --enable-features=Vulkan URL
  Firefox: dom.webgpu.enabled = true in about:config.  Safari: Develop > Feature Flags > WebGPU.
The page says so when navigator.gpu or the adapter is missing.`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command with its arguments; it returns the exit status: 0,
// 1 for a failure, 2 for a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("streamgate-web", flag.ContinueOnError)
	fs.SetOutput(stderr)
	defaultAddr := "127.0.0.1:0"
	if a := os.Getenv(addrEnv); a != "" {
		defaultAddr = a
	}
	addr := fs.String("addr", defaultAddr, "address to serve on (port 0: a free one); default $"+addrEnv+" if set")
	wasmPath := fs.String("wasm", "", "the page's program built already (GOOS=js GOARCH=wasm go build "+appPackage+"); \"\" to build it")
	goCmd := fs.String("go", "go", "the go command that builds the program and whose wasm_exec.js is served")
	shot := fs.String("screenshot", "", "open the page in headless Chromium with WebGPU, wait for it to finish, save a PNG here and exit")
	query := fs.String("query", "", `-screenshot: the page's query, e.g. "tokens=16&layers=2" (see cmd/streamgate-web/app)`)
	timeout := fs.Duration("timeout", 5*time.Minute, "-screenshot: how long the page may take")
	bundleFile := fs.String("bundle", "", "build the page's program with this bundle embedded (streamgate-web -export-bundle, or streamgate bundle export on the same browser's adapter): a first visit tunes none of its keys")
	exportBundle := fs.String("export-bundle", "", "-screenshot: save the bundle of the winners the page tuned here (the query gets export=1)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "streamgate-web: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *exportBundle != "" && *shot == "" {
		fmt.Fprintf(stderr, "streamgate-web: -export-bundle needs -screenshot\n")
		return 2
	}
	if *bundleFile != "" && *wasmPath != "" {
		fmt.Fprintf(stderr, "streamgate-web: -bundle builds the program; -wasm is one built already: give one\n")
		return 2
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "streamgate-web: "+format+"\n", args...)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail("-addr %s: %v", *addr, err)
	}
	defer ln.Close()
	srv := &server{started: time.Now()}
	if *wasmPath != "" {
		if srv.wasm, err = os.ReadFile(*wasmPath); err != nil {
			return fail("-wasm: %v", err)
		}
		if srv.wasmExec, err = readWasmExec(ctx, *goCmd); err != nil {
			return fail("%v", err)
		}
	} else {
		fmt.Fprintf(stderr, "streamgate-web: building the page's program (GOOS=js GOARCH=wasm)...\n")
		if srv.wasm, srv.wasmExec, err = buildApp(ctx, *goCmd, *bundleFile); err != nil {
			return fail("%v", err)
		}
	}
	if !isWasm(srv.wasm) {
		return fail("-wasm %s is not a WebAssembly module", *wasmPath)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	defer hs.Close()
	url := "http://" + ln.Addr().String() + "/"

	if *shot != "" {
		q := *query
		if *exportBundle != "" {
			q = strings.TrimPrefix(q+"&export=1", "&")
		}
		if q != "" {
			url += "?" + q
		}
		sctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		res, err := screenshot(sctx, url, *shot)
		if err != nil {
			return fail("-screenshot: %v", err)
		}
		fmt.Fprintf(stdout, "streamgate-web: %s: the page finished (%s), saved %s\n", url, res.State, *shot)
		if res.State == "done" {
			fmt.Fprintf(stdout, "  adapter %s; CPU check passed %v; launches per token %d, compiles avoided %d\n"+
				"  time to first token: warm %.2f ms, cold %.2f ms; per token: warm median %.3f ms, cold first %.2f ms then median %.3f ms\n",
				res.Adapter, res.CPUCheck, res.LaunchesPerToken, res.CompilesAvoided,
				res.TTFTMsWarm, res.TTFTMsCold, res.TokenMsMedian, res.ColdFirstStepMs, res.ColdTokenMsMed)
		}
		if res.State != "done" || !res.CPUCheck {
			return fail("the page did not pass: %s %s", res.State, res.Error)
		}
		if *exportBundle != "" {
			b, err := base64.StdEncoding.DecodeString(res.Bundle)
			if err != nil || len(b) == 0 {
				return fail("-export-bundle: the page published no bundle (%v)", err)
			}
			if err := os.WriteFile(*exportBundle, b, 0o644); err != nil {
				return fail("-export-bundle: %v", err)
			}
			fmt.Fprintf(stdout, "  saved the bundle of the page's %d winners (%d bytes) to %s\n", res.Keys, len(b), *exportBundle)
		}
		return 0
	}

	fmt.Fprintf(stdout, "streamgate-web: serving the demo at %s\n%s\n(Ctrl-C stops the server.)\n", url, howToEnable)
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return 0
	case err := <-served:
		return fail("serving: %v", err)
	}
}

// isWasm reports whether b starts with WebAssembly's magic number.
func isWasm(b []byte) bool { return len(b) >= 4 && string(b[:4]) == "\x00asm" }
