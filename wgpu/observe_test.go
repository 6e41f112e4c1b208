//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"slices"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

func TestDevicesAndCounts(t *testing.T) {
	d := openTestDevice(t)
	if !slices.Contains(wgpu.Devices(), d) {
		t.Fatalf("Devices() does not list an open device")
	}
	c0 := d.Stats()
	b := mustBuffer(t, d, 16)
	if err := d.Launch(gpu.NewStreamID(), incKernel, [3]uint32{1, 1, 1}, b); err != nil {
		t.Fatal(err)
	}
	if _, err := wgpu.Read[byte](context.Background(), b, 0, int(b.Size())); err != nil {
		t.Fatal(err)
	}
	c := d.Stats()
	if c.BuffersLive != c0.BuffersLive+1 || c.StreamsLive != c0.StreamsLive+1 || c.Compiles != c0.Compiles+1 || c.PipelinesCached != c0.PipelinesCached+1 {
		t.Errorf("Stats() = %+v after a buffer, a stream and a kernel, was %+v", c, c0)
	}
	b.Release()
	if got := d.Stats().BuffersLive; got != c0.BuffersLive {
		t.Errorf("Stats().BuffersLive = %d after Release, want %d", got, c0.BuffersLive)
	}
	d.Close()
	if slices.Contains(wgpu.Devices(), d) {
		t.Errorf("Devices() lists a closed device")
	}
	if got := d.Stats(); got.BuffersLive != 0 || got.PipelinesCached != 0 {
		t.Errorf("Stats() = %+v after Close, want nothing held", got)
	}
}

func TestEnumStrings(t *testing.T) {
	tests := []struct {
		v    interface{ String() string }
		want string
	}{
		{wgpu.PowerPreferenceDefault, "Default"},
		{wgpu.PowerPreferenceLowPower, "LowPower"},
		{wgpu.PowerPreferenceHighPerformance, "HighPerformance"},
		{wgpu.PowerPreference(9), "Unknown"},
		{wgpu.LogOff, "Off"},
		{wgpu.LogWarn, "Warn"},
		{wgpu.LogTrace, "Trace"},
		{wgpu.LogLevel(9), "Unknown"},
	}
	for _, tc := range tests {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.v, got, tc.want)
		}
	}
}
