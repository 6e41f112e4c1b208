//go:build cgo

package wgpu_test

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
)

// TestUncapturedErrorGoesToTheLogger: a WebGPU error raised outside every
// error scope is counted and logged to the device's Logger, and does not
// abort the process.
func TestUncapturedErrorGoesToTheLogger(t *testing.T) {
	var out syncBuffer
	d := openTestDevice(t, wgpu.Options{Logger: slog.New(slog.NewTextHandler(&out, nil))})
	b := mustBuffer(t, d, 16)
	before := wgpu.UncapturedErrors()
	wgpu.RaiseUncaptured(b)
	if got := wgpu.UncapturedErrors(); got != before+1 {
		t.Errorf("UncapturedErrors = %d, want %d", got, before+1)
	}
	if log := out.String(); !strings.Contains(log, "uncaptured WebGPU error") || !strings.Contains(log, "level=ERROR") {
		t.Errorf("device log = %q, want the uncaptured error at level ERROR", log)
	}
}
