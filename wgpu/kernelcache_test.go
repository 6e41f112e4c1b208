//go:build cgo

package wgpu_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// kernelSources are the sources the kernel cache tests lower: two
// modules, one with overrides and a texture, and three the checks refuse
// (naga's validation, the front-end's limit, a binding past the limits).
var kernelSources = []struct {
	name, src string
	constants map[string]float64
	bad       bool
}{
	{name: "add", src: addWGSL},
	{name: "overrides", src: `
override n: u32 = 4;
override scale: f32 = 1.0;
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(8)
fn read(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < n) {
		out[id.x] = textureLoad(src, vec2u(id.x, 0u), 0).x * scale;
	}
}`, constants: map[string]float64{"n": 16, "scale": 2}},
	{name: "invalid", src: "@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }", bad: true},
	{name: "deep", src: "@compute @workgroup_size(1) fn main() { let x = " + strings.Repeat("(", 600) + "1" + strings.Repeat(")", 600) + "; }", bad: true},
	{name: "group past limit", src: "@group(9) @binding(0) var<storage, read_write> b: array<u32>;\n@compute @workgroup_size(1) fn main() { b[0] = 1u; }", bad: true},
}

// checkAll checks every kernelSources module, returning each result as
// text: the lowered source and entry points, or the error.
func checkAll(t *testing.T) []string {
	t.Helper()
	out := make([]string, len(kernelSources))
	for i, ks := range kernelSources {
		mi, err := wgpu.CheckModule(context.Background(), ks.src, ks.constants, wgpu.Limits{})
		if (err != nil) != ks.bad {
			t.Fatalf("%s: CheckModule error %v, want an error: %v", ks.name, err, ks.bad)
		}
		if err != nil {
			var we *wgpu.Error
			if !errors.As(err, &we) || we.Op != "Check" {
				t.Fatalf("%s: error %#v, want a *wgpu.Error of op Check", ks.name, err)
			}
			out[i] = "error: " + err.Error()
			continue
		}
		out[i] = fmt.Sprintf("%s\n%+v", mi.Lowered, mi.EntryPoints)
	}
	return out
}

// useKernelDir makes dir the process's kernel store for t, the process
// knowing nothing lowered, and returns it.
func useKernelDir(t *testing.T, dir string) *wgpu.KernelDir {
	t.Helper()
	kd, err := wgpu.OpenKernelDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	useKernelStore(t, kd)
	return kd
}

// useKernelStore makes s the process's kernel store for t.
func useKernelStore(t *testing.T, s wgpu.KernelStore) {
	t.Helper()
	wgpu.ForgetKernels()
	old := wgpu.SetKernelStore(s)
	t.Cleanup(func() {
		wgpu.SetKernelStore(old)
		wgpu.ForgetKernels()
	})
}

// statsSince returns the kernel cache counts since before.
func statsSince(before wgpu.KernelCacheStats) wgpu.KernelCacheStats {
	now := wgpu.ReadKernelCacheStats()
	return wgpu.KernelCacheStats{
		Hits: now.Hits - before.Hits, StoreHits: now.StoreHits - before.StoreHits,
		Misses: now.Misses - before.Misses, Stores: now.Stores - before.Stores,
		Rejected: now.Rejected - before.Rejected, StoreErrors: now.StoreErrors - before.StoreErrors,
	}
}

