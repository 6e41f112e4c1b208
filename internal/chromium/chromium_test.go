//go:build !js

package chromium_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/streamgate/streamgate/internal/chromium"
)

func TestPathOverride(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "plain")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, env string }{
		{"missing", filepath.Join(dir, "nope")},
		{"directory", dir},
		{"not executable", notExec},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CHROMIUM", tc.env)
			p, err := chromium.Path()
			if !errors.Is(err, chromium.ErrNotFound) || !strings.Contains(err.Error(), "CHROMIUM="+tc.env) {
				t.Fatalf("Path() = %q, %v; want ErrNotFound naming CHROMIUM=%s", p, err, tc.env)
			}
		})
	}
	exe := filepath.Join(dir, "fake-chromium")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHROMIUM", exe)
	if p, err := chromium.Path(); p != exe || err != nil {
		t.Fatalf("Path() = %q, %v; want %q", p, err, exe)
	}
}

func TestFlags(t *testing.T) {
	for _, want := range []string{"--headless=new", "--enable-unsafe-webgpu", "--no-sandbox"} {
		found := false
		for _, f := range chromium.Flags {
			found = found || f == want
		}
		if !found {
			t.Errorf("Flags = %q, want %s among them", chromium.Flags, want)
		}
	}
}

// TestWebGPUAdapter starts the browser with Flags and checks that a page on
// it gets a WebGPU adapter.
func TestWebGPUAdapter(t *testing.T) {
	chromium.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// navigator.gpu exists only in a secure context: http://127.0.0.1 is one,
	// about:blank is not.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<!doctype html><title>webgpu</title>"))
	}))
	defer srv.Close()
	bctx, bcancel, err := chromium.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer bcancel()
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(async () => {
		if (!navigator.gpu) return "no navigator.gpu";
		const a = await navigator.gpu.requestAdapter();
		return a === null ? "null adapter" : "adapter";
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got != "adapter" {
		t.Fatalf("requestAdapter with Flags %q: %s, want an adapter", chromium.Flags, got)
	}
}
