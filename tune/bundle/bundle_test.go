package bundle_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/tune/bundle"
)

var created = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// testEntries are tune entries of two adapters, one key's parts not
// valid UTF-8.
func testEntries() map[tune.CacheKey]tune.Entry {
	return map[tune.CacheKey]tune.Entry{
		{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"}: {Ranking: []string{"tiled-8", "naive-8x8"}, Timing: tune.TimingGPU, Created: created},
		{Device: "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan", Key: "reduce/\xff\xfe", Candidates: "4567"}: {Ranking: []string{"2pass-wg64-g64"}, Timing: tune.TimingWall, Created: created},
		{Device: "SwiftShader Device|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"}:               {Ranking: []string{"naive-8x8", "tiled-8"}, Timing: tune.TimingGPU, Created: created},
	}
}

func memCache(t *testing.T, entries map[tune.CacheKey]tune.Entry) tune.Cache {
	t.Helper()
	c := tune.NewMemoryCache()
	for k, e := range entries {
		require.NoError(t, c.Store(k, e))
	}
	return c
}

// kernels is a KernelRanger over a map.
type kernels map[[32]byte][]byte

func (m kernels) RangeKernels(f func([32]byte, []byte) bool) error {
	for k, e := range m {
		if !f(k, e) {
			break
		}
	}
	return nil
}

func testKernels() kernels {
	m := kernels{}
	for i := range 5 {
		m[sha256.Sum256([]byte{byte(i)})] = bytes.Repeat([]byte{byte('a' + i)}, 10*(i+1))
	}
	return m
}

// write writes a bundle of entries and ks.
func write(t *testing.T, entries map[tune.CacheKey]tune.Entry, ks kernels, opts bundle.WriteOptions) ([]byte, bundle.Stats) {
	t.Helper()
	var buf bytes.Buffer
	var tc tune.Cache
	if entries != nil {
		tc = memCache(t, entries)
	}
	var kr bundle.KernelRanger
	if ks != nil {
		kr = ks
	}
	st, err := bundle.Write(&buf, tc, kr, opts)
	require.NoError(t, err)
	require.Equal(t, buf.Len(), st.Bytes)
	return buf.Bytes(), st
}

// TestRoundTrip: every tune entry (every byte of its key) and every
// kernel entry comes back from Load as it went into Write, with the
// header's devices and maker; the same entries make the same bytes.
func TestRoundTrip(t *testing.T) {
	entries, ks := testEntries(), testKernels()
	data, st := write(t, entries, ks, bundle.WriteOptions{MadeBy: "test"})
	assert.Equal(t, 3, st.TuneEntries)
	assert.Equal(t, 5, st.Kernels)
	assert.Equal(t, []string{"SwiftShader Device|Vulkan", "llvmpipe (LLVM 15.0.6, 256 bits)|Vulkan"}, st.Devices)

	b, err := bundle.Load(data)
	require.NoError(t, err)
	assert.Equal(t, "test", b.MadeBy())
	assert.Equal(t, st.Devices, b.Devices())
	assert.Equal(t, 3, b.TuneEntries())
	assert.Equal(t, 5, b.Kernels())
	assert.Equal(t, 10+20+30+40+50, b.KernelBytes())
	assert.Equal(t, len(data), b.Size())
	got := map[tune.CacheKey]tune.Entry{}
	var order []tune.CacheKey
	b.RangeTune(func(k tune.CacheKey, e tune.Entry) bool { got[k] = e; order = append(order, k); return true })
	assert.Equal(t, entries, got)
	assert.True(t, slices.IsSortedFunc(order, tune.CompareKeys), "RangeTune in key order")
	for k, e := range entries {
		le, ok := b.LoadTune(k)
		assert.True(t, ok, "LoadTune(%v)", k)
		assert.Equal(t, e, le)
	}
	_, ok := b.LoadTune(tune.CacheKey{Device: "x", Key: "y", Candidates: "z"})
	assert.False(t, ok)
	gotK := kernels{}
	var korder [][32]byte
	require.NoError(t, b.RangeKernels(func(k [32]byte, e []byte) bool { gotK[k] = e; korder = append(korder, k); return true }))
	assert.Equal(t, ks, gotK)
	assert.True(t, slices.IsSortedFunc(korder, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) }))

	again, _ := write(t, entries, ks, bundle.WriteOptions{MadeBy: "test"})
	assert.Equal(t, data, again, "the same entries, the same bytes")

	// Written again from the bundle itself: the same bundle.
	var re bytes.Buffer
	_, err = bundle.Write(&re, b.TuneCache(nil), b, bundle.WriteOptions{MadeBy: "test"})
	require.NoError(t, err)
	assert.Equal(t, data, re.Bytes())
}

