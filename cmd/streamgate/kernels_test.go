//go:build cgo

package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

// TestKernelsCheck checks every candidate kernel as a compile would, without
// a device: its constants set its workgroup size, and it binds the buffers
// its op passes, in order.
func TestKernelsCheck(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	w, _, _, err := newWorkload(d, shape{M: 8, N: 8, K: 8}, 1)
	require.NoError(t, err)
	defer w.release()
	type want struct {
		wg       [3]uint32
		bindings string // the op's buffers the kernel binds, in order
	}
	const mm, sm = "dims a w bias out", "dims x y" // the shared matmul: a zero bias here
	wants := map[string]want{
		"matmul/naive-8x8":                 {[3]uint32{8, 8, 1}, mm},
		"matmul/naive-16x16":               {[3]uint32{16, 16, 1}, mm},
		"matmul/tiled-8":                   {[3]uint32{8, 8, 1}, mm},
		"matmul/tiled-16":                  {[3]uint32{16, 16, 1}, mm},
		"softmax/thread-per-row":           {[3]uint32{64, 1, 1}, sm},
		"softmax/group-per-row-64":         {[3]uint32{64, 1, 1}, sm},
		"softmax/group-per-row-256":        {[3]uint32{256, 1, 1}, sm},
		"reduce/2pass-wg64-g64/partials":   {[3]uint32{64, 1, 1}, "dims x partial"},
		"reduce/2pass-wg64-g64/total":      {[3]uint32{64, 1, 1}, "partial out"},
		"reduce/2pass-wg256-g64/partials":  {[3]uint32{256, 1, 1}, "dims x partial"},
		"reduce/2pass-wg256-g64/total":     {[3]uint32{256, 1, 1}, "partial out"},
		"reduce/2pass-wg256-g256/partials": {[3]uint32{256, 1, 1}, "dims x partial"},
		"reduce/2pass-wg256-g256/total":    {[3]uint32{256, 1, 1}, "partial out"},
	}
	seen := 0
	for _, o := range w.ops {
		for _, k := range o.kernels {
			t.Run(k.Name(), func(t *testing.T) {
				seen++
				info, err := wgpu.CheckKernel(context.Background(), k, d.Limits())
				require.NoError(t, err)
				want, ok := wants[k.Name()]
				require.True(t, ok, "no want for %s", k)
				assert.Equal(t, want.wg, info.WorkgroupSize, "CheckKernel(%s).WorkgroupSize", k)
				var names []string
				for _, b := range info.Bindings {
					names = append(names, b.Name)
				}
				assert.Equal(t, want.bindings, strings.Join(names, " "), "CheckKernel(%s).Bindings", k)
			})
		}
	}
	assert.Equal(t, len(wants), seen, "kernels checked")
}

// TestCandidatesCorrect runs every candidate of every op on its own and
// checks it against the CPU reference: the tuner may pick any of them.
func TestCandidatesCorrect(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	ctx := context.Background()
	c := client.New(d, client.WithRegistry(registry.New())) // ProcessExecute
	defer c.Close()
	for _, sh := range []shape{{1, 1, 1}, {37, 29, 19}, {64, 48, 33}} {
		w, a, b, err := newWorkload(d, sh, 7)
		require.NoError(t, err)
		defer w.release()
		require.Len(t, w.ops, 3)
		// poison fills buf with NaN so that a kernel that leaves an element
		// unwritten fails the check.
		poison := func(buf *wgpu.Buffer) {
			nan := make([]float32, buf.Size()/4)
			for i := range nan {
				nan[i] = float32(math.NaN())
			}
			require.NoError(t, wgpu.Write(buf, 0, nan))
		}
		runCand := func(o op, cand tune.Candidate) {
			require.NoError(t, cand.Run(ctx, c, o.args))
			require.NoError(t, c.Sync(ctx))
		}
		var gotC, gotS []float32
		for _, cand := range w.ops[0].tune.Candidates {
			t.Run(fmt.Sprintf("matmul/%s/%dx%dx%d", cand.Name, sh.M, sh.N, sh.K), func(t *testing.T) {
				poison(w.c)
				runCand(w.ops[0], cand)
				gotC, err = wgpu.Read[float32](ctx, w.c, 0, int(w.c.Size()/4))
				require.NoError(t, err)
				_, err := checkMatmul(gotC, a, b, sh.M, sh.N, sh.K)
				assert.NoError(t, err)
			})
		}
		for _, cand := range w.ops[1].tune.Candidates {
			t.Run(fmt.Sprintf("softmax/%s/%dx%d", cand.Name, sh.M, sh.N), func(t *testing.T) {
				poison(w.s)
				runCand(w.ops[1], cand)
				gotS, err = wgpu.Read[float32](ctx, w.s, 0, int(w.s.Size()/4))
				require.NoError(t, err)
				_, err := checkSoftmax(gotS, gotC, sh.M, sh.N)
				assert.NoError(t, err)
			})
		}
		for _, cand := range w.ops[2].tune.Candidates {
			t.Run(fmt.Sprintf("reduce/%s/%d", cand.Name, sh.M*sh.N), func(t *testing.T) {
				poison(w.partial)
				poison(w.out)
				runCand(w.ops[2], cand)
				got, err := wgpu.Read[float32](ctx, w.out, 0, int(w.out.Size()/4))
				require.NoError(t, err)
				_, err = checkSum(got[0], gotS)
				assert.NoError(t, err)
			})
		}
	}
}

// TestReduceExact sums integers, which float32 adds exactly, so any element
// a candidate drops or counts twice shows.
func TestReduceExact(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	ctx := context.Background()
	c := client.New(d, client.WithRegistry(registry.New()))
	defer c.Close()
	sh := shape{M: 61, N: 67, K: 1} // 4087 elements: not a multiple of any workgroup
	w, _, _, err := newWorkload(d, sh, 1)
	require.NoError(t, err)
	defer w.release()
	x := make([]float32, sh.M*sh.N)
	var want float32
	for i := range x {
		x[i] = float32(i%5 + 1)
		want += x[i]
	}
	require.NoError(t, wgpu.Write(w.s, 0, x))
	for _, cand := range w.ops[2].tune.Candidates {
		t.Run(cand.Name, func(t *testing.T) {
			require.NoError(t, wgpu.Write(w.out, 0, []float32{-1}))
			require.NoError(t, cand.Run(ctx, c, w.ops[2].args))
			got, err := wgpu.Read[float32](ctx, w.out, 0, int(w.out.Size()/4))
			require.NoError(t, err)
			assert.Equal(t, want, got[0])
		})
	}
}

func TestNewWorkloadRejectsBadShapes(t *testing.T) {
	d := streamgatetest.OpenDevice(t)
	lim := int(d.Limits().MaxComputeWorkgroupsPerDimension)
	for _, sh := range []shape{{0, 1, 1}, {1, -1, 1}, {lim + 1, 1, 1}, {1 << 16, 1 << 16, 1}} {
		_, _, _, err := newWorkload(d, sh, 1)
		assert.Error(t, err, "newWorkload(%v)", sh)
	}
}
