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
