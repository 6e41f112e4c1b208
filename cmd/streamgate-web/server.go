//go:build !js

package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/streamgate/streamgate/tune/bundle"
)

// indexHTML is the page: it loads wasm_exec.js and app.wasm, and the
// program writes the rest.
//
//go:embed index.html
var indexHTML []byte

// appPackage is the js/wasm program the page runs.
const appPackage = "github.com/streamgate/streamgate/cmd/streamgate-web/app"

// server serves the page, the program and wasm_exec.js from memory. It is
// safe for concurrent use; its fields are written once, before it
// serves.
type server struct {
	wasm     []byte // the program, GOOS=js GOARCH=wasm
	wasmExec []byte // the wasm_exec.js of the Go that built it
	started  time.Time
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: "+r.Method, http.StatusMethodNotAllowed)
		return
	}
	var body []byte
	var typ string
	switch r.URL.Path {
	case "/", "/index.html":
		body, typ = indexHTML, "text/html; charset=utf-8"
	case "/wasm_exec.js":
		body, typ = s.wasmExec, "text/javascript; charset=utf-8"
	case "/app.wasm":
		body, typ = s.wasm, "application/wasm" // instantiateStreaming requires it
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "no-store") // a rebuilt program is never stale
	// Cross-origin isolation: without it Chromium coarsens performance.now,
	// the clock of Go's time.Since under js, to 100 µs; with it, to 5 µs.
	w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
	w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
	http.ServeContent(w, r, r.URL.Path, s.started, bytes.NewReader(body))
}

// buildApp builds the program with goCmd for GOOS=js GOARCH=wasm and
// reads the wasm_exec.js of the same Go (GOROOT/lib/wasm, or misc/wasm
// before Go 1.24). With bundleFile, the program embeds that bundle in
// place of the empty one of its source tree (through go build -overlay,
// which leaves the tree alone). It runs in the current directory, which
// must be in the streamgate module.
func buildApp(ctx context.Context, goCmd, bundleFile string) (wasm, wasmExec []byte, err error) {
	dir, err := os.MkdirTemp("", "streamgate-web-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "app.wasm")
	args := []string{"build", "-o", out}
	if bundleFile != "" {
		overlay, err := bundleOverlay(ctx, goCmd, bundleFile, dir)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.CommandContext(ctx, goCmd, append(args, appPackage)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("building the page's program (GOOS=js GOARCH=wasm %s build %s; run from the streamgate module, or pass -wasm): %v\n%s",
			goCmd, appPackage, err, strings.TrimSpace(string(msg)))
	}
	if wasm, err = os.ReadFile(out); err != nil {
		return nil, nil, err
	}
	if wasmExec, err = readWasmExec(ctx, goCmd); err != nil {
		return nil, nil, err
	}
	return wasm, wasmExec, nil
}

// appBundle is the file of the page's program that holds its bundle.
const appBundle = "embedded.bundle"

// bundleOverlay writes into dir a go build -overlay file that puts
// bundleFile (checked: a bundle that loads) in place of the program's
// embedded bundle, and returns its path.
func bundleOverlay(ctx context.Context, goCmd, bundleFile, dir string) (string, error) {
	data, err := os.ReadFile(bundleFile)
	if err != nil {
		return "", err
	}
	if _, err := bundle.Load(data); err != nil {
		return "", fmt.Errorf("%s: %w", bundleFile, err)
	}
	abs, err := filepath.Abs(bundleFile)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, goCmd, "list", "-f", "{{.Dir}}", appPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	pkgDir, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("finding the page's program (%s list %s): %v", goCmd, appPackage, err)
	}
	b, err := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(strings.TrimSpace(string(pkgDir)), appBundle): abs,
	}})
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	return overlay, os.WriteFile(overlay, b, 0o644)
}

// readWasmExec reads the wasm_exec.js of goCmd's GOROOT.
func readWasmExec(ctx context.Context, goCmd string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("%s env GOROOT: %v", goCmd, err)
	}
	root := strings.TrimSpace(string(out))
	var errs []string
	for _, p := range []string{filepath.Join(root, "lib", "wasm", "wasm_exec.js"), filepath.Join(root, "misc", "wasm", "wasm_exec.js")} {
		b, err := os.ReadFile(p)
		if err == nil {
			return b, nil
		}
		errs = append(errs, err.Error())
	}
	return nil, fmt.Errorf("no wasm_exec.js in %s's GOROOT %s: %s", goCmd, root, strings.Join(errs, "; "))
}
