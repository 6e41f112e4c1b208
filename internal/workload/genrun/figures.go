//go:build cgo || js

package genrun

import (
	"fmt"
	"slices"
	"time"

	"github.com/streamgate/streamgate/wgpu"
)

// Ms is d in milliseconds.
func Ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// MsList is each of ts in milliseconds.
func MsList(ts []time.Duration) []float64 {
	out := make([]float64, len(ts))
	for i, t := range ts {
		out[i] = Ms(t)
	}
	return out
}

// Latencies summarizes decode-step times: median, p99, min and max in ms,
// and steps per second of their total; all 0 for no times.
func Latencies(ts []time.Duration) (median, p99, lo, hi, perS float64) {
	if len(ts) == 0 {
		return
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	var total time.Duration
	for _, t := range s {
		total += t
	}
	i99 := (len(s)*99+99)/100 - 1 // the smallest time at or above 99% of the steps
	return Ms(s[len(s)/2]), Ms(s[min(i99, len(s)-1)]), Ms(s[0]), Ms(s[len(s)-1]), float64(len(s)) / total.Seconds()
}

// DescribeAdapter formats an adapter on one line.
func DescribeAdapter(i wgpu.AdapterInfo) string {
	ts := "no"
	if i.Timestamps {
		ts = "yes"
	}
	s := fmt.Sprintf("%s [%v, %v", i.Name, i.Type, i.Backend)
	if i.Driver != "" {
		s += ", " + i.Driver
	}
	return s + "], timestamps: " + ts
}
