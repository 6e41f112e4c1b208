//go:build !js

package sqlitecache_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/sqlitecache"
)

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

func kernelKey(s string) [32]byte {
	var k [32]byte
	copy(k[:], s)
	return k
}

// rangeKernels returns what RangeKernels lists, in its order.
func rangeKernels(t *testing.T, c *sqlitecache.Cache) (keys [][32]byte, entries [][]byte) {
	t.Helper()
	require.NoError(t, c.RangeKernels(func(k [32]byte, e []byte) bool {
		keys = append(keys, k)
		entries = append(entries, e)
		return true
	}))
	return keys, entries
}

// TestKernelsSurviveReopen: kernel entries are in the file: a cache
// opened on it later loads them, and RangeKernels lists them in key order
// and stops when told.
func TestKernelsSurviveReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tune.db")
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	for _, s := range []string{"c", "a", "b"} {
		require.NoError(t, c.StoreKernel(ctx, kernelKey(s), []byte("entry "+s)))
	}
	require.NoError(t, c.Close())
	c, err = sqlitecache.Open(path)
	require.NoError(t, err)
	defer c.Close()
	e, ok := c.LoadKernel(ctx, kernelKey("b"))
	require.True(t, ok)
	assert.Equal(t, "entry b", string(e))
	keys, entries := rangeKernels(t, c)
	assert.Equal(t, [][32]byte{kernelKey("a"), kernelKey("b"), kernelKey("c")}, keys)
	assert.Equal(t, [][]byte{[]byte("entry a"), []byte("entry b"), []byte("entry c")}, entries)
	n := 0
	require.NoError(t, c.RangeKernels(func([32]byte, []byte) bool { n++; return false }))
	assert.Equal(t, 1, n, "RangeKernels stops when f returns false")
}

