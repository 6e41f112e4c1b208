//go:build !js

package sqlitecache_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

var shipped = tune.CacheKey{Device: "fleet-gpu", Key: "matmul/256", Candidates: "c1"}

// shipCache writes a cache holding the shipped entry and closes it, the
// way a build bakes one into an image.
func shipCache(t *testing.T, path string) {
	t.Helper()
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	require.NoError(t, c.Store(shipped, tune.Entry{Ranking: []string{"tiled", "naive"}, Timing: tune.TimingGPU, Created: time.Unix(1e9, 0)}))
	require.NoError(t, c.Close())
	_, err = os.Stat(path + "-wal")
	require.ErrorIs(t, err, os.ErrNotExist, "a cleanly closed cache has no log beside it")
}

func digest(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = sha256.Sum256(b)
	}
	return out
}

// TestReadOnlyCacheOpensForReading: a valid cache in a read-only file or a
// read-only directory (chmod) opens for reading; stores go to memory with
// one warning, and the directory is left byte for byte as it was. As root,
// whom chmod does not stop, the missing write bits still make the cache
// read-only: the test means the same as root and as a user.
func TestReadOnlyCacheOpensForReading(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fileMode  os.FileMode
		dirMode   os.FileMode
		wantWrite bool
	}{
		{name: "read-only file", fileMode: 0o444, dirMode: 0o755},
		{name: "read-only directory", fileMode: 0o644, dirMode: 0o555},
		{name: "both", fileMode: 0o444, dirMode: 0o555},
		{name: "writable", fileMode: 0o644, dirMode: 0o755, wantWrite: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "image")
			require.NoError(t, os.Mkdir(dir, 0o755))
			path := filepath.Join(dir, "tune.db")
			shipCache(t, path)
			require.NoError(t, os.Chmod(path, tc.fileMode))
			require.NoError(t, os.Chmod(dir, tc.dirMode))
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			before := digest(t, dir)

			var logs bytes.Buffer
			c, err := sqlitecache.Open(path, sqlitecache.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			require.NoError(t, err, "a shipped cache opens")
			assert.Equal(t, !tc.wantWrite, c.ReadOnly())
			e, ok := c.Load(shipped)
			require.True(t, ok, "the shipped entry is read")
			assert.Equal(t, []string{"tiled", "naive"}, e.Ranking)

			// A tuner decides the shipped key from the file, and tunes
			// and keeps a new key (twice: one warning).
			r := registry.New()
			r.SetProcessMode(registry.ProcessCompileAndAutotune)
			svc := streamgatetest.NewService()
			cl := client.New(svc, client.WithRegistry(r))
			tu := tune.New(cl, tune.WithCache(c), tune.WithDevice("fleet-gpu"))
			for _, key := range []string{"new/1", "new/2"} {
				_, res, err := tu.Pick(context.Background(), tune.Op{Key: key, Pure: true, Candidates: []tune.Candidate{nop("a"), nop("b")}})
				require.NoError(t, err)
				assert.False(t, res.Cached)
			}
			n := 0
			require.NoError(t, c.Range(func(tune.CacheKey, tune.Entry) bool { n++; return true }))
			assert.Equal(t, 3, n, "Range sees the file's entry and the two stored")
			require.NoError(t, c.Delete(shipped))
			_, ok = c.Load(shipped)
			assert.False(t, ok, "deleted")
			require.NoError(t, c.Close())

			warnings := strings.Count(logs.String(), "kept in memory")
			after := digest(t, dir)
			if tc.wantWrite {
				assert.Zero(t, warnings)
				return
			}
			t.Log(strings.TrimSpace(logs.String()))
			assert.Equal(t, 1, warnings, "one warning, not one per store")
			assert.Equal(t, before, after, "the file and its directory are untouched: no log, no -shm")

			c, err = sqlitecache.Open(path)
			require.NoError(t, err)
			defer c.Close()
			_, ok = c.Load(tune.CacheKey{Device: "fleet-gpu", Key: "new/1"})
			assert.False(t, ok, "the stores lived in memory")
			_, ok = c.Load(shipped)
			assert.True(t, ok, "the delete lived in memory")
		})
	}
}

// TestReadOnlyFileNeedingWritesRefused: a read-only file that would need
// writing to be a cache (empty, or of an older version) is an error, and is
// left alone.
func TestReadOnlyFileNeedingWritesRefused(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o444))
	c, err := sqlitecache.Open(empty)
	if err == nil {
		c.Close()
		if os.Geteuid() != 0 {
			t.Fatal("Open of a read-only empty file succeeded")
		}
		// As root an empty file is a new cache: SQLite writes it despite
		// its mode. (A non-empty one is never written; see above.)
	} else {
		t.Log(err)
	}
}

func nop(name string) tune.Candidate {
	return tune.Candidate{Name: name, Run: func(ctx context.Context, c *client.Client, _ []gpu.Buffer) error { return nil }}
}
