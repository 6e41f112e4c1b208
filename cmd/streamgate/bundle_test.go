package main

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
	"github.com/streamgate/streamgate/wgpu"
)

// bundleFixture makes a tune cache file and a kernel cache directory
// with entries (opaque kernel bytes: the commands never read them).
func bundleFixture(t *testing.T, dir string) (cache, kernels string, entries map[tune.CacheKey]tune.Entry) {
	t.Helper()
	created := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	entries = map[tune.CacheKey]tune.Entry{
		{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"}: {Ranking: []string{"tiled-8", "naive-8x8"}, Timing: tune.TimingGPU, Created: created},
		{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "reduce/\xff", Candidates: "4567"}:     {Ranking: []string{"2pass-wg64-g64"}, Timing: tune.TimingWall, Created: created},
		{Device: "another adapter", Key: "matmul/64x64x32", Candidates: "0123"}:                         {Ranking: []string{"naive-8x8"}, Timing: tune.TimingGPU, Created: created},
	}
	cache, kernels = filepath.Join(dir, "src.db"), filepath.Join(dir, "kernels")
	newCache(t, cache, entries)
	kd, err := wgpu.OpenKernelDir(kernels)
	require.NoError(t, err)
	for _, s := range []string{"one", "two"} {
		require.NoError(t, kd.StoreKernel(context.Background(), sha256.Sum256([]byte(s)), []byte("entry "+s)))
	}
	return cache, kernels, entries
}

// TestBundleExportImportShow: a machine's caches bundled, shown, and
// imported into another's arrive as they were; a second import copies
// nothing, leaving what the caches hold.
func TestBundleExportImportShow(t *testing.T) {
	dir := t.TempDir()
	src, kernels, entries := bundleFixture(t, dir)
	out := filepath.Join(dir, "warm.bundle")
	code, stdout, stderr := runCmd(t, "bundle", "export", "-o", out, "-cache", src, "-kernels", kernels)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "streamgate bundle export: 3 tune entries (2 adapters) and 2 kernels, ")
	first, err := os.ReadFile(out)
	require.NoError(t, err)

	code, _, stderr = runCmd(t, "bundle", "export", "-o", out, "-cache", src, "-kernels", kernels)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	again, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, first, again, "the same caches, the same bundle")

	code, stdout, stderr = runCmd(t, "bundle", "show", out)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	t.Log("\n" + stdout)
	for _, s := range []string{"format version 1, made by streamgate ", "tune entries: 3, for 2 adapters",
		`  "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan"` + "\n", `    "matmul/64x64x32": tiled-8 of 2 (candidates "0123", gpu)`,
		`    "reduce/\xff": 2pass-wg64-g64 of 1`, "kernels: 2, 18 bytes"} {
		assert.Contains(t, stdout, s)
	}

	dst, dstKernels := filepath.Join(dir, "dst.db"), filepath.Join(dir, "dst-kernels")
	code, stdout, stderr = runCmd(t, "bundle", "import", "-cache", dst, "-kernels", dstKernels, out)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Equal(t, "imported 3 tune entries and 2 kernels from "+out+" into "+dst+" and "+dstKernels+" (0 and 0 there already)\n", stdout)
	assert.Equal(t, entries, readCache(t, dst))
	kd, err := wgpu.OpenKernelDir(dstKernels)
	require.NoError(t, err)
	e, ok := kd.LoadKernel(context.Background(), sha256.Sum256([]byte("two")))
	assert.True(t, ok)
	assert.Equal(t, "entry two", string(e))

	code, stdout, _ = runCmd(t, "bundle", "import", "-cache", dst, "-kernels", dstKernels, out)
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "imported 0 tune entries and 0 kernels from "+out+" into "+dst+" and "+dstKernels+" (3 and 2 there already)")

	// One adapter's tune entries, and the kernels alone into a cache.
	code, _, stderr = runCmd(t, "bundle", "export", "-o", out, "-cache", src, "-kernels", "", "-device", "another adapter")
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Contains(t, stderr, "1 tune entries (1 adapters) and 0 kernels")
}

