//go:build cgo

package main

import (
	"encoding/json"
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

func TestWarmupJSON(t *testing.T) {
	needAdapter(t)
	args := append(append([]string{}, smallWarmup...), "-cache", "", "-json")
	code, out, errOut := runCmd(t, args...)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errOut)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one object, one line: %s", out)
	var rep warmupReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rep))
	assert.NotEmpty(t, rep.Adapter)
	assert.Equal(t, 3, rep.Warmup.Ops)
	assert.Equal(t, uint64(4), rep.Warmup.LaunchesDiscarded)
	assert.Equal(t, 13, rep.Warmup.CandidateKernels)
	assert.Equal(t, 3, rep.Real.Steps)
	assert.Len(t, rep.Real.Kernels, 3)
	assert.Equal(t, uint64(12), rep.Real.LaunchesExecuted)
	assert.Zero(t, rep.Real.PipelinesCompiled)
	assert.True(t, rep.Check.Passed)
	for _, k := range []string{`"warmup":{"seconds":`, `"real":{"steps":3,`, `"check":{"passed":true,`, `"launches_executed":12`} {
		assert.Contains(t, out, k)
	}
}
