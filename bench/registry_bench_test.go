package bench_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/streamgate/streamgate/bench"
	"github.com/streamgate/streamgate/registry"
)

// The benchmarks run one body over every implementation, named
// Benchmark<Thing>/impl=<name>/k=<n> for `benchstat -col /impl`. Reads run
// under b.RunParallel, so -cpu 1,2 gives 1 and 2 parallel readers; ns/op is
// wall time per read over all readers, and ops/s their total throughput.
//
// The read is Mode(readStream, Discard) — the launch path under a
// discarding process mode — and the read stream's override, when there is
// one, sets Execute and is the oldest live override, so the seed design's
// newest-first scan goes through all k.

// readStream is the stream every benchmark reads.
var readStream = registry.ServiceStream{Service: 1, Stream: 1}

// otherStream returns the i-th of many streams other than readStream,
// spread over four services.
func otherStream(i int) registry.ServiceStream {
	return registry.ServiceStream{Service: registry.ServiceID(i % 4), Stream: registry.StreamID(1000 + i)}
}

// populate sets k live overrides on impl: readStream's first (Execute),
// then k-1 on other streams. It returns their handles.
func populate(impl bench.Impl, k int) []bench.Handle {
	hs := make([]bench.Handle, 0, k)
	for i := range k {
		s := readStream
		if i > 0 {
			s = otherStream(i)
		}
		hs = append(hs, impl.Set(registry.Execute, s))
	}
	return hs
}

func releaseAll(hs []bench.Handle) {
	for _, h := range hs {
		h.Release()
	}
}

// reportOps reports the ops/s metric: b.N operations over the timed
// interval.
func reportOps(b *testing.B) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(b.N)/s, "ops/s")
	}
}

// benchReads is the read body every Mode benchmark shares: parallel
// readers of readStream, each read checked against want.
func benchReads(b *testing.B, r interface {
	Mode(registry.ServiceStream, registry.StreamMode) registry.StreamMode
}, want registry.StreamMode) {
	b.Helper()
	b.ReportAllocs()
	var wrong atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n := 0
		s := readStream // a launch path holds its stream
		for pb.Next() {
			if r.Mode(s, registry.Discard) != want {
				n++
			}
		}
		wrong.Add(int64(n))
	})
	b.StopTimer()
	reportOps(b)
	if n := wrong.Load(); n > 0 {
		b.Fatalf("%d reads of Mode(%v, Discard) were not %v", n, readStream, want)
	}
}

// BenchmarkModeFastPath: no live override sets the mode opposite to the
// default, so every implementation answers from its fast path;
// impl=atomic-int64 is a bare atomic.Int64 load (and test) behind the same
// interface call.
func BenchmarkModeFastPath(b *testing.B) {
	b.Run("impl=atomic-int64", func(b *testing.B) {
		benchReads(b, new(bench.AtomicInt64), registry.Discard)
	})
	for _, named := range bench.Impls() {
		b.Run("impl="+named.Name, func(b *testing.B) {
			impl := named.New()
			// A live override that sets the default changes nothing.
			h := impl.Set(registry.Discard, readStream)
			defer h.Release()
			benchReads(b, impl, registry.Discard)
		})
	}
}

// BenchmarkModeFastPathInlined is the fast path as the launch path calls
// it: a direct, inlined call rather than one through [bench.Impl] (a generic
// body would not help: its method calls go through a dictionary). It departs
// from "one body over every implementation" on purpose, to check that
// registry.Mode's fast path inlines to about one atomic load.
func BenchmarkModeFastPathInlined(b *testing.B) {
	b.Run("impl=atomic-int64", func(b *testing.B) {
		var v atomic.Int64
		b.ReportAllocs()
		var sink atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			var x int64
			for pb.Next() {
				x += v.Load()
			}
			sink.Add(x)
		})
		reportOps(b)
	})
	b.Run("impl=registry", func(b *testing.B) {
		r := registry.New()
		b.ReportAllocs()
		var sink atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			var x int64
			s := readStream // a launch path holds its stream
			for pb.Next() {
				x += int64(r.Mode(s, registry.Discard))
			}
			sink.Add(x)
		})
		reportOps(b)
	})
}

var ks = []int{0, 1, 8, 64, 1024}

// BenchmarkMode: k live overrides over many streams, readStream's the
// oldest; with k = 0 every implementation takes its fast path.
func BenchmarkMode(b *testing.B) {
	for _, named := range bench.Impls() {
		for _, k := range ks {
			b.Run(fmt.Sprintf("impl=%s/k=%d", named.Name, k), func(b *testing.B) {
				impl := named.New()
				hs := populate(impl, k)
				defer releaseAll(hs)
				want := registry.Discard
				if k > 0 {
					want = registry.Execute
				}
				benchReads(b, impl, want)
			})
		}
	}
}

// BenchmarkModeChurn: the reads of BenchmarkMode at k = 8 while one
// background goroutine sets and releases an override of another stream as
// fast as it can. churns/s is how many Set+Release pairs the writer got
// through meanwhile.
func BenchmarkModeChurn(b *testing.B) {
	const k = 8
	for _, named := range bench.Impls() {
		b.Run(fmt.Sprintf("impl=%s/k=%d", named.Name, k), func(b *testing.B) {
			impl := named.New()
			hs := populate(impl, k)
			defer releaseAll(hs)
			var stop atomic.Bool
			var churns atomic.Int64
			done := make(chan struct{})
			go func() {
				defer close(done)
				n := int64(0)
				for i := 0; !stop.Load(); i++ {
					impl.Set(registry.Execute, otherStream(k+i%k)).Release()
					n++
				}
				churns.Store(n)
			}()
			benchReads(b, impl, registry.Execute)
			stop.Store(true)
			<-done
			if s := b.Elapsed().Seconds(); s > 0 {
				b.ReportMetric(float64(churns.Load())/s, "churns/s")
			}
		})
	}
}

// BenchmarkSetRelease: one Set and its Release (two writes) with k other
// overrides live; parallel writers under -cpu 2 contend.
func BenchmarkSetRelease(b *testing.B) {
	for _, named := range bench.Impls() {
		for _, k := range []int{8, 64} {
			b.Run(fmt.Sprintf("impl=%s/k=%d", named.Name, k), func(b *testing.B) {
				impl := named.New()
				hs := populate(impl, k)
				defer releaseAll(hs)
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						impl.Set(registry.Execute, readStream).Release()
					}
				})
				b.StopTimer()
				reportOps(b)
			})
		}
	}
}
