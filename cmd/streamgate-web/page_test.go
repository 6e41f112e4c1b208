//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/cmd/streamgate-web/internal/page"
	"github.com/streamgate/streamgate/internal/chromium"
	"github.com/streamgate/streamgate/tune/bundle"
)

// testQuery is a model small enough for SwiftShader on a busy CPU.
const testQuery = "?layers=2&width=64&heads=4&vocab=256&max-seq=32&prompt-len=8&tokens=8"

var app struct {
	once           sync.Once
	wasm, wasmExec []byte
	err            error
}

// servePage builds the page's program (once per test binary) and serves
// it; the server closes with the test.
func servePage(t *testing.T) string {
	t.Helper()
	chromium.Require(t)
	app.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		app.wasm, app.wasmExec, app.err = buildApp(ctx, "go", "")
	})
	if app.err != nil {
		t.Fatal(app.err)
	}
	srv := httptest.NewServer(&server{wasm: app.wasm, wasmExec: app.wasmExec, started: time.Now()})
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// TestPage runs the demo in headless Chromium on its WebGPU adapter
// (SwiftShader) and checks what the page measured and shows.
func TestPage(t *testing.T) {
	url := servePage(t) + testQuery
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	v, err := openPage(ctx, url, false, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(v.PNG)); err != nil || cfg.Width < 800 || cfg.Height < 600 {
		t.Errorf("the screenshot: %d bytes, %dx%d, %v; want a PNG of the page, at least 800x600", len(v.PNG), cfg.Width, cfg.Height, err)
	}
	r := v.Result
	if r.State != page.StateDone {
		t.Fatalf("the page finished in state %q: %s %s\nconsole:\n%s", r.State, r.Error, r.Hint, lastLines(v.Console, 30))
	}
	if !r.CPUCheck || !r.ColdCPUCheck {
		t.Errorf("CPU check = %v, cold %v; want both passed", r.CPUCheck, r.ColdCPUCheck)
	}
	if r.Adapter == "" {
		t.Error("no adapter shown")
	}
	if len(r.Generated) != r.Tokens || r.Tokens != 8 {
		t.Errorf("generated %d tokens (%v), want the query's 8", len(r.Generated), r.Generated)
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"cross-origin isolated (the server's headers)", r.Isolated},
		{"the tune cache in localStorage, every key tuned (a fresh profile)", r.Cache == page.CacheStorage && r.Keys > 0 && r.TunedKeys == r.Keys},
		{"launches captured > 0", r.LaunchesCaptured > 0},
		{"launches executed = prefill + 7 decode steps", r.LaunchesExecuted == uint64(r.LaunchesPrefill+7*r.LaunchesPerToken)},
		{"replays = 8", r.Replays == 8},
		{"warm-up compiles > 0", r.WarmupCompiles > 0},
		{"compiles avoided > 0", r.CompilesAvoided > 0},
		{"generation compiled nothing", r.RealPassCompiles == 0},
		{"time to first token warm > 0", r.TTFTMsWarm > 0},
		{"time to first token cold > 0", r.TTFTMsCold > 0},
		{"cold compiled before its first token", r.ColdCompiles > 0},
		{"7 warm token times", len(r.TokenMs) == 7},
		{"7 cold token times", len(r.ColdTokenMs) == 7},
	}
	for _, ms := range append(r.TokenMs, r.ColdTokenMs...) {
		if !(ms > 0) {
			checks = append(checks, struct {
				name string
				ok   bool
			}{"token times > 0", false})
			break
		}
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no; the result: %+v", c.name, r)
		}
	}
	for _, s := range []string{"CPU check\tpassed", "compiles avoided\t", "per token, warm\t", "time to first token, cold\t"} {
		if !strings.Contains(v.Figures, s) {
			t.Errorf("the table lacks %q:\n%s", s, v.Figures)
		}
	}
	if !strings.HasPrefix(v.Chart, "<svg") || strings.Count(v.Chart, "<polyline") != 2 {
		t.Errorf("the chart is not an SVG with a warm and a cold line: %.300s", v.Chart)
	}
	if !strings.HasPrefix(v.Status, "done") {
		t.Errorf("status line %q, want done", v.Status)
	}
	t.Logf("adapter %s; time to first token warm %.2f ms, cold %.2f ms; per token warm median %.3f ms, cold first %.2f ms then median %.3f ms",
		r.Adapter, r.TTFTMsWarm, r.TTFTMsCold, r.TokenMsMedian, r.ColdFirstStepMs, r.ColdTokenMsMed)
}

