//go:build cgo

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInfoJSON(t *testing.T) {
	needAdapter(t)
	code, out, errOut := runCmd(t, "info", "-json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one object, one line")
	var v struct {
		Adapters []map[string]any `json:"adapters"`
		Device   map[string]any   `json:"device"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.NotEmpty(t, v.Adapters)
	for _, k := range []string{"name", "vendor", "vendor_id", "device_id", "driver", "architecture", "backend", "type", "timestamps"} {
		assert.Contains(t, v.Adapters[0], k)
		assert.Contains(t, v.Device, k)
	}
	assert.Contains(t, v.Device, "identity")
	limits, ok := v.Device["limits"].(map[string]any)
	require.True(t, ok, "limits: %v", v.Device["limits"])
	assert.Positive(t, limits["MaxBufferSize"])
}

// TestWarmupJSON: -workload ops prints the model's shape of object (one
// shape for both workloads), its cache object included.
func TestWarmupJSON(t *testing.T) {
	needAdapter(t)
	cache := filepath.Join(t.TempDir(), "tune.db")
	kernels := filepath.Join(t.TempDir(), "kernels")
	useKernelDir(t, kernels) // empty: every source lowered
	args := append(append([]string{}, smallWarmup...), "-cache", cache, "-json")
	code, out, errOut := runCmd(t, args...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one object, one line: %s", out)
	var rep warmupReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rep))
	assert.Equal(t, "ops", rep.Workload)
	assert.NotEmpty(t, rep.Adapter)
	assert.False(t, rep.Interrupted)
	assert.Equal(t, cacheJSON{File: cache, Stored: "file"}, rep.Cache)
	assert.Equal(t, 3, rep.Keys)
	assert.Equal(t, 3, rep.TunedKeys)
	assert.Equal(t, uint64(4), rep.LaunchesDiscarded)
	assert.Equal(t, 4, rep.LaunchesPerStep)
	assert.Equal(t, 13, rep.CandidateKernels)
	assert.Equal(t, 3, rep.Steps)
	assert.Len(t, rep.Winners, 3)
	assert.Contains(t, rep.Winners, "matmul/64x64x32")
	assert.Zero(t, rep.RealPassCompiles)
	assert.True(t, rep.CPUCheck)
	assert.Positive(t, rep.StepMsMedian)
	assert.Positive(t, rep.KernelCache.Misses, "the kernel cache empty: sources lowered")
	assert.LessOrEqual(t, rep.KernelCache.Misses, int64(rep.CandidateKernels))
	assert.Zero(t, rep.KernelCache.StoreHits)
	assert.NotEmpty(t, rep.KernelCache.Store)
	for _, k := range []string{`"workload":"ops"`, `"cache":{"file":`, `"cache_hits":0`, `"tuned_keys":3`, `"kernel_cache":{"store":`, `"lowering_starts":`} {
		assert.Contains(t, out, k)
	}

	// As a new process finds the directory: every source it compiles (the
	// winners': the tune cache has them) read, none lowered.
	useKernelDir(t, kernels)
	code, out, errOut = runCmd(t, args...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	var again warmupReport
	require.NoError(t, json.Unmarshal([]byte(out), &again))
	assert.Zero(t, again.KernelCache.Misses)
	assert.Positive(t, again.KernelCache.StoreHits)
	assert.LessOrEqual(t, again.KernelCache.StoreHits, rep.KernelCache.Misses)
}
