//go:build !js

package chromium

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// ErrNotFound is wrapped by the error of [Path] when no Chromium binary is
// found.
var ErrNotFound = errors.New("chromium: no Chromium binary")

// DefaultPath is where Debian's chromium package installs the browser.
const DefaultPath = "/usr/bin/chromium"

// Flags are the command line flags, beyond chromedp's defaults, that every
// browser of this package starts with:
//
//   - --headless=new: the full browser without a window (the old headless
//     mode has no WebGPU);
//   - --enable-unsafe-webgpu: WebGPU on Linux, where Chromium does not enable
//     it by default; requestAdapter returns null without it. Headless, the
//     adapter is SwiftShader's Vulkan on the CPU (isFallbackAdapter true);
//   - --no-sandbox: Chromium's sandbox refuses to run as root, as CI does;
//   - --enable-precise-memory-info and --js-flags=--expose-gc: tests that
//     measure the page's JS heap (performance.memory, after gc()) read it
//     exactly.
var Flags = []string{"--headless=new", "--enable-unsafe-webgpu", "--no-sandbox", "--enable-precise-memory-info", "--js-flags=--expose-gc"}

// Required reports whether a missing Chromium fails tests rather than
// skipping them: STREAMGATE_REQUIRE_CHROMIUM=1.
func Required() bool { return os.Getenv("STREAMGATE_REQUIRE_CHROMIUM") == "1" }

// Path returns the Chromium binary: $CHROMIUM when set (which must then name
// an executable), else /usr/bin/chromium, else chromium, chromium-browser or
// google-chrome on PATH. Its error wraps [ErrNotFound] and says how to
// install one.
func Path() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if err := executable(p); err != nil {
			return "", fmt.Errorf("%w: CHROMIUM=%s: %v", ErrNotFound, p, err)
		}
		return p, nil
	}
	if executable(DefaultPath) == nil {
		return DefaultPath, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w at %s or on PATH (scripts/install-deps.sh chromium installs Debian's; CHROMIUM=path names another)", ErrNotFound, DefaultPath)
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return fmt.Errorf("not an executable file")
	}
	return nil
}

// Require returns the Chromium binary for a test: without one the test is
// skipped, or fails when [Required].
func Require(t testing.TB) string {
	t.Helper()
	p, err := Path()
	if err != nil {
		if Required() {
			t.Fatalf("STREAMGATE_REQUIRE_CHROMIUM=1: %v", err)
		}
		t.Skip(err)
	}
	return p
}

// Options returns chromedp's default allocator options with the binary at
// path and [Flags]. Chromium's own output goes to log (nil: discarded).
func Options(path string, log io.Writer) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path))
	for _, f := range Flags {
		name, value, ok := strings.Cut(strings.TrimPrefix(f, "--"), "=")
		if ok {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	if log == nil {
		log = io.Discard
	}
	return append(opts, chromedp.CombinedOutput(log))
}

// NewAllocator returns a chromedp allocator context for the Chromium of
// [Path] with [Flags] and then extra. The browser starts with the first
// chromedp.Run on a context made from it; cancel kills it and the processes
// it started, and removes its profile directory. The error is [Path]'s.
func NewAllocator(parent context.Context, extra ...chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc, error) {
	p, err := Path()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := chromedp.NewExecAllocator(parent, append(Options(p, nil), extra...)...)
	return ctx, cancel, nil
}

// NewContext returns a chromedp browser context (one tab) on a new
// allocator from [NewAllocator]; cancel closes both and kills the browser.
func NewContext(parent context.Context, extra ...chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc, error) {
	actx, acancel, err := NewAllocator(parent, extra...)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := chromedp.NewContext(actx)
	return ctx, func() { cancel(); acancel() }, nil
}
