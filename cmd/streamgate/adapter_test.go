//go:build cgo

package main

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/streamgate/streamgate/streamgatetest"
	"github.com/streamgate/streamgate/wgpu"
)

// TestAdapterFlag: info, warmup and bench take -adapter; a good index opens
// that adapter, a bad name fails with the list of adapters.
func TestAdapterFlag(t *testing.T) {
	d := streamgatetest.OpenDevice(t) // skips without an adapter
	want := d.Info()
	idx := -1
	list, err := wgpu.Adapters()
	require.NoError(t, err)
	for i, a := range list {
		if a.Name == want.Name && a.Backend == want.Backend {
			idx = i
			break
		}
	}
	require.GreaterOrEqual(t, idx, 0, "the default adapter %q (%v) is not in %v", want.Name, want.Backend, list)
	d.Close()

	code, out, errOut := runCmd(t, "info", "-adapter", strconv.Itoa(idx))
	require.Equal(t, 0, code, "stderr:\n%s", errOut)
	assert.Contains(t, out, `device (-adapter "`+strconv.Itoa(idx)+`"`)
	assert.Contains(t, out, "adapter:       "+want.Name)
	assert.Contains(t, out, "backend:       "+want.Backend.String())

	for _, args := range [][]string{
		{"info", "-adapter", "no such adapter"},
		append(append([]string{}, smallWarmup...), "-cache", "", "-adapter", "no such adapter"),
		{"bench", "-run", "^LaunchLoop/", "-benchtime", "1x", "-out", t.TempDir(), "-adapter", "no such adapter"},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, _, errOut := runCmd(t, args...)
			assert.Equal(t, 1, code)
			assert.Contains(t, errOut, `no adapter named "no such adapter"`)
			assert.Contains(t, errOut, "adapters: 0: ")
		})
	}
}