// TestPageNoAdapter opens the page in a Chromium without
// --enable-unsafe-webgpu, where requestAdapter returns null: the page
// says so, names the flag, and finishes.
func TestPageNoAdapter(t *testing.T) {
	url := servePage(t) + testQuery
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	v, err := openPage(ctx, url, true, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Result
	if r.State != page.StateNoAdapter {
		t.Fatalf("state %q (%s), want %q\nconsole:\n%s", r.State, r.Error, page.StateNoAdapter, lastLines(v.Console, 30))
	}
	for _, s := range []string{"no WebGPU adapter", "--enable-unsafe-webgpu"} {
		if !strings.Contains(v.Message, s) {
			t.Errorf("the message %q lacks %q", v.Message, s)
		}
	}
	if v.Chart != "" || r.CPUCheck {
		t.Errorf("a page without an adapter shows a chart (%q) or a CPU check (%v)", v.Chart, r.CPUCheck)
	}
}

// TestScreenshotFlag runs the command with -screenshot: it serves the
// program, runs the page in headless Chromium, saves a PNG and prints the
// page's figures.
func TestScreenshotFlag(t *testing.T) {
	servePage(t) // builds the program
	dir := t.TempDir()
	wasm, shot := filepath.Join(dir, "app.wasm"), filepath.Join(dir, "shot.png")
	if err := os.WriteFile(wasm, app.wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"-wasm", wasm, "-screenshot", shot, "-query", strings.TrimPrefix(testQuery, "?") + "&cold=0", "-timeout", "4m"}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("run(%q) = %d; stdout %q, stderr %q", args, code, stdout.String(), stderr.String())
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.DecodeConfig(f); err != nil {
		t.Errorf("%s is not a PNG: %v", shot, err)
	}
	for _, s := range []string{"the page finished (done)", "CPU check passed true", "time to first token: warm"} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("stdout %q lacks %q", stdout.String(), s)
		}
	}
}

// TestPageReload loads the page twice in one browser: the first load
// tunes every key and stores the winners in localStorage (tune/webcache),
// the second finds them all and measures nothing.
func TestPageReload(t *testing.T) {
	url := servePage(t) + testQuery + "&cold=0"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	v, err := openPage(ctx, url, false, false, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Earlier) != 1 {
		t.Fatalf("%d earlier loads, want 1", len(v.Earlier))
	}
	first, second := v.Earlier[0], v.Result
	for i, r := range []page.Result{first, second} {
		if r.State != page.StateDone || !r.CPUCheck || r.Cache != page.CacheStorage {
			t.Fatalf("load %d: state %q (%s), CPU check %v, cache %q; want done, passed, %s", i+1, r.State, r.Error, r.CPUCheck, r.Cache, page.CacheStorage)
		}
	}
	if first.Keys == 0 || first.TunedKeys != first.Keys || first.CacheHits != 0 || first.MeasurementLaunches == 0 {
		t.Errorf("first load: %d keys, %d tuned, %d cache hits, %d measurement launches; want all tuned, measured", first.Keys, first.TunedKeys, first.CacheHits, first.MeasurementLaunches)
	}
	if second.CacheHits != second.Keys || second.TunedKeys != 0 || second.MeasurementLaunches != 0 {
		t.Errorf("second load: %d keys, %d tuned, %d cache hits, %d measurement launches; want all found in the cache, nothing measured", second.Keys, second.TunedKeys, second.CacheHits, second.MeasurementLaunches)
	}
	if !slices.Equal(first.Generated, second.Generated) {
		t.Errorf("the loads generated %v and %v, want the same tokens", first.Generated, second.Generated)
	}
}

// TestPageBundle: the page's winners, published as a bundle by one
// visit (export=1), built into the page's program (-bundle, as a CI
// would) make a first visit of another browser, its localStorage empty,
// tune nothing: every key is found behind the tune cache, nothing is
// measured, and the tokens are the same.
func TestPageBundle(t *testing.T) {
	url := servePage(t) + testQuery + "&cold=0"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	v, err := openPage(ctx, url+"&export=1", false, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	made := v.Result
	if made.State != page.StateDone || !made.CPUCheck || made.TunedKeys != made.Keys || made.BundleTuneEntries != 0 {
		t.Fatalf("the visit that makes the bundle: state %q (%s), CPU check %v, %d of %d keys tuned, %d bundled; want done, passed, all tuned, no bundle",
			made.State, made.Error, made.CPUCheck, made.TunedKeys, made.Keys, made.BundleTuneEntries)
	}
	data, err := base64.StdEncoding.DecodeString(made.Bundle)
	if err != nil {
		t.Fatalf("the page's bundle: %v", err)
	}
	b, err := bundle.Load(data)
	if err != nil {
		t.Fatalf("the page's bundle: %v", err)
	}
	if b.TuneEntries() != made.Keys || len(b.Devices()) != 1 {
		t.Fatalf("the page's bundle holds %d tune entries for %q, want the %d keys of one adapter", b.TuneEntries(), b.Devices(), made.Keys)
	}
	path := filepath.Join(t.TempDir(), "web.bundle")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	wasm, wasmExec, err := buildApp(ctx, "go", path)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&server{wasm: wasm, wasmExec: wasmExec, started: time.Now()})
	defer srv.Close()

	v, err = openPage(ctx, srv.URL+"/"+testQuery+"&cold=0", false, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Result
	if r.State != page.StateDone || !r.CPUCheck || r.Cache != page.CacheStorage {
		t.Fatalf("the first visit with the bundle: state %q (%s), CPU check %v, cache %q; want done, passed, %s\nconsole:\n%s",
			r.State, r.Error, r.CPUCheck, r.Cache, page.CacheStorage, lastLines(v.Console, 30))
	}
	if r.BundleTuneEntries != made.Keys || r.TunedKeys != 0 || r.CacheHits != r.Keys || r.MeasurementLaunches != 0 {
		t.Errorf("the first visit with the bundle: %d bundled, %d of %d keys tuned, %d cache hits, %d measurement launches; want %d bundled, nothing tuned or measured",
			r.BundleTuneEntries, r.TunedKeys, r.Keys, r.CacheHits, r.MeasurementLaunches, made.Keys)
	}
	if !slices.Equal(made.Generated, r.Generated) {
		t.Errorf("the visits generated %v and %v, want the same tokens", made.Generated, r.Generated)
	}
}
