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
	src, err := openCache(t, filepath.Join(t.TempDir(), "src.db"))
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
	assert.Equal(t, 3, strings.Count(all.String(), `"version":3`))

	dst, err := openCache(t, filepath.Join(t.TempDir(), "dst.db"))
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
		{"another version", good + "\n\n" + strings.Replace(good, `"version":2`, `"version":1`, 1) + "\n", "line 3: export version 1, want 3"},
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

// TestExportKeepsEveryByte: key parts and candidate names that are
// not valid UTF-8 survive Export and Import through an SQLite cache, and
// two devices that differ only in such bytes keep two entries.
func TestExportKeepsEveryByte(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	stored := map[tune.CacheKey]tune.Entry{
		{Device: "gpu\xff", Key: "k", Candidates: "c"}:            {Ranking: []string{"a"}, Timing: tune.TimingGPU, Created: created},
		{Device: "gpu\xfe", Key: "k", Candidates: "c"}:            {Ranking: []string{"a"}, Timing: tune.TimingGPU, Created: created},
		{Device: "gpu\uFFFD", Key: "k", Candidates: "c"}:          {Ranking: []string{"a"}, Timing: tune.TimingGPU, Created: created},
		{Device: "d", Key: "op/\x80\x00<&>", Candidates: "\xc3("}: {Ranking: []string{"n\xff", "n\xfe", "ok"}, Timing: tune.TimingWall, Created: created},
		{Device: "d", Key: `{"base64":"eA=="}`, Candidates: "c"}:  {Ranking: []string{`{"base64":"eA=="}`}, Timing: tune.TimingWall, Created: created},
	}
	src, err := openCache(t, filepath.Join(t.TempDir(), "src.db"))
	require.NoError(t, err)
	defer src.Close()
	for k, e := range stored {
		require.NoError(t, src.Store(k, e))
	}
	require.Equal(t, stored, entries(t, src), "the persistent cache keeps every byte")
	var out bytes.Buffer
	n, err := tune.Export(&out, src, "")
	require.NoError(t, err)
	assert.Equal(t, len(stored), n)
	t.Log("\n" + out.String())
	assert.Contains(t, out.String(), `"device":{"base64":"Z3B1/w=="}`, "bytes that are not UTF-8 as base64")
	assert.Contains(t, out.String(), `"device":"gpu�"`, "U+FFFD itself as a string")
	dst, err := openCache(t, filepath.Join(t.TempDir(), "dst.db"))
	require.NoError(t, err)
	defer dst.Close()
	n, err = tune.Import(&out, dst)
	require.NoError(t, err)
	assert.Equal(t, len(stored), n)
	assert.Equal(t, stored, entries(t, dst), "every byte of every part arrives")

	// A version-2 line (all parts strings) still imports.
	mem := tune.NewMemoryCache()
	_, err = tune.Import(strings.NewReader(`{"version":2,"device":"d","key":"k","candidates":"c","ranking":["a"],"timing":"gpu","created":"2026-01-02T03:04:05Z"}`), mem)
	require.NoError(t, err)
	assert.Len(t, entries(t, mem), 1)
}

// TestExportRefusesWhatImportWould: an entry Import would refuse
// makes Export write nothing and name it.
func TestExportRefusesWhatImportWould(t *testing.T) {
	for _, tc := range []struct {
		name string
		k    tune.CacheKey
		e    tune.Entry
		want string
	}{
		{"empty device", tune.CacheKey{Key: "k", Candidates: "c"}, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingGPU}, "no device"},
		{"empty ranking", tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}, tune.Entry{Timing: tune.TimingGPU}, "empty ranking"},
		{"a name twice", tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}, tune.Entry{Ranking: []string{"a", "a"}, Timing: tune.TimingGPU}, `ranking names "a" twice`},
		{"no timing", tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}, tune.Entry{Ranking: []string{"a"}}, "timing"},
		{"over-long line", tune.CacheKey{Device: "d", Key: strings.Repeat("k", tune.MaxLine), Candidates: "c"}, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingGPU}, "over the 1048576 that import reads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tune.NewMemoryCache()
			require.NoError(t, c.Store(tune.CacheKey{Device: "a", Key: "good", Candidates: "c"}, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingGPU}))
			require.NoError(t, c.Store(tc.k, tc.e))
			var out bytes.Buffer
			n, err := tune.Export(&out, c, "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "tune: export: entry ")
			assert.Zero(t, n)
			assert.Zero(t, out.Len(), "nothing written")
		})
	}
}

// TestImportLongLineNamesIt: a line over MaxLine stores nothing and
// its error names the line.
func TestImportLongLineNamesIt(t *testing.T) {
	good := `{"version":3,"device":"d","key":"k","candidates":"c","ranking":["a"],"timing":"gpu","created":"2026-01-02T03:04:05Z"}`
	long := `{"version":3,"device":"d","key":"` + strings.Repeat("k", tune.MaxLine) + `","candidates":"c","ranking":["a"],"timing":"gpu","created":"2026-01-02T03:04:05Z"}`
	c := tune.NewMemoryCache()
	n, err := tune.Import(strings.NewReader(good+"\n\n"+good+"\n"+long+"\n"+good+"\n"), c)
	require.Error(t, err)
	t.Log(err)
	assert.Contains(t, err.Error(), "tune: import: line 4: longer than 1048576 bytes")
	assert.Zero(t, n)
	assert.Empty(t, entries(t, c))
	// Exactly at the limit, newline included, it is read; a last line
	// without a newline too.
	pad := tune.MaxLine - len(good) - 1
	atLimit := strings.Replace(good, `"key":"k"`, `"key":"k`+strings.Repeat("x", pad)+`"`, 1)
	require.Len(t, atLimit+"\n", tune.MaxLine)
	n, err = tune.Import(strings.NewReader(atLimit+"\n"+good), c)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
}
