package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersion(t *testing.T) {
	code, out, errOut := runCmd(t, "version")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "streamgate "), out)
	assert.Contains(t, out, runtime.Version())

	code, out, errOut = runCmd(t, "version", "-json")
	require.Equal(t, 0, code, errOut)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, "github.com/streamgate/streamgate", v["module"])
	assert.Equal(t, runtime.Version(), v["go"])
	assert.NotEmpty(t, v["version"])
	assert.Equal(t, cgoEnabled, v["cgo"])
	assert.Len(t, v, 4, "the documented fields only: %s", out)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one object, one line")
}
