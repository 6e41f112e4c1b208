package tune_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
)

func entries(t *testing.T, c tune.Cache) map[tune.CacheKey]tune.Entry {
	t.Helper()
	m := map[tune.CacheKey]tune.Entry{}
	require.NoError(t, c.Range(func(k tune.CacheKey, e tune.Entry) bool { m[k] = e; return true }))
	return m
}

func TestExportImport(t *testing.T) {
	src, err := tune.OpenCache(filepath.Join(t.TempDir(), "src.db"))
	require.NoError(t, err)
	defer src.Close()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	stored := map[tune.CacheKey]tune.Entry{
		{Device: "lavapipe|vulkan", Key: "matmul/64", Candidates: "aa"}: {Ranking: []string{"tiled-8", "naive"}, Timing: tune.TimingGPU, Created: created},
		{Device: "lavapipe|vulkan", Key: "A|op", Candidates: "bb"}:      {Ranking: []string{"x"}, Timing: tune.TimingWall, Created: created},
		{Device: "other gpu", Key: "matmul/64", Candidates: "aa"}:       {Ranking: []string{"naive", "tiled-8"}, Timing: tune.TimingGPU, Created: created},
	}
	for k, e := range stored {
		require.NoError(t, src.Store(k, e))
	}

	var all bytes.Buffer
	n, err := tune.Export(&all, src, "")
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	t.Log("\n" + all.String())
	assert.Equal(t, 3, strings.Count(all.String(), "\n"), "one entry a line")
	assert.Equal(t, 3, strings.Count(all.String(), `"version":2`))

	dst, err := tune.OpenCache(filepath.Join(t.TempDir(), "dst.db"))
	require.NoError(t, err)
	defer dst.Close()
	n, err = tune.Import(bytes.NewReader(all.Bytes()), dst)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, stored, entries(t, dst), "every entry arrives as it was")

	// One adapter's entries only.
	var one bytes.Buffer
	n, err = tune.Export(&one, src, "other gpu")
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	mem := tune.NewMemoryCache()
	_, err = tune.Import(&one, mem)
	require.NoError(t, err)
	assert.Len(t, entries(t, mem), 1)
}

func TestImportRefuses(t *testing.T) {
	good := `{"version":2,"device":"d","key":"k","candidates":"c","ranking":["a","b"],"timing":"gpu","created":"2026-01-02T03:04:05Z"}`
	for _, tc := range []struct {
		name, input, want string
	}{
		{"another version", good + "\n\n" + strings.Replace(good, `"version":2`, `"version":1`, 1) + "\n", "line 3: cache version 1, want 2"},
		{"not JSON", good + "\nnot json\n", "line 2: not a JSON object"},
		{"no version", `{"device":"d"}`, "line 1: no version"},
		{"unknown field", strings.Replace(good, `"key"`, `"extra":1,"key"`, 1), `line 1: json: unknown field "extra"`},
		{"empty ranking", strings.Replace(good, `["a","b"]`, `[]`, 1), "line 1: empty ranking"},
		{"duplicate name", strings.Replace(good, `["a","b"]`, `["a","a"]`, 1), `line 1: ranking names "a" twice`},
		{"bad timing", strings.Replace(good, `"gpu"`, `"sundial"`, 1), "line 1: "},
		{"no device", strings.Replace(good, `"device":"d"`, `"device":""`, 1), "line 1: no device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tune.NewMemoryCache()
			n, err := tune.Import(strings.NewReader(tc.input), c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Zero(t, n)
			assert.Empty(t, entries(t, c), "a refused import stores nothing")
		})
	}
}