// writeV2 writes a cache file of version 2, the last without kernels,
// holding one tune entry, as that version wrote it.
func writeV2(t *testing.T, path string) (tune.CacheKey, tune.Entry) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE entries (
			device     TEXT NOT NULL,
			key        TEXT NOT NULL,
			candidates TEXT NOT NULL,
			value      TEXT NOT NULL,
			created    INTEGER NOT NULL,
			PRIMARY KEY (device, key, candidates)
		) WITHOUT ROWID;
		PRAGMA application_id = 1397191797;
		PRAGMA user_version = 2;
		INSERT INTO entries VALUES ('gpu', 'matmul/64', 'c1', '{"ranking":["tiled","naive"],"timing":"gpu","created":"2026-01-02T03:04:05Z"}', 0)`)
	require.NoError(t, err)
	return tune.CacheKey{Device: "gpu", Key: "matmul/64", Candidates: "c1"},
		tune.Entry{Ranking: []string{"tiled", "naive"}, Timing: tune.TimingGPU, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func fileVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	var v int
	require.NoError(t, db.QueryRow(`PRAGMA user_version`).Scan(&v))
	return v
}

// TestVersion2FileUpgradedKeepsEntries: a cache file of version 2 opens,
// keeps its tune entries, gains the kernels table, and is of this version
// from then on, with no warning (nothing is lost).
func TestVersion2FileUpgradedKeepsEntries(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tune.db")
	k, want := writeV2(t, path)
	var logs bytes.Buffer
	c, err := sqlitecache.Open(path, sqlitecache.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	require.NoError(t, err)
	e, ok := c.Load(k)
	require.True(t, ok, "the version-2 entry is kept")
	assert.Equal(t, want.Ranking, e.Ranking)
	assert.True(t, want.Created.Equal(e.Created))
	require.NoError(t, c.StoreKernel(ctx, kernelKey("k"), []byte("lowered")))
	require.NoError(t, c.Close())
	assert.Empty(t, logs.String(), "an upgrade that keeps every entry says nothing")
	assert.Equal(t, sqlitecache.Version, fileVersion(t, path))

	c, err = sqlitecache.Open(path)
	require.NoError(t, err)
	defer c.Close()
	_, ok = c.Load(k)
	assert.True(t, ok)
	got, ok := c.LoadKernel(ctx, kernelKey("k"))
	assert.True(t, ok)
	assert.Equal(t, "lowered", string(got))
}

// TestReadOnlyVersion2FileServesEntries: a shipped version-2 file that may
// not be written opens read-only as it is: its tune entries load, and
// kernels are kept in memory; the file is left byte for byte as it was.
func TestReadOnlyVersion2FileServesEntries(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "tune.db")
	k, want := writeV2(t, path)
	require.NoError(t, os.Chmod(path, 0o444))
	before := digest(t, dir)
	c, err := sqlitecache.Open(path, sqlitecache.WithLogger(quiet()))
	require.NoError(t, err)
	assert.True(t, c.ReadOnly())
	e, ok := c.Load(k)
	require.True(t, ok)
	assert.Equal(t, want.Ranking, e.Ranking)
	_, ok = c.LoadKernel(ctx, kernelKey("k"))
	assert.False(t, ok)
	require.NoError(t, c.StoreKernel(ctx, kernelKey("k"), []byte("in memory")))
	got, ok := c.LoadKernel(ctx, kernelKey("k"))
	require.True(t, ok)
	assert.Equal(t, "in memory", string(got))
	keys, _ := rangeKernels(t, c)
	assert.Equal(t, [][32]byte{kernelKey("k")}, keys)
	require.NoError(t, c.Close())
	assert.Equal(t, before, digest(t, dir), "the file is untouched")
	assert.Equal(t, 2, fileVersion(t, path))
}

// TestReadOnlyFileKernelsOverlay: a shipped file's kernels load; stores go
// to memory, over the file's, and RangeKernels lists both, in key order.
func TestReadOnlyFileKernelsOverlay(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tune.db")
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	require.NoError(t, c.StoreKernel(ctx, kernelKey("b"), []byte("shipped b")))
	require.NoError(t, c.StoreKernel(ctx, kernelKey("d"), []byte("shipped d")))
	require.NoError(t, c.Close())
	require.NoError(t, os.Chmod(path, 0o444))
	c, err = sqlitecache.Open(path, sqlitecache.WithLogger(quiet()))
	require.NoError(t, err)
	defer c.Close()
	require.True(t, c.ReadOnly())
	require.NoError(t, c.StoreKernel(ctx, kernelKey("a"), []byte("mine a")))
	require.NoError(t, c.StoreKernel(ctx, kernelKey("d"), []byte("mine d")))
	keys, entries := rangeKernels(t, c)
	assert.Equal(t, [][32]byte{kernelKey("a"), kernelKey("b"), kernelKey("d")}, keys)
	assert.Equal(t, [][]byte{[]byte("mine a"), []byte("shipped b"), []byte("mine d")}, entries)
}

// Kernel writers: this process and a child of this test binary store
// kernels into one file at once.
const kernelWrites = 100

func kernelWriterKey(writer, i int) [32]byte { return kernelKey(fmt.Sprintf("w%d/%d", writer, i)) }

func kernelWriterEntry(writer, i int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("w%d/%d;", writer, i)), 100+i)
}

// kernelWriter stores kernelWrites entries of writer into the file at
// path, through a cache of its own.
func kernelWriter(path string, writer int) error {
	c, err := sqlitecache.Open(path)
	if err != nil {
		return err
	}
	defer c.Close()
	for i := range kernelWrites {
		if err := c.StoreKernel(context.Background(), kernelWriterKey(writer, i), kernelWriterEntry(writer, i)); err != nil {
			return err
		}
	}
	return nil
}

// kernelWriterChild is the child process of TestTwoWritersLoseNoKernel.
func kernelWriterChild(path string) int {
	writer, _ := strconv.Atoi(os.Getenv("STREAMGATE_KERNEL_WRITER_ID"))
	if err := kernelWriter(path, writer); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestTwoWritersLoseNoKernel: two processes and two connections of this
// one store kernels into one file at once; every entry is there
// afterwards, whole.
func TestTwoWritersLoseNoKernel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tune.db")
	const writers = 4 // 0 and 1: child processes; 2 and 3: this one
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w >= 2 {
				errs[w] = kernelWriter(path, w)
				return
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "STREAMGATE_KERNEL_WRITER="+path, "STREAMGATE_KERNEL_WRITER_ID="+strconv.Itoa(w))
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[w] = fmt.Errorf("child %d: %v: %s", w, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	c, err := sqlitecache.Open(path)
	require.NoError(t, err)
	defer c.Close()
	lost := 0
	for w := range writers {
		for i := range kernelWrites {
			e, ok := c.LoadKernel(context.Background(), kernelWriterKey(w, i))
			if !ok || !bytes.Equal(e, kernelWriterEntry(w, i)) {
				lost++
			}
		}
	}
	keys, _ := rangeKernels(t, c)
	t.Logf("%d writers (2 processes, 2 connections) × %d kernel stores into one file: %d listed, %d lost", writers, kernelWrites, len(keys), lost)
	assert.Zero(t, lost)
	assert.Len(t, keys, writers*kernelWrites)
}
