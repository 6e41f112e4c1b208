//go:build !js

package sqlitecache_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/internal/low/leaktest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

// TestForeignFileRefusedUntouched: a file that is not a streamgate tune
// cache, whatever its size, is refused and left byte for byte as it was.
func TestForeignFileRefusedUntouched(t *testing.T) {
	otherApp := func(path string) {
		db, err := sql.Open("sqlite", path)
		require.NoError(t, err)
		defer db.Close()
		_, err = db.Exec(`CREATE TABLE users (name TEXT)`)
		require.NoError(t, err)
	}
	newer := func(path string) {
		db, err := sql.Open("sqlite", path)
		require.NoError(t, err)
		defer db.Close()
		_, err = db.Exec(fmt.Sprintf(`PRAGMA application_id = %d; PRAGMA user_version = 99; CREATE TABLE entries (x)`, 0x53477475))
		require.NoError(t, err)
	}
	for _, tc := range []struct {
		name     string
		content  string       // written as the file, or
		make     func(string) // makes the file
		notCache bool         // the error wraps ErrNotCache
	}{
		{name: "1 byte", content: "x", notCache: true},
		{name: "48 bytes", content: "this is not a database, just 48 bytes of junk...", notCache: true},
		{name: "SQLite magic then junk", content: "SQLite format 3\x00" + strings.Repeat("junk", 30), notCache: false},
		{name: "a text file of 5000 bytes", content: strings.Repeat("some notes\n", 455), notCache: true},
		{name: "another application's database", make: otherApp, notCache: true},
		{name: "a newer cache version", make: newer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tune.db")
			if tc.make != nil {
				tc.make(path)
			} else {
				require.NoError(t, os.WriteFile(path, []byte(tc.content), 0o644))
			}
			before, err := os.ReadFile(path)
			require.NoError(t, err)
			cache, err := sqlitecache.Open(path)
			require.Error(t, err)
			assert.Nil(t, cache, "nil cache with an error")
			t.Log(err)
			assert.Contains(t, err.Error(), path, "the warning names the file")
			if tc.notCache {
				assert.ErrorIs(t, err, sqlitecache.ErrNotCache)
			}
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, before, after, "the file is left alone")
		})
	}
}

// TestOpenEmptyFileIsNew: a 0-byte file is a new cache; a version-1
// streamgate cache is upgraded (its entries are misses anyway).
func TestOpenEmptyFileIsNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tune.db")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, c.Store(k, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingWall}))
	require.NoError(t, c.Close())
	c, err = sqlitecache.Open(path)
	require.NoError(t, err, "reopens its own file")
	e, ok := c.Load(k)
	assert.True(t, ok)
	assert.Equal(t, []string{"a"}, e.Ranking)
	assert.Equal(t, tune.TimingWall, e.Timing)
	require.NoError(t, c.Close())

	v1 := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", v1)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE tune (key TEXT PRIMARY KEY, value TEXT NOT NULL, created INTEGER NOT NULL);
		INSERT INTO tune VALUES ('v1|dev|k|abc', '{"Ranking":["a"],"Timing":"gpu"}', 0)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	c, err = sqlitecache.Open(v1)
	require.NoError(t, err, "a version-1 streamgate cache is upgraded")
	require.NoError(t, c.Close())
}

func TestUnwritableCacheDir(t *testing.T) {
	// A directory that cannot be created: its parent is a file. (chmod
	// would not stop root, which CI runs as.)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "file"), nil, 0o644))
	cache, err := sqlitecache.Open(filepath.Join(dir, "file", "sub", "tune.db"))
	require.Error(t, err)
	assert.Nil(t, cache, "no usable value with an error: the caller chooses memory")
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		require.NoError(t, os.Mkdir(ro, 0o500))
		cache, err := sqlitecache.Open(filepath.Join(ro, "tune.db"))
		assert.Error(t, err, "read-only directory")
		assert.Nil(t, cache)
	}
}

// The 4-process test: children of this test binary each open one fresh
// cache file and store into it, all at once; again on another fresh file
// each round, since the race is at a file's first opens.
const (
	procs        = 4
	opensPerProc = 50
	roundGap     = 500 * time.Millisecond // between the rounds' common start times
)

// opensRounds is how many fresh files the 4-process test uses.
func opensRounds() int {
	if testing.Short() {
		return 2
	}
	return 8
}

func TestMain(m *testing.M) {
	if path := os.Getenv("STREAMGATE_TUNE_OPENS"); path != "" {
		os.Exit(opensChild(path))
	}
	if path := os.Getenv("STREAMGATE_KERNEL_WRITER"); path != "" {
		os.Exit(kernelWriterChild(path))
	}
	os.Exit(leaktest.Run(m.Run))
}

type opensReport struct {
	Opens, Fallbacks, StoreErrors int
	Retries                       int64
	Errors                        []string
	Elapsed                       time.Duration
}

