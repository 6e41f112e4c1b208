package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// newCache makes a tune cache file holding entries.
func newCache(t *testing.T, path string, entries map[tune.CacheKey]tune.Entry) {
	t.Helper()
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	defer c.Close()
	for k, e := range entries {
		require.NoError(t, c.Store(k, e))
	}
}

func readCache(t *testing.T, path string) map[tune.CacheKey]tune.Entry {
	t.Helper()
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	defer c.Close()
	m := map[tune.CacheKey]tune.Entry{}
	require.NoError(t, c.Range(func(k tune.CacheKey, e tune.Entry) bool { m[k] = e; return true }))
	return m
}

// TestTuneExportImport: a fleet tunes once: export from one machine's
// cache, import into another's, and the entries arrive as they were.
func TestTuneExportImport(t *testing.T) {
	dir := t.TempDir()
	created := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	entries := map[tune.CacheKey]tune.Entry{
		{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"}: {Ranking: []string{"tiled-8", "naive-8x8"}, Timing: tune.TimingGPU, Created: created},
		{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "reduce/2048", Candidates: "4567"}:     {Ranking: []string{"2pass-wg64-g64"}, Timing: tune.TimingWall, Created: created},
		{Device: "another adapter", Key: "matmul/64x64x32", Candidates: "0123"}:                         {Ranking: []string{"naive-8x8"}, Timing: tune.TimingGPU, Created: created},
	}
	src := filepath.Join(dir, "src.db")
	newCache(t, src, entries)

	out := filepath.Join(dir, "fleet.jsonl")
	code, stdout, stderr := runCmd(t, "tune", "export", "-cache", src, "-o", out)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "3 entries from "+src)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	t.Log("\n" + string(b))
	assert.Equal(t, 3, strings.Count(string(b), `{"version":3,"device":`))

	dst := filepath.Join(dir, "dst.db")
	code, stdout, stderr = runCmd(t, "tune", "import", "-cache", dst, "-i", out)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Contains(t, stdout, "imported 3 entries into "+dst)
	assert.Equal(t, entries, readCache(t, dst))

	// To standard output, one adapter only; from standard input.
	code, stdout, stderr = runCmd(t, "tune", "export", "-cache", src, "-device", "another adapter")
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, 1, strings.Count(stdout, "\n"))
	stdin = strings.NewReader(stdout)
	defer func() { stdin = os.Stdin }()
	one := filepath.Join(dir, "one.db")
	code, _, stderr = runCmd(t, "tune", "import", "-cache", one)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Len(t, readCache(t, one), 1)
}

// TestTuneImportRefuses: a line of another cache version, or a malformed
// one, makes import store nothing and name the line.
func TestTuneImportRefuses(t *testing.T) {
	good := `{"version":2,"device":"d","key":"k","candidates":"c","ranking":["a"],"timing":"gpu","created":"2026-01-02T03:04:05Z"}`
	for _, tc := range []struct{ name, input, want string }{
		{"another version", good + "\n" + strings.Replace(good, `"version":2`, `"version":4`, 1), "line 2: export version 4, want 3"},
		{"malformed", good + "\n" + good + "\n{\"version\":2,", "line 3: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.jsonl")
			require.NoError(t, os.WriteFile(in, []byte(tc.input), 0o644))
			dst := filepath.Join(dir, "dst.db")
			code, _, stderr := runCmd(t, "tune", "import", "-cache", dst, "-i", in)
			assert.Equal(t, 1, code)
			assert.Contains(t, stderr, "streamgate tune import: tune: import: "+tc.want)
			assert.Empty(t, readCache(t, dst), "nothing imported")
		})
	}
}

func TestTuneUsage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{name: "listed", args: []string{"help"}, code: 0, out: "  tune export "},
		{name: "help tune import", args: []string{"help", "tune", "import"}, code: 0, out: "usage: streamgate tune import"},
		{name: "export -cache-url", args: []string{"help", "tune", "export"}, code: 0, out: "  -cache-url string\n    \ta Redis server that shares tune results with a fleet (as warmup's -cache-url): export its entries"},
		{name: "import -cache-url", args: []string{"help", "tune", "import"}, code: 0, out: "  -cache-url string\n    \ta Redis server that shares tune results with a fleet (as warmup's -cache-url): store the entries there"},
		{name: "no cache at all", args: []string{"tune", "import", "-cache", ""}, code: 2, err: "streamgate tune import: -cache \"\" and no -cache-url: nowhere to import into\n"},
		{name: "nothing to export", args: []string{"tune", "export", "-cache", ""}, code: 2, err: "streamgate tune export: -cache \"\" and no -cache-url: nothing to export\n"},
		{name: "no subcommand", args: []string{"tune"}, code: 2, err: "streamgate tune: missing subcommand: export or import"},
		{name: "unknown subcommand", args: []string{"tune", "bogus"}, code: 2, err: "streamgate tune: unknown subcommand \"bogus\": want export or import\nsee 'streamgate help tune'\n"},
		{name: "no cache file", args: []string{"tune", "export", "-cache", "/nonexistent/tune.db"}, code: 1, err: "no tune cache at /nonexistent/tune.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tc.args...)
			assert.Equal(t, tc.code, code, "run(%q) exit status; stderr:\n%s", tc.args, errOut)
			assert.Contains(t, out, tc.out)
			assert.Contains(t, errOut, tc.err)
		})
	}
}

// TestTuneImportNotACache: import into a file that is not a tune cache
// fails and leaves the file alone.
func TestTuneImportNotACache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(path, []byte("x"), 0o644))
	code, _, stderr := runCmd(t, "tune", "import", "-cache", path, "-i", os.DevNull)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "streamgate tune import: -cache "+path+": not a streamgate tune cache: not an SQLite database (1 bytes); left untouched: give another -cache, move it aside (mv "+path+" "+path+".bad), or run with -cache ''\n")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "x", string(b))
}