// TestBundleImportRefuses: an empty, foreign, truncated, damaged or newer
// bundle makes import fail, say which, and touch no cache.
func TestBundleImportRefuses(t *testing.T) {
	dir := t.TempDir()
	src, kernels, _ := bundleFixture(t, dir)
	good := filepath.Join(dir, "good.bundle")
	code, _, stderr := runCmd(t, "bundle", "export", "-o", good, "-cache", src, "-kernels", kernels)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	changed := append([]byte(nil), data...)
	changed[len(changed)/2] ^= 1
	newer := append([]byte(nil), data...)
	newer[len("streamgate bundle\n")] = 2
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bundle: not a streamgate bundle: empty (0 bytes)"},
		{"a tune export", []byte(`{"version":3,"device":"d"}` + "\n"), `bundle: not a streamgate bundle: it begins "{\"version\":3,\"de"`},
		{"truncated", data[:len(data)-10], "bundle: damaged: truncated: "},
		{"a byte changed", changed, "bundle: damaged: checksum mismatch"},
		{"version 2", newer, "bundle: another format version: format version 2; this build reads version 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := t.TempDir()
			in := filepath.Join(d, "in.bundle")
			require.NoError(t, os.WriteFile(in, tc.data, 0o644))
			dst, dstKernels := filepath.Join(d, "dst.db"), filepath.Join(d, "kernels")
			code, stdout, stderr := runCmd(t, "bundle", "import", "-cache", dst, "-kernels", dstKernels, in)
			assert.Equal(t, 1, code)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, "streamgate bundle import: "+in+": "+tc.want), "stderr %q, want it to begin %q", stderr, tc.want)
			assert.NoFileExists(t, dst, "no cache touched")
			assert.NoDirExists(t, dstKernels)
			code, _, stderr = runCmd(t, "bundle", "show", in)
			assert.Equal(t, 1, code)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

func TestBundleUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{name: "listed", args: []string{"help"}, code: 0, out: "  bundle export "},
		{name: "help bundle import", args: []string{"help", "bundle", "import"}, code: 0, out: "usage: streamgate bundle import [flags] FILE"},
		{name: "bundle show -h", args: []string{"bundle", "show", "-h"}, code: 0, out: "usage: streamgate bundle show FILE"},
		{name: "bundle -h", args: []string{"bundle", "-h"}, code: 0, out: "  export   " + bundleExportSummary},
		{name: "no subcommand", args: []string{"bundle"}, code: 2, err: "streamgate bundle: missing subcommand: export or import or show"},
		{name: "no -o", args: []string{"bundle", "export"}, code: 2, err: "streamgate bundle export: no -o: give the bundle file to write\nsee 'streamgate help bundle export'\n"},
		{name: "export takes no file", args: []string{"bundle", "export", "-o", "x", "y"}, code: 2, err: "streamgate bundle export: unexpected arguments: y"},
		{name: "no file", args: []string{"bundle", "import"}, code: 2, err: "streamgate bundle import: no bundle FILE\n"},
		{name: "two files", args: []string{"bundle", "show", "a", "b"}, code: 2, err: "streamgate bundle show: one bundle FILE, not 2: a b\n"},
		{name: "nowhere", args: []string{"bundle", "import", "-cache", "", "-kernels", "", "f"}, code: 2, err: `streamgate bundle import: -cache "" and -kernels "": nowhere to import into`},
		{name: "no cache file", args: []string{"bundle", "export", "-o", filepath.Join(dir, "x"), "-cache", "/nonexistent/tune.db"}, code: 1, err: "streamgate bundle export: no tune cache at /nonexistent/tune.db\n"},
		{name: "no kernels dir", args: []string{"bundle", "export", "-o", filepath.Join(dir, "x"), "-cache", "", "-kernels", "/nonexistent/k"}, code: 1, err: "no kernel cache directory at /nonexistent/k"},
		{name: "nothing to bundle", args: []string{"bundle", "export", "-o", filepath.Join(dir, "x"), "-cache", "", "-kernels", ""}, code: 1, err: "nothing to bundle"},
		{name: "empty caches", args: []string{"bundle", "export", "-o", filepath.Join(dir, "x"), "-cache", "", "-kernels", dir}, code: 1, err: "the caches hold nothing to bundle; nothing written"},
		{name: "missing file", args: []string{"bundle", "show", "/nonexistent/b"}, code: 1, err: "streamgate bundle show: open /nonexistent/b: no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, tc.args...)
			assert.Equal(t, tc.code, code, "run(%q) exit status; stderr:\n%s", tc.args, errOut)
			assert.Contains(t, out, tc.out)
			assert.Contains(t, errOut, tc.err)
		})
	}
	assert.NoFileExists(t, filepath.Join(dir, "x"), "a failed export writes nothing")
}

// TestBundleExportTuneCacheKernels: the kernels a tune cache file keeps
// (those a fleet shared through Redis) are bundled with the directory's,
// each key once.
func TestBundleExportTuneCacheKernels(t *testing.T) {
	dir := t.TempDir()
	src, kernels, _ := bundleFixture(t, dir)
	c, err := sqlitecache.Open(src)
	require.NoError(t, err)
	for _, s := range []string{"two", "three"} { // "two" is in the directory too
		require.NoError(t, c.StoreKernel(context.Background(), sha256.Sum256([]byte(s)), []byte("entry "+s)))
	}
	require.NoError(t, c.Close())
	out := filepath.Join(dir, "warm.bundle")
	code, _, stderr := runCmd(t, "bundle", "export", "-o", out, "-cache", src, "-kernels", kernels)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Contains(t, stderr, "3 tune entries (2 adapters) and 3 kernels")
	code, _, stderr = runCmd(t, "bundle", "export", "-o", out, "-cache", src, "-kernels", "")
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Contains(t, stderr, "3 tune entries (2 adapters) and 2 kernels", "the file's alone")
}