// TestWriteDevice: -device keeps one adapter's tune entries and every
// kernel.
func TestWriteDevice(t *testing.T) {
	data, st := write(t, testEntries(), testKernels(), bundle.WriteOptions{Device: "SwiftShader Device|Vulkan"})
	assert.Equal(t, 1, st.TuneEntries)
	assert.Equal(t, []string{"SwiftShader Device|Vulkan"}, st.Devices)
	b, err := bundle.Load(data)
	require.NoError(t, err)
	assert.Equal(t, []string{"SwiftShader Device|Vulkan"}, b.Devices())
	assert.Equal(t, 5, b.Kernels())
}

// TestEmptyBundle: a bundle of nothing loads, holds nothing, and its
// caches are next's alone.
func TestEmptyBundle(t *testing.T) {
	data, st := write(t, nil, nil, bundle.WriteOptions{})
	assert.Zero(t, st.TuneEntries)
	assert.Zero(t, st.Kernels)
	b, err := bundle.Load(data)
	require.NoError(t, err)
	assert.Zero(t, b.TuneEntries())
	assert.Zero(t, b.Kernels())
	assert.Empty(t, b.Devices())
	k := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	c := b.TuneCache(nil)
	_, ok := c.Load(k)
	assert.False(t, ok)
	require.NoError(t, c.Store(k, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingGPU}))
	_, ok = c.Load(k)
	assert.True(t, ok)
	_, ok = b.KernelStore(nil).LoadKernel(context.Background(), [32]byte{})
	assert.False(t, ok)
}

