package bench

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/streamgate/streamgate/registry"
)

// The registry suite runs one body over every implementation of impls.
// Reads run under b.RunParallel, so GOMAXPROCS n (go test -cpu n, or the
// command's -cpu) gives n parallel readers; ns/op is wall time per read
// over all readers, and ops/s their total throughput. With more readers
// than cores (-cpu 4 and 8 on a 2-core machine) the readers time-slice:
// that measures how a design behaves when a reader is preempted — a lock
// holder descheduled stalls every other reader of a lock-based design —
// not more parallelism.
//
// The read is Mode(readStream, Discard) — the launch path under a
// discarding process mode — and the read stream's override, when there is
// one, sets Execute and is the oldest live override, so the seed design's
// newest-first scan goes through all k.

// modeKs are the live override counts of BenchmarkMode.
var modeKs = []int{0, 1, 8, 64, 1024, 4096}

// readImpls are the implementations the read-only cases run: every one but
// seed-newest-first, whose reads are the seed's.
func readImpls() []namedImpl {
	var ns []namedImpl
	for _, n := range impls() {
		if n.Name != "seed-newest-first" {
			ns = append(ns, n)
		}
	}
	return ns
}

// readStream is the stream every benchmark reads.
var readStream = registry.ServiceStream{Service: 1, Stream: 1}

// otherStream returns the i-th of many streams other than readStream,
// spread over four services.
func otherStream(i int) registry.ServiceStream {
	return registry.ServiceStream{Service: registry.ServiceID(i % 4), Stream: registry.StreamID(1000 + i)}
}

// populate sets k live overrides on impl: readStream's first (Execute),
// then k-1 on other streams. It returns their handles.
func populate(impl impl, k int) []handle {
	hs := make([]handle, 0, k)
	for i := range k {
		s := readStream
		if i > 0 {
			s = otherStream(i)
		}
		hs = append(hs, impl.Set(registry.Execute, s))
	}
	return hs
}

func releaseAll(hs []handle) {
	for _, h := range hs {
		h.Release()
	}
}

// moder is what a read body needs: an impl, or atomicInt64.
type moder interface {
	Mode(registry.ServiceStream, registry.StreamMode) registry.StreamMode
}

// benchReads is the read body every Mode benchmark shares: parallel
// readers of readStream, each read checked against want.
func benchReads(b *testing.B, r moder, want registry.StreamMode) {
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
		fatalf(b, "%d reads of Mode(%v, Discard) were not %v", n, readStream, want)
	}
}

// RegistrySuite returns the registry benchmarks, each over every
// implementation, the seed design first; every case's baseline is the
// seed's case of the same Thing and k (the atomic load for
// ModeFastPathInlined):
//
//   - ModeFastPath: no live override sets the mode opposite to the
//     default, so every implementation answers from its fast path;
//     impl=atomic-int64 is a bare atomic.Int64 load behind the same
//     interface call.
//   - ModeFastPathInlined: the fast path as the launch path calls it, a
//     direct, inlined registry.Mode, against an inlined atomic load (this
//     departs from "one body over every implementation" on purpose: a call
//     through impl cannot inline).
//   - Mode/k=0,1,8,64,1024: k live overrides over many streams, the read
//     stream's the oldest; with k = 0 every implementation takes its fast
//     path.
//   - ModeChurn/k=0,8,1024: the reads of Mode with k live overrides while
//     one background goroutine, the writer, sets and releases an override
//     of another stream as fast as it can: the launch loop's readers
//     (GOMAXPROCS of them) against one writer; churns/s is how many
//     Set+Release pairs the writer got through.
//   - SetRelease/k=8,64,1024,4096: one Set and its Release (two writes)
//     with k other overrides live; parallel writers (GOMAXPROCS) contend.
//   - OpenRelease/k=4096: open 4096 overrides on distinct streams, then
//     release them oldest first; one op is the whole batch.
//   - Writers/writers=1,4: that many goroutines each set and release an
//     override of its own stream, 8 others live; ns/op is wall time per
//     Set+Release pair over all of them.
//
// seed-newest-first (the seed with newest-first removal) runs only the
// cases that write: its reads are the seed's.
func RegistrySuite() []Case {
	var l caseList
	l.addFastPathCases()
	l.addModeCases()
	l.addWriteCases()
	return l.cs
}

// caseList collects the registry suite's cases, in order.
type caseList struct{ cs []Case }