// TestConcurrentOpensLoseNothing: 4 processes, started together, each open
// one fresh file 50 times and store an entry after each open, in each of
// several rounds (a fresh file a round). No open fails for a transient lock
// (none would fall back to memory), and every entry is in its file
// afterwards.
func TestConcurrentOpensLoseNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	rounds := opensRounds()
	start := time.Now().Add(2 * time.Second) // all children are running by then
	cmds := make([]*exec.Cmd, procs)
	outs := make([]strings.Builder, procs)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(),
			"STREAMGATE_TUNE_OPENS="+dir,
			"STREAMGATE_TUNE_OPENS_ROUNDS="+strconv.Itoa(rounds),
			"STREAMGATE_TUNE_OPENS_ID="+strconv.Itoa(i),
			"STREAMGATE_TUNE_OPENS_START="+strconv.FormatInt(start.UnixNano(), 10))
		cmd.Stdout = &outs[i]
		cmd.Stderr = os.Stderr
		require.NoError(t, cmd.Start())
		cmds[i] = cmd
	}
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for i, cmd := range cmds {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = cmd.Wait() }()
	}
	wg.Wait()
	var total opensReport
	for i := range cmds {
		require.NoError(t, errs[i], "child %d", i)
		var rep opensReport
		require.NoError(t, json.Unmarshal([]byte(outs[i].String()), &rep), "child %d said %q", i, outs[i].String())
		t.Logf("process %d: %d opens, %d fell back to memory, %d store errors, %d lock retries at open, %v", i, rep.Opens, rep.Fallbacks, rep.StoreErrors, rep.Retries, rep.Elapsed.Round(time.Millisecond))
		for _, e := range rep.Errors {
			t.Logf("process %d: %s", i, e)
		}
		total.Opens += rep.Opens
		total.Fallbacks += rep.Fallbacks
		total.StoreErrors += rep.StoreErrors
		total.Retries += rep.Retries
	}
	missing, present := 0, 0
	for r := range rounds {
		c, err := sqlitecache.Open(opensPath(dir, r))
		require.NoError(t, err)
		keys := map[tune.CacheKey]bool{}
		require.NoError(t, c.Range(func(k tune.CacheKey, e tune.Entry) bool { keys[k] = true; return true }))
		require.NoError(t, c.Close())
		for p := range procs {
			for j := range opensPerProc {
				if !keys[opensKey(p, j)] {
					missing++
				}
			}
		}
		present += len(keys)
	}
	want := rounds * procs * opensPerProc
	t.Logf("%d processes × %d opens+stores on one fresh file, %d rounds: %d opens, %d fell back to memory, %d store errors, %d lock retries at open; %d of %d entries present",
		procs, opensPerProc, rounds, total.Opens, total.Fallbacks, total.StoreErrors, total.Retries, present, want)
	assert.Equal(t, want, total.Opens)
	assert.Zero(t, total.Fallbacks, "no open fell back to memory")
	assert.Zero(t, total.StoreErrors)
	assert.Zero(t, missing, "every entry is present")
	assert.Equal(t, want, present)
}

func opensPath(dir string, round int) string {
	return filepath.Join(dir, fmt.Sprintf("tune-%d.db", round))
}

func opensKey(proc, i int) tune.CacheKey {
	return tune.CacheKey{Device: fmt.Sprintf("proc-%d", proc), Key: fmt.Sprintf("op/%d", i), Candidates: "c"}
}

// opensChild is a child of TestConcurrentOpensLoseNothing.
func opensChild(dir string) int {
	id, _ := strconv.Atoi(os.Getenv("STREAMGATE_TUNE_OPENS_ID"))
	rounds, _ := strconv.Atoi(os.Getenv("STREAMGATE_TUNE_OPENS_ROUNDS"))
	ns, _ := strconv.ParseInt(os.Getenv("STREAMGATE_TUNE_OPENS_START"), 10, 64)
	var rep opensReport
	t0 := time.Now()
	retries0 := sqlitecache.OpenRetries()
	for r := range rounds {
		time.Sleep(time.Until(time.Unix(0, ns).Add(time.Duration(r) * roundGap)))
		opens(&rep, opensPath(dir, r), id)
	}
	rep.Elapsed = time.Since(t0)
	rep.Retries = sqlitecache.OpenRetries() - retries0
	if err := json.NewEncoder(os.Stdout).Encode(rep); err != nil {
		return 1
	}
	return 0
}

// opens opens path opensPerProc times, storing an entry after each open.
func opens(rep *opensReport, path string, id int) {
	for i := range opensPerProc {
		rep.Opens++
		c, err := sqlitecache.Open(path)
		if err != nil {
			rep.Fallbacks++ // a caller would now tune on a memory cache
			rep.Errors = append(rep.Errors, err.Error())
			continue
		}
		if err := c.Store(opensKey(id, i), tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingWall, Created: time.Now()}); err != nil {
			rep.StoreErrors++
			rep.Errors = append(rep.Errors, err.Error())
		}
		if err := c.Close(); err != nil {
			rep.Errors = append(rep.Errors, "close: "+err.Error())
		}
	}
}