// reseal sets a bundle's total size to its length and its checksum to
// its content's: a bundle changed on purpose, whose checks then fall to
// what is inside.
func reseal(b []byte) []byte {
	b = slices.Clone(b[:len(b)-sha256.Size])
	binary.LittleEndian.PutUint64(b[len("streamgate bundle\n")+4:], uint64(len(b)+sha256.Size))
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// Offsets in a bundle.
const (
	offVersion   = len("streamgate bundle\n")
	offSize      = offVersion + 4
	offHeaderLen = offSize + 8
)

// offTuneLen is the offset of the tune section's length in data.
func offTuneLen(data []byte) int {
	return offHeaderLen + 4 + int(binary.LittleEndian.Uint32(data[offHeaderLen:]))
}

// offKernels is the offset of the kernel count in data.
func offKernels(data []byte) int {
	o := offTuneLen(data)
	return o + 8 + int(binary.LittleEndian.Uint64(data[o:]))
}

// TestLoadRefuses: an empty, foreign, truncated, changed, newer or
// malformed bundle, and one whose length fields overrun it, is an error
// that names the problem; none panics, none loads.
func TestLoadRefuses(t *testing.T) {
	good, _ := write(t, testEntries(), testKernels(), bundle.WriteOptions{MadeBy: "test"})
	patch := func(off int, v any) []byte {
		b := slices.Clone(good)
		switch v := v.(type) {
		case uint32:
			binary.LittleEndian.PutUint32(b[off:], v)
		case uint64:
			binary.LittleEndian.PutUint64(b[off:], v)
		}
		return b
	}
	kernels := offKernels(good)
	firstEntryLen := kernels + 4 + 32
	for _, tc := range []struct {
		name string
		data []byte
		is   error
		want string
	}{
		{"empty", nil, bundle.ErrNotBundle, "not a streamgate bundle: empty (0 bytes)"},
		{"foreign", []byte("SQLite format 3\x00 and more"), bundle.ErrNotBundle, `not a streamgate bundle: it begins "SQLite format 3\x00"`},
		{"a tune export", []byte(`{"version":3,"device":"d"}` + "\n"), bundle.ErrNotBundle, "not a streamgate bundle"},
		{"truncated in the magic", good[:5], bundle.ErrDamaged, "truncated: 5 bytes, shorter than any bundle"},
		{"truncated in the prefix", good[:offSize+2], bundle.ErrDamaged, "truncated: 24 bytes, shorter than any bundle"},
		{"truncated by half", good[:len(good)/2], bundle.ErrDamaged, fmt.Sprintf("truncated: %d bytes of the %d it says it holds", len(good)/2, len(good))},
		{"truncated by one byte", good[:len(good)-1], bundle.ErrDamaged, fmt.Sprintf("truncated: %d bytes of the %d", len(good)-1, len(good))},
		{"a byte more", append(slices.Clone(good), 0), bundle.ErrDamaged, fmt.Sprintf("%d bytes, more than the %d it says it holds", len(good)+1, len(good))},
		{"a byte changed", func() []byte { b := slices.Clone(good); b[len(b)/2] ^= 1; return b }(), bundle.ErrDamaged, "checksum mismatch"},
		{"the checksum changed", func() []byte { b := slices.Clone(good); b[len(b)-1] ^= 0x80; return b }(), bundle.ErrDamaged, "checksum mismatch"},
		{"version 2", patch(offVersion, uint32(2)), bundle.ErrVersion, "format version 2; this build reads version 1"},
		{"version 0", patch(offVersion, uint32(0)), bundle.ErrVersion, "format version 0"},
		{"a huge total size", patch(offSize, uint64(1)<<62), bundle.ErrDamaged, "it says it holds 4611686018427387904 bytes, over the 1073741824 a bundle may hold"},
		{"a huge header length", reseal(patch(offHeaderLen, uint32(0xffffffff))), bundle.ErrDamaged, "header of 4294967295 bytes, over the 1048576 it may hold"},
		{"a header length past the end", reseal(patch(offHeaderLen, uint32(len(good)))), bundle.ErrDamaged, "header of"},
		{"a huge tune section length", reseal(patch(offTuneLen(good), uint64(1)<<62)), bundle.ErrDamaged, "tune section of 4611686018427387904 bytes, over the 1073741824 it may hold"},
		{"a tune section length past the end", reseal(patch(offTuneLen(good), uint64(len(good)))), bundle.ErrDamaged, "more than the"},
		{"a huge kernel count", reseal(patch(kernels, uint32(0xffffffff))), bundle.ErrDamaged, "4294967295 kernel entries, more than the"},
		{"a huge kernel entry length", reseal(patch(firstEntryLen, uint32(0xffffffff))), bundle.ErrDamaged, "kernel entry 0 of 4294967295 bytes, over the 67108864 it may hold"},
		{"a kernel entry length past the end", reseal(patch(firstEntryLen, uint32(1000))), bundle.ErrDamaged, "kernel entry 0 of 1000 bytes, more than the"},
		{"a kernel count short", reseal(patch(kernels, uint32(4))), bundle.ErrDamaged, "bytes after the last kernel entry"},
		{"a header not JSON", func() []byte { b := slices.Clone(good); b[offHeaderLen+4] = '['; return reseal(b) }(), bundle.ErrDamaged, "header:"},
		{"a tune line changed", func() []byte {
			b := slices.Clone(good)
			i := bytes.Index(b, []byte(`"ranking":[`))
			copy(b[i:], `"rankinq"`)
			return reseal(b)
		}(), bundle.ErrDamaged, "tune section: tune: import: line 1:"},
		{"a header that miscounts", func() []byte {
			b := slices.Clone(good)
			i := bytes.Index(b, []byte(`"kernels":5`))
			b[i+len(`"kernels":`)] = '4'
			return reseal(b)
		}(), bundle.ErrDamaged, "5 kernel entries; the header says 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := bundle.Load(tc.data)
			require.Error(t, err)
			assert.Nil(t, b)
			assert.True(t, errors.Is(err, tc.is), "Load: %v, want %v", err, tc.is)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "bundle: "), err.Error())
		})
	}
}

// TestLoadRefusesEveryByteChanged: a bundle with any one byte changed
// does not load, whichever byte: nothing of a damaged bundle is used.
func TestLoadRefusesEveryByteChanged(t *testing.T) {
	good, _ := write(t, testEntries(), testKernels(), bundle.WriteOptions{MadeBy: "test"})
	for i := range good {
		b := slices.Clone(good)
		b[i] ^= 0x5a
		if _, err := bundle.Load(b); err == nil {
			t.Fatalf("Load with byte %d of %d changed = nil error, want one", i, len(good))
		}
	}
	for n := range len(good) {
		if _, err := bundle.Load(good[:n]); err == nil {
			t.Fatalf("Load of the first %d of %d bytes = nil error, want one", n, len(good))
		}
	}
}