// TestKernelCacheRestart: what one process lowered, a process that starts
// again reads from the directory (every source a store hit, none lowered)
// and gets the same modules and the same refusals, each error of its own
// op; a compile and a launch work from what was read.
func TestKernelCacheRestart(t *testing.T) {
	useKernelDir(t, t.TempDir())
	before := wgpu.ReadKernelCacheStats()
	first := checkAll(t)
	if s := statsSince(before); s.Misses != int64(len(kernelSources)) || s.Stores != s.Misses || s.StoreHits != 0 {
		t.Fatalf("first process: %+v, want %d misses, each stored", s, len(kernelSources))
	}
	if !wgpu.KernelsWarm() {
		t.Fatal("no warm mark after the stores")
	}
	wgpu.ForgetKernels() // a new process
	before = wgpu.ReadKernelCacheStats()
	again := checkAll(t)
	if s := statsSince(before); s.Misses != 0 || s.StoreHits != int64(len(kernelSources)) || s.Rejected != 0 {
		t.Fatalf("restart: %+v, want %d store hits and no lowering", s, len(kernelSources))
	}
	if !reflect.DeepEqual(first, again) {
		t.Fatalf("restart read other results:\n%q\nwant\n%q", again, first)
	}
	// A compile from what was read, and the results' slices are the
	// caller's own.
	mi, err := wgpu.CheckModule(context.Background(), addWGSL, nil, wgpu.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	mi.EntryPoints[0].Bindings[0].Name = "changed"
	if mi2, _ := wgpu.CheckModule(context.Background(), addWGSL, nil, wgpu.Limits{}); mi2.EntryPoints[0].Bindings[0].Name != "a" {
		t.Fatalf("a caller's change reached the cache: %q", mi2.EntryPoints[0].Bindings[0].Name)
	}
	d := openTestDevice(t)
	k := gpu.NewKernel("add", addWGSL, "main")
	a, b, c := newF32(t, d, 1, 2, 3), newF32(t, d, 10, 20, 30), newF32(t, d, 0, 0, 0)
	if err := d.Launch(1, k, [3]uint32{1, 1, 1}, a, b, c); err != nil {
		t.Fatal(err)
	}
	if got := readF32(t, c); !reflect.DeepEqual(got, []float32{11, 22, 33}) {
		t.Fatalf("launch from a cached kernel: %v", got)
	}
}

// TestKernelCacheKeys: a change of the build, the limits or an override's
// value is a miss; the same inputs again hit.
func TestKernelCacheKeys(t *testing.T) {
	useKernelDir(t, t.TempDir())
	src := kernelSources[1]
	check := func(constants map[string]float64, lim wgpu.Limits) {
		t.Helper()
		if _, err := wgpu.CheckModule(context.Background(), src.src, constants, lim); err != nil {
			t.Fatal(err)
		}
	}
	check(src.constants, wgpu.Limits{})
	for _, tc := range []struct {
		name string
		do   func()
		miss bool
	}{
		{"the same", func() { check(src.constants, wgpu.Limits{}) }, false},
		{"another override value", func() { check(map[string]float64{"n": 16, "scale": 3}, wgpu.Limits{}) }, true},
		{"other limits", func() { check(src.constants, wgpu.Limits{MaxBindGroups: 8}) }, true},
		{"another build", func() {
			restore := wgpu.SetBuildIdentity("module v9.9.9")
			defer restore()
			check(src.constants, wgpu.Limits{})
		}, true},
		{"this build again", func() { check(src.constants, wgpu.Limits{}) }, false},
	} {
		wgpu.ForgetKernels()
		before := wgpu.ReadKernelCacheStats()
		tc.do()
		if s := statsSince(before); (s.Misses == 1) != tc.miss || s.Rejected != 0 {
			t.Errorf("%s: %+v, want a miss: %v", tc.name, s, tc.miss)
		}
	}
}

// logRecords collects the kernel cache's warnings for t.
func logRecords(t *testing.T) *recorder {
	r := &recorder{}
	wgpu.SetLogger(slog.New(r))
	t.Cleanup(func() { wgpu.SetLogger(nil) })
	return r
}

type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rec.Level >= slog.LevelWarn && strings.Contains(rec.Message, "kernel cache") {
		r.msgs = append(r.msgs, rec.Message)
	}
	return nil
}
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }
func (r *recorder) warnings() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// TestKernelCacheDamagedEntries: an entry damaged in any way (truncated,
// a byte changed, emptied, garbage, another key's entry, one too large,
// a directory in its place) is a miss with one warning: the source is
// lowered again, to the same result, and stored over it.
func TestKernelCacheDamagedEntries(t *testing.T) {
	dir := t.TempDir()
	useKernelDir(t, dir)
	want := checkAll(t)
	files := entryFiles(t, dir)
	if len(files) != len(kernelSources) {
		t.Fatalf("%d entry files, want %d", len(files), len(kernelSources))
	}
	other, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	damages := []struct {
		name string
		do   func(path string, b []byte) error
	}{
		{"truncated", func(p string, b []byte) error { return os.WriteFile(p, b[:len(b)/2], 0o600) }},
		{"one byte changed", func(p string, b []byte) error {
			b = bytes.Clone(b)
			b[len(b)/2] ^= 0x20
			return os.WriteFile(p, b, 0o600)
		}},
		{"checksum dropped", func(p string, b []byte) error { return os.WriteFile(p, b[:len(b)-32], 0o600) }},
		{"empty", func(p string, b []byte) error { return os.WriteFile(p, nil, 0o600) }},
		{"garbage", func(p string, b []byte) error { return os.WriteFile(p, bytes.Repeat([]byte("garbage!"), 100), 0o600) }},
		{"another key's entry", func(p string, b []byte) error { return os.WriteFile(p, other, 0o600) }},
		{"too large", func(p string, b []byte) error { return os.Truncate(p, 65<<20) }}, // sparse: the entry, then zeros
		{"a directory", func(p string, b []byte) error {
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Mkdir(p, 0o700)
		}},
	}
	for _, dm := range damages {
		t.Run(dm.name, func(t *testing.T) {
			rec := logRecords(t)
			for _, f := range files {
				if f == files[1] && dm.name == "another key's entry" {
					continue
				}
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := dm.do(f, b); err != nil {
					t.Fatal(err)
				}
			}
			wgpu.ForgetKernels()
			before := wgpu.ReadKernelCacheStats()
			if got := checkAll(t); !reflect.DeepEqual(got, want) {
				t.Fatalf("after damage: %q\nwant %q", got, want)
			}
			s := statsSince(before)
			if s.StoreHits != 0 && dm.name != "another key's entry" || s.Misses == 0 {
				t.Fatalf("after damage: %+v, want every damaged entry lowered again", s)
			}
			if dm.name != "a directory" {
				if s.Rejected == 0 && dm.name != "too large" {
					t.Fatalf("after damage: %+v, want rejected entries", s)
				}
				if dm.name != "too large" && len(rec.warnings()) != 1 {
					t.Fatalf("warnings %q, want one", rec.warnings())
				}
			}
			if dm.name == "a directory" {
				for _, f := range files {
					os.Remove(f)
				}
				wgpu.ForgetKernels()
				checkAll(t) // stores them again
			}
			// Stored again, whole: the next process hits.
			wgpu.ForgetKernels()
			before = wgpu.ReadKernelCacheStats()
			checkAll(t)
			if s := statsSince(before); s.Misses != 0 || s.Rejected != 0 {
				t.Fatalf("after the rewrite: %+v, want every entry a hit", s)
			}
		})
	}
}

