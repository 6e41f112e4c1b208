//go:build cgo

package main

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/gputest"
	"github.com/streamgate/streamgate/registry"
	"github.com/streamgate/streamgate/tune"
	"github.com/streamgate/streamgate/wgpu"
)

func TestExpand(t *testing.T) {
	got := expand("$TT $T $Tu $GWu $G $Gu $W", map[string]int{"T": 8, "TT": 64, "G": 4, "GW": 256, "W": 64})
	assert.Equal(t, "64 8 8u 256u 4 4u 64", got)
}

// TestCandidatesCorrect runs every candidate of every op on its own and
// checks it against the CPU reference: the tuner may pick any of them.
func TestCandidatesCorrect(t *testing.T) {
	d := gputest.Open(t)
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
			require.NoError(t, buf.WriteFloat32(nan))
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
				gotC, err = w.c.ReadFloat32(ctx)
				require.NoError(t, err)
				_, err := checkMatmul(gotC, a, b, sh.M, sh.N, sh.K)
				assert.NoError(t, err)
			})
		}
		for _, cand := range w.ops[1].tune.Candidates {
			t.Run(fmt.Sprintf("softmax/%s/%dx%d", cand.Name, sh.M, sh.N), func(t *testing.T) {
				poison(w.s)
				runCand(w.ops[1], cand)
				gotS, err = w.s.ReadFloat32(ctx)
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
				got, err := w.out.ReadFloat32(ctx)
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
	d := gputest.Open(t)
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
	require.NoError(t, w.s.WriteFloat32(x))
	for _, cand := range w.ops[2].tune.Candidates {
		t.Run(cand.Name, func(t *testing.T) {
			require.NoError(t, w.out.WriteFloat32([]float32{-1}))
			require.NoError(t, cand.Run(ctx, c, w.ops[2].args))
			got, err := w.out.ReadFloat32(ctx)
			require.NoError(t, err)
			assert.Equal(t, want, got[0])
		})
	}
}

func TestNewWorkloadRejectsBadShapes(t *testing.T) {
	d := gputest.Open(t)
	lim := int(d.Limits().MaxComputeWorkgroupsPerDimension)
	for _, sh := range []shape{{0, 1, 1}, {1, -1, 1}, {lim + 1, 1, 1}, {1 << 16, 1 << 16, 1}} {
		_, _, _, err := newWorkload(d, sh, 1)
		assert.Error(t, err, "newWorkload(%v)", sh)
	}
}
