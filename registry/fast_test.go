package registry

import (
	"math/rand/v2"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/internal/low/spin"
)

// checkFast fails unless the fast word claims no more than sn: each quiet
// bit it has, sn has, and a Resolve answer it holds is sn's.
func checkFast(t *testing.T, w uint64, sn *snapshot) {
	t.Helper()
	if q := uint8(w >> 8); q&^sn.quiet != 0 {
		t.Fatalf("fast word quiet bits %02b, snapshot %02b (seq %d)", q, sn.quiet, sn.seq)
	}
	if m := uint8(w); m != 0 && (StreamMode(m-1) != sn.def || sn.quiet>>sn.def&1 == 0) {
		t.Fatalf("fast word answers Resolve with %d, snapshot default %v, quiet %02b", m-1, sn.def, sn.quiet)
	}
}

// TestFastWord: under concurrent writers the fast word never claims more
// than the snapshot it is read with, and once the writers stop it describes
// the last snapshot exactly, so the fast path comes back.
func TestFastWord(t *testing.T) {
	r := New()
	if got, want := r.fast.Load(), fastWord(r.state.Load()); got != want {
		t.Fatalf("New: fast word %#x, want %#x", got, want)
	}
	stop := make(chan struct{})
	var checker sync.WaitGroup
	checker.Add(1)
	go func() {
		defer checker.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			spin.Yield()
			// Read the word between two loads of the same snapshot: the
			// word was current while that snapshot was.
			sn := r.state.Load()
			w := r.fast.Load()
			if r.state.Load() == sn {
				checkFast(t, w, sn)
			}
		}
	}()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			var open []*Override
			for i := 0; i < 3000; i++ {
				switch rng.IntN(5) {
				case 0, 1:
					open = append(open, r.Set(StreamMode(rng.IntN(2)), ServiceStream{Service: 1, Stream: StreamID(rng.IntN(4))}))
				case 2, 3:
					if len(open) > 0 {
						j := rng.IntN(len(open))
						open[j].Release()
						open = append(open[:j], open[j+1:]...)
					}
				case 4:
					r.SetProcessMode(ProcessMode(rng.IntN(3)))
				}
				if i%64 == 0 {
					runtime.Gosched()
				}
			}
			for _, o := range open {
				o.Release()
			}
		}()
	}
	wg.Wait()
	close(stop)
	checker.Wait()
	if got, want := r.fast.Load(), fastWord(r.state.Load()); got != want {
		t.Fatalf("quiescent: fast word %#x, want %#x: the fast path did not come back", got, want)
	}
	if r.fast.Load()&fastQuiet != 3<<8 {
		t.Fatalf("no override live, yet the fast word's quiet bits are %#x", r.fast.Load()&fastQuiet)
	}
}

// TestFastPathInlines guards that Mode and Resolve stay inlinable: they sit
// at the inliner's budget, and losing it triples the fast path's cost. On
// 32-bit platforms a 64-bit atomic load is a call, and they do not inline.
func TestFastPathInlines(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("the fast path inlines on 64-bit platforms")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool in PATH")
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, fn := range []string{"(*Registry).Mode", "(*Registry).Resolve"} {
		if !strings.Contains(string(out), "can inline "+fn+"\n") {
			t.Errorf("%s no longer inlines (go build -gcflags=-m=2 says why)", fn)
		}
	}
}

// TestFastWordWaitsForPublish: a writer that finishes (syncFast) while
// another has lowered the fast word for a snapshot it has yet to publish
// must leave the word lowered: raising it to the published snapshot's would
// let the fast path answer the default once the other's override is live.
// The tag is what tells it; the second case shows the check fires when the
// word is raised regardless (a broken syncFast).
func TestFastWordWaitsForPublish(t *testing.T) {
	s := ServiceStream{Service: 1, Stream: 1}
	for _, broken := range []bool{false, true} {
		r := New()
		old := r.state.Load()
		next := old.withSet(s, Execute)
		next.seq = old.seq + 1
		r.lowerFast(next)
		if broken {
			r.fast.Store(fastWord(r.state.Load())) // raise, tag or no tag
		} else {
			r.syncFast()
		}
		if !r.state.CompareAndSwap(old, next) {
			t.Fatal("lost the compare-and-swap with no other writer")
		}
		got := r.Mode(s, Discard)
		switch {
		case !broken && got != Execute:
			t.Errorf("Mode(%v, Discard) = %v, want Execute: a finishing writer raised the fast word over a pending publish", s, got)
		case broken && got != Discard:
			t.Errorf("broken syncFast: Mode(%v, Discard) = %v, want the wrong answer Discard: the check proves nothing", s, got)
		}
		if !broken {
			checkFast(t, r.fast.Load(), next)
			r.syncFast()
			if w, want := r.fast.Load(), fastWord(next); w != want {
				t.Errorf("after syncFast: fast word %#x, want %#x", w, want)
			}
		}
	}
}
