//go:build !js

package bundle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/tune/bundle"
	"github.com/streamgate/streamgate/wgpu"
)

// The kernel tests run their lowerings in children (this test binary
// again, which TestMain turns into kernelChild): the kernel cache
// remembers what a process lowered, and the sandbox starts once a
// process, so only a fresh process shows what a bundle spares it.
const (
	childEnv       = "STREAMGATE_BUNDLE_TEST_CHILD" // "lower": into the kernel cache; "bundle": from the bundle in childBundleEnv
	childBundleEnv = "STREAMGATE_BUNDLE_TEST_FILE"
	childMarker    = "CHILD RESULT: "
)

// kernelSource holds an abstract literal, which the lowering concretizes.
const kernelSource = `@group(0) @binding(0) var<storage, read_write> data: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = 2.0;
    data[id.x] = data[id.x] * k + 1;
}
`

// childResult is what a child reports.
type childResult struct {
	Lowered     string
	EntryPoints []wgpu.EntryPointInfo
	Stats       wgpu.KernelCacheStats
	Err         string
}

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(kernelChild(mode))
	}
	os.Exit(m.Run())
}

// kernelChild is a child's work: it checks kernelSource, with the kernel
// cache of its environment and, in mode "bundle", the bundle behind it,
// and prints what it found. It returns the exit status.
func kernelChild(mode string) int {
	if mode == "bundle" {
		data, err := os.ReadFile(os.Getenv(childBundleEnv))
		if err != nil {
			return report(childResult{Err: err.Error()})
		}
		b, err := bundle.Load(data)
		if err != nil {
			return report(childResult{Err: err.Error()})
		}
		wgpu.SetKernelStore(b.KernelStore(wgpu.CurrentKernelStore()))
	}
	wgpu.StartLowering() // as a program does: it starts no sandbox where the kernels are there
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var r childResult
	mi, err := wgpu.CheckModule(ctx, kernelSource, nil, wgpu.DefaultLimits())
	if err != nil {
		r.Err = err.Error()
	} else {
		r.Lowered, r.EntryPoints = mi.Lowered, mi.EntryPoints
	}
	time.Sleep(100 * time.Millisecond) // StartLowering decides on a goroutine
	r.Stats = wgpu.ReadKernelCacheStats()
	return report(r)
}

// report prints r for the parent.
func report(r childResult) int {
	b, err := json.Marshal(r)
	if err != nil {
		return 1
	}
	os.Stdout.Write(append([]byte(childMarker), append(b, '\n')...))
	return 0
}

// runChild runs kernelChild in mode with env added, and returns its
// report.
func runChild(t *testing.T, mode string, env ...string) childResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(append(os.Environ(), childEnv+"="+mode), env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child %s:\n%s", mode, out)
	for line := range strings.Lines(string(out)) {
		if rest, ok := strings.CutPrefix(line, childMarker); ok {
			var r childResult
			require.NoError(t, json.Unmarshal([]byte(rest), &r))
			require.Empty(t, r.Err, "child %s", mode)
			return r
		}
	}
	t.Fatalf("child %s reported nothing:\n%s", mode, out)
	return childResult{}
}

// damaging is a KernelRanger that changes one byte in the middle of each
// entry longer than the warm mark (every lowering's): a bundle that is
// whole, holding entries that are not.
type damaging struct{ bundle.KernelRanger }

func (d damaging) RangeKernels(f func([32]byte, []byte) bool) error {
	return d.KernelRanger.RangeKernels(func(k [32]byte, e []byte) bool {
		if len(e) > 100 {
			e = bytes.Clone(e)
			e[len(e)/2] ^= 0x20
		}
		return f(k, e)
	})
}

// TestBundleKernels: a process whose kernel cache is empty finds a
// source's lowering in a bundle another process's cache made: it lowers
// nothing and starts no sandbox, with the lowering the first process
// made. A bundle holding a damaged entry is refused by wgpu entry by
// entry: the source is lowered again, to the same result.
func TestBundleKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the lowering sandbox in a child")
	}
	dir := t.TempDir()
	kernels := filepath.Join(dir, "kernels")
	first := runChild(t, "lower", wgpu.KernelCacheEnv+"="+kernels)
	require.Equal(t, int64(1), first.Stats.Misses, "the first process lowers the source")
	require.Equal(t, int64(1), first.Stats.LoweringStarts)
	assert.Contains(t, first.Lowered, "2f", "the abstract literal concretized")

	kd, err := wgpu.OpenKernelDir(kernels)
	require.NoError(t, err)
	write := func(name string, kr bundle.KernelRanger) string {
		var buf bytes.Buffer
		st, err := bundle.Write(&buf, nil, kr, bundle.WriteOptions{MadeBy: t.Name()})
		require.NoError(t, err)
		require.Equal(t, 2, st.Kernels, "the source's entry and the warm mark")
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return path
	}
	empty := wgpu.KernelCacheEnv + "=" + filepath.Join(dir, "empty")

	t.Run("whole", func(t *testing.T) {
		r := runChild(t, "bundle", childBundleEnv+"="+write("whole.bundle", kd), empty)
		assert.Equal(t, int64(1), r.Stats.StoreHits, "found in the bundle")
		assert.Zero(t, r.Stats.Misses, "lowered nothing")
		assert.Zero(t, r.Stats.LoweringStarts, "started no sandbox")
		assert.Equal(t, first.Lowered, r.Lowered)
		assert.Equal(t, first.EntryPoints, r.EntryPoints)
	})
	t.Run("a damaged entry", func(t *testing.T) {
		r := runChild(t, "bundle", childBundleEnv+"="+write("damaged.bundle", damaging{kd}), empty)
		assert.Equal(t, int64(1), r.Stats.Rejected, "wgpu refuses the damaged entry")
		assert.Zero(t, r.Stats.StoreHits)
		assert.Equal(t, int64(1), r.Stats.Misses, "and lowers the source again")
		assert.Equal(t, first.Lowered, r.Lowered, "to the same lowering")
		assert.Equal(t, first.EntryPoints, r.EntryPoints)
	})
}
