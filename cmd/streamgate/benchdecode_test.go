package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBenchDecode: a decode step per op runs through the five
// implementations, each token checked against the CPU reference, and
// shows its launches/s (a decode step's a token) and tokens/s.
func TestBenchDecode(t *testing.T) {
	needAdapter(t)
	if !launchCases {
		t.Skip("no launch cases without cgo")
	}
	code, stdout, stderr := runCmd(t, "bench", "-benchtime", "40x", "-count", "1", "-out", t.TempDir(), "-run", `^Decode/`)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	t.Log("\n" + stdout)
	for _, impl := range []string{"client", "client-replay", "device", "raw-one-pass", "raw-submit-each"} {
		assert.Regexp(t, `\| Decode/impl=`+impl+`(-\d+)? \| [0-9.]+ \| .* \| raw-one-pass \| [0-9.]+ cpu-ms/op, [0-9.]+k? launches/s, [0-9.]+k? tokens/s \|`, stdout)
	}
}