// entryFiles lists the entry files of a kernel directory, the warm mark
// left out.
func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, de := range des {
		p := filepath.Join(dir, de.Name())
		if b, err := os.ReadFile(p); err == nil && strings.HasPrefix(string(b), "SGKERNEL1\n") {
			files = append(files, p)
		}
	}
	return files
}

// TestKernelCacheReadOnlyDirectory: a directory without its write bit (as
// root too) opens read-only: its entries hit, a new source is lowered and
// not stored (one warning), and the directory is left as it was.
func TestKernelCacheReadOnlyDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kernels")
	useKernelDir(t, dir)
	checkAll(t)
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	before := listing(t, dir)
	kd := useKernelDir(t, dir)
	if !kd.ReadOnly() {
		t.Fatal("a directory without its write bit opened writable")
	}
	rec := logRecords(t)
	st := wgpu.ReadKernelCacheStats()
	checkAll(t)
	for _, src := range []string{strings.Replace(addWGSL, "a[i] + b[i]", "a[i] * b[i]", 1), strings.Replace(addWGSL, "a[i] + b[i]", "a[i] - b[i]", 1)} {
		if _, err := wgpu.CheckModule(context.Background(), src, nil, wgpu.Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	s := statsSince(st)
	if s.StoreHits != int64(len(kernelSources)) || s.Misses != 2 || s.StoreErrors != 2 || s.Stores != 0 {
		t.Fatalf("read-only: %+v, want %d hits, 2 misses not stored", s, len(kernelSources))
	}
	if w := rec.warnings(); len(w) != 1 {
		t.Fatalf("warnings %q, want one", w)
	}
	if after := listing(t, dir); after != before {
		t.Fatalf("the read-only directory changed:\n%s\nwas\n%s", after, before)
	}
	if err := kd.StoreKernel(context.Background(), [32]byte{1}, []byte("x")); !errors.Is(err, wgpu.ErrKernelDirReadOnly) {
		t.Fatalf("StoreKernel on a read-only directory: %v", err)
	}
}

// listing describes a directory's files: names, sizes and times.
func listing(t *testing.T, dir string) string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, de := range des {
		fi, err := de.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %v\n", de.Name(), fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}

// failingStore is a KernelStore whose stores fail as a full disk does and
// whose loads return what it was given, or, when swap is set, each key
// the entry of another.
type failingStore struct {
	mu   sync.Mutex
	m    map[[32]byte][]byte
	full bool
	swap bool
}

func (s *failingStore) LoadKernel(_ context.Context, key [32]byte) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.swap {
		for k, e := range s.m {
			if k != key && len(e) > 100 {
				return e, true
			}
		}
	}
	e, ok := s.m[key]
	return e, ok
}

func (s *failingStore) StoreKernel(_ context.Context, key [32]byte, entry []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.full {
		return &os.PathError{Op: "write", Path: "kernels/x", Err: syscall.ENOSPC}
	}
	s.m[key] = entry
	return nil
}

// TestKernelCacheStoreFaults: a store that is full fails each store with
// one warning and the results are right; a store that answers each key
// with another key's entry (the deliberately broken store the checks are
// for) is caught: every such entry is rejected and nothing wrong is
// compiled.
func TestKernelCacheStoreFaults(t *testing.T) {
	fs := &failingStore{m: map[[32]byte][]byte{}, full: true}
	useKernelStore(t, fs)
	rec := logRecords(t)
	st := wgpu.ReadKernelCacheStats()
	want := checkAll(t)
	if s := statsSince(st); s.StoreErrors != int64(len(kernelSources)) || len(rec.warnings()) != 1 {
		t.Fatalf("full store: %+v, warnings %q; want every store failed, one warning", s, rec.warnings())
	}
	fs.full = false
	wgpu.ForgetKernels()
	checkAll(t)
	fs.swap = true
	wgpu.ForgetKernels()
	st = wgpu.ReadKernelCacheStats()
	if got := checkAll(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("a store answering with other keys' entries changed the results:\n%q\nwant %q", got, want)
	}
	if s := statsSince(st); s.StoreHits != 0 || s.Rejected != int64(len(kernelSources)) {
		t.Fatalf("swapping store: %+v, want every entry rejected", s)
	}
}

// kernelChildEnv runs this test binary as a child of
// TestKernelCacheProcesses: its value is the kernel directory.
const kernelChildEnv = "STREAMGATE_TEST_KERNEL_CHILD"

// TestKernelCacheProcesses: four processes lower the same sources into
// one directory at once, each entry written by several; then a process
// that starts on the warm directory reads every source from it, starts
// no lowering sandbox (StartLowering included), and prints the same
// results.
func TestKernelCacheProcesses(t *testing.T) {
	if dir := os.Getenv(kernelChildEnv); dir != "" {
		useKernelDir(t, dir)
		wgpu.StartLowering()
		time.Sleep(100 * time.Millisecond) // StartLowering's goroutine decides
		got := checkAll(t)
		s := wgpu.ReadKernelCacheStats()
		fmt.Printf("KERNEL-CHILD: hits=%d misses=%d rejected=%d starts=%d results=%q\n", s.StoreHits, s.Misses, s.Rejected, s.LoweringStarts, strings.Join(got, "|"))
		return
	}
	dir := t.TempDir()
	run := func() (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKernelCacheProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), kernelChildEnv+"="+dir)
		out, err := cmd.CombinedOutput()
		for _, line := range strings.Split(string(out), "\n") {
			if r, ok := strings.CutPrefix(line, "KERNEL-CHILD: "); ok {
				return r, err
			}
		}
		return "", fmt.Errorf("no result line (%v):\n%s", err, out)
	}
	results := make([]string, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() { results[i], errs[i] = run() })
	}
	wg.Wait()
	_, want, _ := strings.Cut(results[0], "results=")
	for i, r := range results {
		if errs[i] != nil {
			t.Fatalf("child %d: %v", i, errs[i])
		}
		if _, got, _ := strings.Cut(r, "results="); got != want || strings.Contains(r, "rejected=1") {
			t.Fatalf("child %d: %s\nwant results=%s", i, r, want)
		}
	}
	r, err := run()
	if err != nil {
		t.Fatal(err)
	}
	wantHead := fmt.Sprintf("hits=%d misses=0 rejected=0 starts=0 ", len(kernelSources))
	if !strings.HasPrefix(r, wantHead) || !strings.HasSuffix(r, "results="+want) {
		t.Fatalf("restart on the warm directory: %s\nwant %sresults=%s", r, wantHead, want)
	}
}

