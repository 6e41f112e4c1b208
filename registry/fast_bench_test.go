package registry

import (
	"strconv"
	"testing"
)

// slowModeViaCall is slowMode as one call to snapshot.mode: what
// BenchmarkSlowMode compares slowMode's written-out copy with.
//
//go:noinline
func (r *Registry) slowModeViaCall(s ServiceStream, def StreamMode) StreamMode {
	return r.state.Load().mode(s, def)
}

// BenchmarkSlowMode is a Mode read that leaves the fast word, with k
// Execute overrides live, the read stream's among them: impl=written-out is
// Registry.slowMode, which carries snapshot.mode's body written out;
// impl=call is the same read through a call to snapshot.mode. It is what
// keeps the copy (see slowMode). Interleave the two with -count.
func BenchmarkSlowMode(b *testing.B) {
	for _, k := range []int{1, 8, 1024} {
		r := New()
		os := make([]*Override, k)
		for i := range os {
			os[i] = r.Set(Execute, ServiceStream{Service: 1, Stream: StreamID(i)})
		}
		s := ServiceStream{Service: 1, Stream: 0}
		for _, impl := range []string{"written-out", "call"} {
			read := r.slowMode
			if impl == "call" {
				read = r.slowModeViaCall
			}
			b.Run("k="+strconv.Itoa(k)+"/impl="+impl, func(b *testing.B) {
				n := 0
				for b.Loop() {
					if read(s, Discard) == Execute {
						n++
					}
				}
				if n == 0 {
					b.Fatalf("no read of %v saw its Execute override", s)
				}
			})
		}
		for _, o := range os {
			o.Release()
		}
	}
}
