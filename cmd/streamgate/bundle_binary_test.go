//go:build cgo && unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/wgpu"
)

// TestBundleStartsWarm is the point of a bundle: with every cache empty
// (a new tune cache file, an empty kernel cache directory, an empty user
// cache directory, where the lowering sandbox keeps its compilation
// cache) and the bundle an earlier run's caches made, generate tunes
// nothing and starts no lowering sandbox, and generates the reference's
// tokens. The built command runs in fresh processes: the kernel cache
// and the sandbox are once a process.
func TestBundleStartsWarm(t *testing.T) {
	needAdapter(t)
	bin := buildStreamgate(t)
	dir := t.TempDir()
	caches := func(name string) (env []string, cache, xdg string) {
		root := filepath.Join(dir, name)
		xdg = filepath.Join(root, "xdg")
		require.NoError(t, os.MkdirAll(xdg, 0o700))
		return []string{"XDG_CACHE_HOME=" + xdg, wgpu.KernelCacheEnv + "=" + filepath.Join(root, "kernels")},
			filepath.Join(root, "tune.db"), xdg
	}
	generate := func(env []string, args ...string) generateReport {
		t.Helper()
		args = append(append(append([]string(nil), smallGenerate...), "-json", "-cold=false", "-restart=false", "-out", ""), args...)
		code, stdout, stderr := runBinary(t, bin, dir, env, args...)
		require.Equal(t, 0, code, "streamgate %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), stdout, stderr)
		var rep generateReport
		require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
		return rep
	}

	// The machine that made the bundle: it tunes and lowers everything.
	env1, cache1, xdg1 := caches("ci")
	first := generate(env1, "-cache", cache1)
	require.Equal(t, first.Keys, first.TunedKeys)
	require.True(t, first.TokensMatchReference)
	require.DirExists(t, filepath.Join(xdg1, "streamgate", "wazero"), "the sandbox started and kept its compilation cache in the user cache directory")
	out := filepath.Join(dir, "warm.bundle")
	code, stdout, stderr := runBinary(t, bin, dir, env1, "bundle", "export", "-o", out, "-cache", cache1)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	t.Log(stderr)

	// A machine whose caches are all empty, with the bundle.
	env2, cache2, xdg2 := caches("fresh")
	rep := generate(env2, "-cache", cache2, "-tokens", "2", "-bundle", out)
	assert.Zero(t, rep.TunedKeys, "tuned nothing")
	assert.Equal(t, rep.Keys, rep.CacheHits, "every key from the bundle")
	assert.Zero(t, rep.MeasurementLaunches)
	assert.Zero(t, rep.LoweringStarts, "no lowering sandbox started")
	assert.Equal(t, int64(1), first.LoweringStarts, "where the first run started one")
	assert.True(t, rep.TokensMatchReference)
	assert.Equal(t, first.Winners, rep.Winners, "the bundle's winners")
	assert.NoDirExists(t, filepath.Join(xdg2, "streamgate", "wazero"), "no lowering sandbox started: it would have made its compilation cache")
	entries, err := os.ReadDir(filepath.Join(dir, "fresh", "kernels"))
	if err == nil {
		assert.Empty(t, entries, "nothing lowered, so nothing stored in the kernel cache")
	}
	assert.Empty(t, readCache(t, cache2), "nothing tuned, so nothing stored in the tune cache")

	// The text says the bundle is there.
	code, stdout, stderr = runBinary(t, bin, dir, env2, append(append([]string(nil), smallGenerate...), "-cold=false", "-restart=false", "-out", "", "-cache", cache2, "-tokens", "2", "-bundle", out)...)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Contains(t, stdout, "bundle: "+out+" (14 tune entries, ")

	// A damaged bundle is a usage error naming it, before any work.
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	b[len(b)/2] ^= 1
	bad := filepath.Join(dir, "bad.bundle")
	require.NoError(t, os.WriteFile(bad, b, 0o644))
	code, _, stderr = runBinary(t, bin, dir, env2, "warmup", "-cache", "", "-bundle", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "streamgate warmup: -bundle "+bad+": bundle: damaged: checksum mismatch")
}