// TestKernelDirPrunes: a directory past KernelDirMaxEntries is cut to
// three quarters of it by the next store, the least recently used first.
func TestKernelDirPrunes(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range wgpu.KernelDirMaxEntries + 10 {
		p := filepath.Join(dir, fmt.Sprintf("%064x.kernel", i))
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Millisecond)
		os.Chtimes(p, at, at)
	}
	kd, err := wgpu.OpenKernelDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := kd.LoadKernel(context.Background(), [32]byte{31: 0}); !ok { // the oldest, used now
		t.Fatal("entry 0 missing")
	}
	if err := kd.StoreKernel(context.Background(), [32]byte{0: 1}, []byte("new")); err != nil {
		t.Fatal(err)
	}
	n := 0
	kd.RangeKernels(func([32]byte, []byte) bool { n++; return true })
	if n != wgpu.KernelDirMaxEntries*3/4+1 {
		t.Fatalf("%d entries after the prune, want %d", n, wgpu.KernelDirMaxEntries*3/4+1)
	}
	if _, ok := kd.LoadKernel(context.Background(), [32]byte{31: 0}); !ok {
		t.Fatal("the entry used last was pruned")
	}
	if _, ok := kd.LoadKernel(context.Background(), [32]byte{31: 1}); ok {
		t.Fatal("the least recently used entry was kept")
	}
}

