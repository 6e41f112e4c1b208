//go:build js && wasm

package wgpu_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// BenchmarkWeb measures, in the page, the cost of recording a launch:
// n launches of a one-workgroup kernel (alternating two buffers, so each
// launch sets its bind group) submitted once, three ways in interleaved
// rounds (A B C A B C …):
//
//   - impl=go: Device.Launch n times, then Flush (checks, the bind group
//     cache and the command list in Go; one JS call encodes and submits);
//   - impl=js: the same setPipeline/setBindGroup/dispatchWorkgroups loop
//     in plain JavaScript, in one call;
//   - impl=rec: the Go side of impl=go alone, Device.Launch n times (the
//     next round's Sync, untimed, submits them);
//   - impl=replay: a graph of the same n launches, captured once, replayed
//     and flushed.
//
// The GPU's work is waited for (Sync) outside the timed part of each
// round. It reports each way's median ns/launch and the ratios to plain
// JS, and logs the medians with their min–max.
//
//	STREAMGATE_REQUIRE_ADAPTER=1 GOOS=js GOARCH=wasm go test -exec .tools/bin/wasmexec -run '^$' -bench BenchmarkWeb -benchtime 1x ./wgpu
func BenchmarkWeb(b *testing.B) {
	const n = 10000
	rounds := 31
	d := openTestDevice(b, wgpu.Options{MaxBatch: 2 * n})
	ctx := context.Background()
	bufs := [2]*wgpu.Buffer{mustBuffer(b, d, 256), mustBuffer(b, d, 256)}
	k := incKernel
	s := gpu.NewStreamID()
	plain, err := wgpu.PlainJSLaunches(d, k, n, bufs)
	if err != nil {
		b.Fatal(err)
	}
	r, err := d.NewGraphRecorder(s)
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := r.Launch(k, [3]uint32{1, 1, 1}, bufs[i&1]); err != nil {
			b.Fatal(err)
		}
	}
	g, err := r.FinishGraph()
	if err != nil {
		b.Fatal(err)
	}
	defer g.Release()
	impls := []struct {
		name string
		run  func() error
	}{
		{"go", func() error {
			for i := range n {
				if err := d.Launch(s, k, [3]uint32{1, 1, 1}, bufs[i&1]); err != nil {
					return err
				}
			}
			return d.Flush(s)
		}},
		{"js", func() error { plain(); return nil }},
		{"rec", func() error {
			for i := range n {
				if err := d.Launch(s, k, [3]uint32{1, 1, 1}, bufs[i&1]); err != nil {
					return err
				}
			}
			return nil
		}},
		{"replay", func() error {
			if err := g.Replay(); err != nil {
				return err
			}
			return d.Flush(s)
		}},
	}
	times := make([][]float64, len(impls))
	for range b.N {
		for round := range rounds + 1 {
			for i, im := range impls {
				if err := d.Sync(ctx, s); err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				if err := im.run(); err != nil {
					b.Fatal(err)
				}
				el := time.Since(t0)
				if round > 0 { // the first round warms up
					times[i] = append(times[i], float64(el.Nanoseconds())/n)
				}
			}
		}
	}
	if err := d.Sync(ctx, s); err != nil {
		b.Fatal(err)
	}
	for _, buf := range bufs { // every launch ran: each buffer got half of them, every round
		got, err := wgpu.Read[uint32](ctx, buf, 0, 1)
		if err != nil {
			b.Fatal(err)
		}
		rounds := uint32(b.N * (rounds + 1))
		if want := rounds * 4 * n / 2; got[0] != want {
			b.Fatalf("x[0] = %d, want %d (every launch of the three ways, half on each buffer)", got[0], want)
		}
	}
	med, lo := make([]float64, len(impls)), make([]float64, len(impls))
	for i, im := range impls {
		ts := slices.Clone(times[i])
		slices.Sort(ts)
		med[i], lo[i] = ts[len(ts)/2], ts[0]
		b.ReportMetric(med[i], "ns/launch-"+im.name)
		b.Logf("impl=%s: %.0f ns/launch (min %.0f, max %.0f; %d rounds of %d launches)", im.name, med[i], ts[0], ts[len(ts)-1], len(ts), n)
	}
	b.ReportMetric(med[0]/med[1], "go/js")
	b.ReportMetric(med[3]/med[1], "replay/js")
	b.Logf("medians: go/js = %s, replay/js = %s; minimums: go/js = %s, replay/js = %s",
		fmt.Sprintf("%.2fx", med[0]/med[1]), fmt.Sprintf("%.2fx", med[3]/med[1]), fmt.Sprintf("%.2fx", lo[0]/lo[1]), fmt.Sprintf("%.2fx", lo[3]/lo[1]))
}