// TestTuneCacheNextWins: the bundle's tune cache loads what next holds
// first (this machine's measurement wins), the bundle's otherwise;
// stores go to next; Range merges both in key order, next's entry where
// both hold a key.
func TestTuneCacheNextWins(t *testing.T) {
	entries := testEntries()
	data, _ := write(t, entries, nil, bundle.WriteOptions{})
	b, err := bundle.Load(data)
	require.NoError(t, err)
	next := tune.NewMemoryCache()
	mine := tune.Entry{Ranking: []string{"measured-here"}, Timing: tune.TimingGPU, Created: created}
	shared := tune.CacheKey{Device: "SwiftShader Device|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"}
	own := tune.CacheKey{Device: "SwiftShader Device|Vulkan", Key: "a-key-before-the-others", Candidates: "9"}
	require.NoError(t, next.Store(shared, mine))
	require.NoError(t, next.Store(own, mine))

	c := b.TuneCache(next)
	_, isCC := c.(tune.ContextCache)
	assert.True(t, isCC, "a ContextCache, so that a tuner's deadlines reach next")
	e, ok := c.Load(shared)
	assert.True(t, ok)
	assert.Equal(t, mine, e, "next's entry wins over the bundle's")
	for k, want := range entries {
		if k == shared {
			continue
		}
		e, ok := c.Load(k)
		assert.True(t, ok, "Load(%v) from the bundle", k)
		assert.Equal(t, want, e)
	}
	stored := tune.CacheKey{Device: "d", Key: "k", Candidates: "c"}
	require.NoError(t, c.Store(stored, mine))
	_, ok = next.Load(stored)
	assert.True(t, ok, "Store reaches next")

	var keys []tune.CacheKey
	got := map[tune.CacheKey]tune.Entry{}
	require.NoError(t, c.Range(func(k tune.CacheKey, e tune.Entry) bool { keys = append(keys, k); got[k] = e; return true }))
	assert.Len(t, keys, 5, "3 of the bundle and 3 of next, one key in both")
	assert.True(t, slices.IsSortedFunc(keys, tune.CompareKeys), "Range in key order: %q", keys)
	assert.Equal(t, mine, got[shared])
	for stop := 1; stop <= 5; stop++ {
		n := 0
		require.NoError(t, c.Range(func(tune.CacheKey, tune.Entry) bool { n++; return n < stop }))
		assert.Equal(t, stop, n, "Range stops when f returns false")
	}

	require.NoError(t, c.Delete(shared))
	e, ok = c.Load(shared)
	assert.True(t, ok)
	assert.Equal(t, entries[shared], e, "after Delete the bundle's entry shows: the bundle is read-only")
	require.NoError(t, c.Close())
}

// TestKernelStoreNextFirst: the bundle's kernel store loads from next
// first, from the bundle where next lacks a key, and stores to next; with
// next nil, to memory.
func TestKernelStoreNextFirst(t *testing.T) {
	ks := testKernels()
	data, _ := write(t, nil, ks, bundle.WriteOptions{})
	b, err := bundle.Load(data)
	require.NoError(t, err)
	ctx := context.Background()
	var key [32]byte
	for k := range ks {
		key = k
		break
	}
	s := b.KernelStore(nil)
	e, ok := s.LoadKernel(ctx, key)
	assert.True(t, ok)
	assert.Equal(t, ks[key], e)
	require.NoError(t, s.StoreKernel(ctx, key, []byte("relowered")))
	e, _ = s.LoadKernel(ctx, key)
	assert.Equal(t, "relowered", string(e), "a stored entry (a bundle's refused and lowered again) wins")
	e, _ = b.LoadKernel(ctx, key)
	assert.Equal(t, ks[key], e, "the bundle is unchanged")
	e[0] ^= 1
	e2, _ := b.LoadKernel(ctx, key)
	assert.Equal(t, ks[key], e2, "LoadKernel returns a copy")

	next := b.KernelStore(nil) // a store of its own to be next
	s = b.KernelStore(next)
	other := sha256.Sum256([]byte("not in the bundle"))
	_, ok = s.LoadKernel(ctx, other)
	assert.False(t, ok)
	require.NoError(t, s.StoreKernel(ctx, other, []byte("x")))
	e, ok = next.LoadKernel(ctx, other)
	assert.True(t, ok)
	assert.Equal(t, "x", string(e))
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	_, ok = s.LoadKernel(canceled, key)
	assert.False(t, ok, "a canceled load is a miss")
}

