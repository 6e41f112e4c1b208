//go:build !js

package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var fakeWasm = []byte("\x00asm\x01\x00\x00\x00")

func TestServer(t *testing.T) {
	srv := httptest.NewServer(&server{wasm: fakeWasm, wasmExec: []byte("// wasm_exec"), started: time.Now()})
	defer srv.Close()
	for _, tc := range []struct {
		method, path string
		status       int
		typ          string
		body         []string // substrings of the body
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", []string{`src="wasm_exec.js"`, `fetch("app.wasm")`, `id="result"`, `id="status"`}},
		{"GET", "/index.html", 200, "text/html; charset=utf-8", []string{"streamgate in a browser"}},
		{"GET", "/app.wasm", 200, "application/wasm", []string{string(fakeWasm)}},
		{"GET", "/wasm_exec.js", 200, "text/javascript; charset=utf-8", []string{"// wasm_exec"}},
		{"GET", "/main.go", 404, "", nil},
		{"GET", "/../server.go", 404, "", nil},
		{"POST", "/", 405, "", nil},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("%s %s: status %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
			}
			if tc.typ != "" {
				if got := resp.Header.Get("Content-Type"); got != tc.typ {
					t.Errorf("Content-Type = %q, want %q", got, tc.typ)
				}
				for h, want := range map[string]string{"Cache-Control": "no-store",
					"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"} {
					if got := resp.Header.Get(h); got != want {
						t.Errorf("%s = %q, want %q", h, got, want)
					}
				}
			}
			for _, s := range tc.body {
				if !bytes.Contains(b, []byte(s)) {
					t.Errorf("body lacks %q:\n%s", s, b)
				}
			}
		})
	}
}

// syncBuffer is a bytes.Buffer for one writer and a polling reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe runs the command: it prints the URL on 127.0.0.1 and how to
// enable WebGPU, serves the page and the program at it, and exits 0 when
// its context ends.
func TestServe(t *testing.T) {
	wasm := filepath.Join(t.TempDir(), "app.wasm")
	if err := os.WriteFile(wasm, fakeWasm, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"-wasm", wasm}, &stdout, &stderr) }()
	urlRE := regexp.MustCompile(`serving the demo at (http://127\.0\.0\.1:\d+/)`)
	var url string
	for deadline := time.Now().Add(30 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := urlRE.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		cancel()
		t.Fatalf("no URL printed in 30 s; stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "--enable-unsafe-webgpu") {
		t.Errorf("stdout %q does not say how to enable WebGPU", out)
	}
	resp, err := http.Get(url + "app.wasm")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(b, fakeWasm) {
		t.Errorf("GET app.wasm = %q, want the -wasm file %q", b, fakeWasm)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("run = %d after its context ended, want 0; stderr %q", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return within 10 s of its context's end")
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	notWasm := filepath.Join(dir, "app.wasm")
	if err := os.WriteFile(notWasm, []byte("<html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad addr", []string{"-addr", "127.0.0.1:notaport", "-wasm", notWasm}, 1, "-addr 127.0.0.1:notaport"},
		{"missing wasm", []string{"-wasm", filepath.Join(dir, "nope.wasm")}, 1, "-wasm"},
		{"not wasm", []string{"-wasm", notWasm}, 1, "is not a WebAssembly module"},
		{"no go", []string{"-wasm", notWasm, "-go", filepath.Join(dir, "no-go")}, 1, "env GOROOT"},
		{"argument", []string{"extra"}, 2, `unexpected arguments ["extra"]`},
		{"flag", []string{"-nope"}, 2, "-nope"},
		{"a bundle not a bundle", []string{"-addr", "127.0.0.1:0", "-bundle", notWasm}, 1, notWasm + ": bundle: not a streamgate bundle"},
		{"a bundle and -wasm", []string{"-wasm", notWasm, "-bundle", notWasm}, 2, "-bundle builds the program; -wasm is one built already"},
		{"-export-bundle alone", []string{"-export-bundle", notWasm}, 2, "-export-bundle needs -screenshot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
			}
		})
	}
}