// newF32 makes a storage buffer of d holding v.
func newF32(t *testing.T, d *wgpu.Device, v ...float32) *wgpu.Buffer {
	t.Helper()
	b, err := wgpu.NewBufferFrom(d, 0, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readF32 reads b's float32s.
func readF32(t *testing.T, b *wgpu.Buffer) []float32 {
	t.Helper()
	got, err := wgpu.Read[float32](context.Background(), b, 0, int(b.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// panickyStore panics in every call.
type panickyStore struct{}

func (panickyStore) LoadKernel(context.Context, [32]byte) ([]byte, bool) { panic("load") }
func (panickyStore) StoreKernel(context.Context, [32]byte, []byte) error { panic("store") }

// TestKernelCacheStoreMisuse: a store that panics is a miss and a failed
// store, with a warning, and the compile goes on; a nil *KernelDir (of an
// OpenKernelDir that failed) misses and refuses; a bad directory name is
// an error naming it.
func TestKernelCacheStoreMisuse(t *testing.T) {
	useKernelStore(t, panickyStore{})
	rec := logRecords(t)
	st := wgpu.ReadKernelCacheStats()
	want := checkAll(t)
	if s := statsSince(st); s.Misses != int64(len(kernelSources)) || s.StoreErrors != int64(len(kernelSources)) {
		t.Fatalf("a panicking store: %+v, want every source lowered and every store failed", s)
	}
	if len(rec.warnings()) != 2 {
		t.Fatalf("warnings %q, want one for the loads and one for the stores", rec.warnings())
	}
	var nilDir *wgpu.KernelDir
	useKernelStore(t, nilDir)
	if got := checkAll(t); !reflect.DeepEqual(got, want) {
		t.Fatalf("with a nil *KernelDir: %q", got)
	}
	if err := nilDir.StoreKernel(context.Background(), [32]byte{}, nil); err == nil || !strings.Contains(err.Error(), "nil *KernelDir") {
		t.Fatalf("nil KernelDir's StoreKernel: %v", err)
	}
	if err := nilDir.RangeKernels(func([32]byte, []byte) bool { return true }); err == nil {
		t.Fatal("nil KernelDir's RangeKernels: no error")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"", file, filepath.Join(file, "below")} {
		if _, err := wgpu.OpenKernelDir(dir); err == nil {
			t.Errorf("OpenKernelDir(%q): no error", dir)
		}
	}
}
