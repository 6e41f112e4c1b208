//go:build cgo

package bench

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/streamgate/streamgate/client"
	"github.com/streamgate/streamgate/internal/workload/rawwgpu"
	"github.com/streamgate/streamgate/registry"
)

// atFloorCases are the AtFloor cases: the executed launch through a client
// (impl=client) and the replayed one (impl=client-replay), each against
// the C floor chunk by chunk, kernels=1 and 3 (see atFloor).
func atFloorCases(e *LaunchEnv) []Case {
	var cs []Case
	for _, replay := range []bool{false, true} {
		impl := "client"
		if replay {
			impl = "client-replay"
		}
		for _, k := range []int{1, rawwgpu.Variants} {
			cs = append(cs, Case{Thing: "AtFloor", Impl: impl, Key: "kernels", Value: strconv.Itoa(k),
				F: func(b *testing.B) { e.atFloor(b, k, replay) }})
		}
	}
	return cs
}

// atFloor times ExecutedLaunch's loop through a client (or, with replay,
// Replay's) against the C floor's, chunk by chunk: each chunk of
// recordChunk launches is recorded and flushed through the client, timed
// as ExecutedLaunch times it, and then, with the benchmark's timer
// stopped, synced and run by the C floor (the same kernels and count,
// timed by the child). Two separate cases meet the machine in different
// states (on this 2-core machine a case's median moves by a quarter from
// one round to the next); chunks a few hundred microseconds apart meet it
// in the same one. ns/op is the client's per launch; floor-ns/launch is
// the floor's over the same chunks; x-floor is the median over the chunks
// of the client's time over the floor's, and x-floor-p10 and x-floor-p90
// are its tenth and ninetieth percentiles.
func (e *LaunchEnv) atFloor(b *testing.B, kernels int, replay bool) {
	if err := e.startFloor(); err != nil {
		fatalf(b, "%v", err)
	}
	c := e.newClient(registry.ProcessExecute)
	defer c.Close()
	ctx := context.Background()
	launch := func(i int) error { v := i % kernels; return c.Launch(e.variants[v], none, e.bufs[v]) }
	if replay {
		g, err := e.captureAlternating(c, kernels)
		if err != nil {
			fatalf(b, "Capture: %v", err)
		}
		defer g.Release()
		launch = func(i int) error {
			if i%replayGraphLen != 0 {
				return nil
			}
			return c.Replay(g)
		}
	}
	ratios := make([]float64, 0, b.N/recordChunk+1)
	var floorNS int64
	b.ReportAllocs()
	b.ResetTimer()
	for n := b.N; n > 0; {
		m := min(n, recordChunk)
		count := m // the launches the chunk runs: whole replays
		if replay {
			count = (m + replayGraphLen - 1) / replayGraphLen * replayGraphLen
		}
		t0 := time.Now()
		for i := range m {
			if err := launch(i); err != nil {
				fatalf(b, "launch: %v", err)
			}
		}
		if err := c.Flush(); err != nil {
			fatalf(b, "Flush: %v", err)
		}
		ns := time.Since(t0).Nanoseconds()
		b.StopTimer()
		if err := c.Sync(ctx); err != nil {
			fatalf(b, "Sync: %v", err)
		}
		fns, err := e.floor.Run(kernels, count)
		if err != nil {
			fatalf(b, "%v", err)
		}
		floorNS += fns
		ratios = append(ratios, float64(ns)/float64(fns))
		n -= m
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(ratios)
	b.ReportMetric(float64(floorNS)/float64(b.N), "floor-ns/launch")
	b.ReportMetric(ratios[len(ratios)/2], "x-floor")
	b.ReportMetric(ratios[len(ratios)/10], "x-floor-p10")
	b.ReportMetric(ratios[len(ratios)*9/10], "x-floor-p90")
}

// captureAlternating captures replayGraphLen launches through c, cycling
// through kernels of e's variants, each with its own buffer.
func (e *LaunchEnv) captureAlternating(c *client.Client, kernels int) (*client.Graph, error) {
	return c.Capture(func() error {
		for i := range replayGraphLen {
			v := i % kernels
			if err := c.Launch(e.variants[v], none, e.bufs[v]); err != nil {
				return err
			}
		}
		return nil
	})
}
