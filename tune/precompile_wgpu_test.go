//go:build cgo

package tune_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/tune"
)

// TestCandidatesPrecompiledBeforeMeasuring: the kernels the candidates list
// compile in one batch before the first sample, so that measuring compiles
// nothing; a broken candidate still fails with its compile error.
func TestCandidatesPrecompiledBeforeMeasuring(t *testing.T) {
	g := setupGPU(t)
	mid := gpu.NewKernel("mid", loopWGSL(20000), "main")
	broken := gpu.NewKernel("broken", "@compute @workgroup_size(1) fn main() { undefined_fn(); }", "main")
	listed := func(name string, k *gpu.Kernel) tune.Candidate {
		c := gpuCandidate(name, k, nil)
		c.Kernels = []*gpu.Kernel{k}
		return c
	}
	var atFirst []bool // Compiled of each kernel at the first progress report
	tu := tune.New(g.c, tune.WithTiming(tune.TimingWall), tune.WithProgress(func(tune.Progress) {
		if atFirst == nil {
			atFirst = []bool{g.d.Compiled(g.cheap), g.d.Compiled(mid)}
		}
	}))
	op := loopOp(g.d, "precompiled",
		listed("cheap", g.cheap), listed("broken", broken), listed("mid", mid))
	got, res, err := tu.Pick(context.Background(), op)
	require.NoError(t, err)
	assert.Equal(t, "cheap", got.Name)
	assert.Equal(t, []bool{true, true}, atFirst, "every listed kernel compiled before the first sample was reported")
	var brokenRow *tune.Row
	for i := range res.Rows {
		if res.Rows[i].Name == "broken" {
			brokenRow = &res.Rows[i]
		}
	}
	require.NotNil(t, brokenRow)
	assert.Equal(t, tune.StatusFailed, brokenRow.Status)
	assert.ErrorContains(t, brokenRow.Err, "broken(main)")
}