// failingStore refuses every store, as a read-only directory does.
type failingStore struct{ bundle.KernelStore }

func (failingStore) StoreKernel(context.Context, [32]byte, []byte) error {
	return errors.New("read-only")
}

// TestInstall: Install copies the entries the caches lack and leaves
// those they hold; a store that fails every store is one error that
// counts them.
func TestInstall(t *testing.T) {
	entries, ks := testEntries(), testKernels()
	data, _ := write(t, entries, ks, bundle.WriteOptions{})
	b, err := bundle.Load(data)
	require.NoError(t, err)
	ctx := context.Background()

	tc := tune.NewMemoryCache()
	shared := tune.CacheKey{Device: "SwiftShader Device|Vulkan", Key: "matmul/64x64x32", Candidates: "0123"}
	mine := tune.Entry{Ranking: []string{"measured-here"}, Timing: tune.TimingGPU, Created: created}
	require.NoError(t, tc.Store(shared, mine))
	kstore := bundle.KernelStore(new(bundle.Bundle).KernelStore(nil))
	st, err := b.Install(ctx, tc, kstore)
	require.NoError(t, err)
	assert.Equal(t, 2, st.TuneEntries, "the two keys the cache lacked")
	assert.Equal(t, 5, st.Kernels)
	e, _ := tc.Load(shared)
	assert.Equal(t, mine, e, "an entry the cache held stays")
	for k, want := range ks {
		e, ok := kstore.LoadKernel(ctx, k)
		assert.True(t, ok)
		assert.Equal(t, want, e)
	}
	st, err = b.Install(ctx, tc, kstore)
	require.NoError(t, err)
	assert.Zero(t, st.TuneEntries, "a second install copies nothing")
	assert.Zero(t, st.Kernels)

	st, err = b.Install(ctx, nil, failingStore{new(bundle.Bundle).KernelStore(nil)})
	assert.Zero(t, st.Kernels)
	require.Error(t, err)
	assert.Equal(t, "bundle: 5 kernel entries not installed: read-only", err.Error())

	canceled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = b.Install(canceled, tune.NewMemoryCache(), nil)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestWriteRefuses: an entry tune.Export refuses makes Write write
// nothing.
func TestWriteRefuses(t *testing.T) {
	c := tune.NewMemoryCache()
	require.NoError(t, c.Store(tune.CacheKey{Device: "d", Key: "", Candidates: "c"}, tune.Entry{Ranking: []string{"a"}, Timing: tune.TimingGPU}))
	var buf bytes.Buffer
	_, err := bundle.Write(&buf, c, nil, bundle.WriteOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no key")
	assert.Zero(t, buf.Len(), "nothing written")
}

// FuzzLoad: Load never panics, and a bundle it accepts is written again
// to bytes that load to the same entries.
func FuzzLoad(f *testing.F) {
	good, err := func() ([]byte, error) {
		c := tune.NewMemoryCache()
		for k, e := range testEntries() {
			c.Store(k, e)
		}
		var buf bytes.Buffer
		_, err := bundle.Write(&buf, c, testKernels(), bundle.WriteOptions{MadeBy: "fuzz"})
		return buf.Bytes(), err
	}()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := bundle.Load(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if _, err := bundle.Write(&buf, b.TuneCache(nil), b, bundle.WriteOptions{MadeBy: b.MadeBy()}); err != nil {
			t.Fatalf("a loaded bundle does not write: %v", err)
		}
		b2, err := bundle.Load(buf.Bytes())
		if err != nil || b2.TuneEntries() != b.TuneEntries() || b2.Kernels() != b.Kernels() {
			t.Fatalf("written again: %v, %d/%d tune entries, %d/%d kernels", err, b2.TuneEntries(), b.TuneEntries(), b2.Kernels(), b.Kernels())
		}
	})
}
