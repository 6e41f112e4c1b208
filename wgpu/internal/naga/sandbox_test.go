package naga_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/internal/naga"
)

// TestCompilationCache starts the sandbox with a compilation cache
// directory that fills, that is warm, that is damaged, and that cannot be
// made. None may fail the caller.
func TestCompilationCache(t *testing.T) {
	if testing.Short() || raceEnabled {
		// The start is one goroutine's work; the race detector adds
		// nothing here but seconds per compilation.
		t.Skip("compiles the module several times")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	entries := func() (n int) {
		filepath.WalkDir(cache, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				n++
			}
			return nil
		})
		return n
	}
	defer naga.SetCacheDir("")() // restores the run's directory
	defer naga.ResetSandbox()
	for _, tc := range []struct {
		name, dir string
		before    func()
		entries   int // files in the cache afterwards
	}{
		{name: "empty", dir: cache, entries: 1},
		{name: "warm", dir: cache, entries: 1},
		// wazero replaces an entry with a bad header itself. One cut short
		// fails to load: the start compiles without the cache and clears
		// the directory, and the next start fills it again.
		{name: "garbage", dir: cache, before: func() { damage(t, cache, func([]byte) []byte { return []byte("WAZEVO garbage") }) }, entries: 1},
		{name: "refilled", dir: cache, entries: 1},
		{name: "truncated", dir: cache, before: func() { damage(t, cache, func(b []byte) []byte { return b[:len(b)/2] }) }, entries: 0},
		{name: "refills", dir: cache, entries: 1},
		{name: "warm again", dir: cache, entries: 1},
		{name: "parent is a file", dir: filepath.Join(file, "cache")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			naga.SetCacheDir(tc.dir)
			if err := naga.ResetSandbox(); err != nil {
				t.Fatal(err)
			}
			src := "fn cache_" + strings.ReplaceAll(tc.name, " ", "_") + "() -> f32 { return 1; }"
			if out, err := naga.Lower(testCtx(t), src); err != nil || !strings.Contains(out, "1f") {
				t.Fatalf("Lower = %q, %v, want it to work", out, err)
			}
			if tc.dir == cache {
				if n := entries(); n != tc.entries {
					t.Errorf("cache holds %d files, want %d", n, tc.entries)
				}
			}
		})
	}
}

// damage rewrites every file under dir with f of its contents.
func damage(t *testing.T, dir string, f func([]byte) []byte) {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err == nil {
				err = os.WriteFile(p, f(b), 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		return nil
	})
	if n == 0 {
		t.Fatal("no cache file to damage")
	}
}