// add appends a case of thing for impl, compared with baseline's; key=v
// is its last name element unless key is "".
func (l *caseList) add(thing, impl, key string, v int, baseline string, f func(*testing.B)) {
	c := Case{Thing: thing, Impl: impl, Baseline: baseline, PerCPU: true, F: f}
	if key != "" {
		c.Key, c.Value = key, strconv.Itoa(v)
	}
	l.cs = append(l.cs, c)
}

// addFastPathCases adds ModeFastPath and ModeFastPathInlined.
func (l *caseList) addFastPathCases() {
	l.add("ModeFastPath", "atomic-int64", "", 0, "seed", func(b *testing.B) {
		benchReads(b, new(atomicInt64), registry.Discard)
	})
	for _, named := range readImpls() {
		l.add("ModeFastPath", named.Name, "", 0, "seed", func(b *testing.B) {
			impl := named.New()
			// A live override that sets the default changes nothing.
			h := impl.Set(registry.Discard, readStream)
			defer h.Release()
			benchReads(b, impl, registry.Discard)
		})
	}

	l.add("ModeFastPathInlined", "atomic-int64", "", 0, "atomic-int64", func(b *testing.B) {
		var v atomic.Int64
		b.ReportAllocs()
		var sink atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			var x int64
			for pb.Next() {
				if v.Load() != 0 { // a launch path branches on what it loads
					x++
				}
			}
			sink.Add(x)
		})
		reportOps(b)
	})
	l.add("ModeFastPathInlined", "registry", "", 0, "atomic-int64", func(b *testing.B) {
		r := registry.New()
		b.ReportAllocs()
		var sink atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			var x int64
			s := readStream // a launch path holds its stream
			for pb.Next() {
				if r.Mode(s, registry.Discard) == registry.Execute {
					x++
				}
			}
			sink.Add(x)
		})
		reportOps(b)
	})
}

// addModeCases adds Mode and ModeChurn.
func (l *caseList) addModeCases() {
	for _, named := range readImpls() {
		for _, k := range modeKs {
			l.add("Mode", named.Name, "k", k, "seed", func(b *testing.B) {
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

	for _, named := range impls() {
		for _, k := range []int{0, 8, 1024} {
			l.add("ModeChurn", named.Name, "k", k, "seed", func(b *testing.B) {
				benchChurn(b, named.New(), k)
			})
		}
	}
}

// addWriteCases adds SetRelease, OpenRelease and Writers.
func (l *caseList) addWriteCases() {
	for _, named := range impls() {
		for _, k := range []int{8, 64, 1024, 4096} {
			l.add("SetRelease", named.Name, "k", k, "seed", func(b *testing.B) {
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

	for _, named := range impls() {
		const k = 4096
		l.add("OpenRelease", named.Name, "k", k, "seed", func(b *testing.B) {
			impl := named.New()
			hs := make([]handle, k)
			b.ReportAllocs()
			for b.Loop() {
				for i := range hs {
					hs[i] = impl.Set(registry.Execute, otherStream(i))
				}
				releaseAll(hs) // oldest first
			}
			reportOps(b)
		})
	}

	for _, named := range impls() {
		for _, writers := range []int{1, 4} {
			l.add("Writers", named.Name, "writers", writers, "seed", func(b *testing.B) {
				benchWriters(b, named.New(), writers)
			})
		}
	}
}

// benchChurn is ModeChurn's body: the reads of benchReads with k live
// overrides (the read stream's Execute among them when k > 0), while one
// more goroutine, the writer, sets and releases an override of another
// stream as fast as it can; churns/s is how many Set+Release pairs it got
// through in the readers' time.
func benchChurn(b *testing.B, impl impl, k int) {
	hs := populate(impl, k)
	defer releaseAll(hs)
	var stop atomic.Bool
	var churns atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		n := int64(0)
		for i := 0; !stop.Load(); i++ {
			impl.Set(registry.Execute, otherStream(k+i%8)).Release()
			n++
		}
		churns.Store(n)
	}()
	want := registry.Discard
	if k > 0 {
		want = registry.Execute
	}
	benchReads(b, impl, want)
	stop.Store(true)
	<-done
	reportRate(b, float64(churns.Load()), "churns/s")
}

// benchWriters is the Writers body: writers goroutines, each setting and
// releasing an override of its own stream, b.N pairs in all, with 8 other
// overrides live. ns/op is wall time per Set+Release pair over all
// writers.
func benchWriters(b *testing.B, impl impl, writers int) {
	hs := populate(impl, 8)
	defer releaseAll(hs)
	b.ReportAllocs()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := registry.ServiceStream{Service: 7, Stream: registry.StreamID(w)}
			for next.Add(1) <= int64(b.N) {
				impl.Set(registry.Execute, s).Release()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	reportOps(b)
}
