//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// capture records launch calls into a graph for stream.
func capture(t testing.TB, d *wgpu.Device, stream gpu.StreamID, launch func(r *wgpu.GraphRecorder) error) *wgpu.Graph {
	t.Helper()
	r, err := d.NewGraphRecorder(stream)
	if err != nil {
		t.Fatal(err)
	}
	if err := launch(r); err != nil {
		t.Fatalf("capture: %v", err)
	}
	g, err := r.FinishGraph()
	if err != nil {
		t.Fatalf("Finish = %v", err)
	}
	return g
}

func readU32(t testing.TB, b *wgpu.Buffer, n int) []uint32 {
	t.Helper()
	got, err := wgpu.Read[uint32](context.Background(), b, 0, n)
	if err != nil {
		t.Fatalf("Read = %v", err)
	}
	return got
}

func allEqual(t testing.TB, what string, got []uint32, want uint32) {
	t.Helper()
	for i, v := range got {
		if v != want {
			t.Fatalf("%s[%d] = %d, want %d", what, i, v, want)
		}
	}
}

// TestGraphReplay captures three launches on two buffers and replays the
// graph: a capture executes nothing, each replay runs every launch once in
// order, an upload before a replay is seen by it, and a read-back after it
// sees its results, with launches recorded around replays kept in order.
func TestGraphReplay(t *testing.T) {
	d := openTestDevice(t)
	const n, stream = 256, 5
	x, y := mustBuffer(t, d, 4*n), mustBuffer(t, d, 4*n)
	wg := [3]uint32{n / 64, 1, 1}
	compiles := d.Stats().Compiles
	g := capture(t, d, stream, func(r *wgpu.GraphRecorder) error {
		return errors.Join(r.Launch(incKernel, wg, x), r.Launch(incKernel, wg, y), r.Launch(incKernel, wg, x))
	})
	if g.Len() != 3 || g.Stream() != stream || g.ID() == 0 {
		t.Fatalf("graph: Len %d, Stream %d, ID %d; want 3, %d, non-zero", g.Len(), g.Stream(), g.ID(), stream)
	}
	if d.Stats().Compiles != compiles+1 {
		t.Errorf("Compiles after capture = %d, want %d (the capture compiles its kernel)", d.Stats().Compiles, compiles+1)
	}
	if got := wgpu.Pending(d, stream); got != 0 {
		t.Fatalf("Pending after capture = %d, want 0: a capture records nothing on the stream", got)
	}
	allEqual(t, "x after capture", readU32(t, x, n), 0)

	for i := 1; i <= 3; i++ {
		if err := g.Replay(); err != nil {
			t.Fatalf("Replay %d = %v", i, err)
		}
	}
	if got := wgpu.Pending(d, stream); got != 9 {
		t.Errorf("Pending after 3 replays = %d, want 9", got)
	}
	allEqual(t, "x after 3 replays", readU32(t, x, n), 6) // the read-back flushed the replays
	allEqual(t, "y after 3 replays", readU32(t, y, n), 3)

	// An upload between replays is seen by the next one; launches on the
	// stream interleave with replays in order.
	if err := wgpu.Write(x, 0, make([]uint32, n)); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(stream, incKernel, wg, x); err != nil {
		t.Fatal(err)
	}
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	if err := wgpu.Write(y, 0, make([]uint32, n)); err != nil { // flushes the replay first
		t.Fatal(err)
	}
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	allEqual(t, "x", readU32(t, x, n), 5)
	allEqual(t, "y", readU32(t, y, n), 1)
}

// TestGraphBatches replays a graph across the MaxBatch threshold: the
// batch is submitted when it reaches MaxBatch launches, counting a
// replay's launches one by one.
func TestGraphBatches(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{MaxBatch: 10})
	const stream = 6
	x := mustBuffer(t, d, 256)
	g := capture(t, d, stream, func(r *wgpu.GraphRecorder) error {
		for range 4 {
			if err := r.Launch(incKernel, [3]uint32{1, 1, 1}, x); err != nil {
				return err
			}
		}
		return nil
	})
	for i := range 5 {
		if err := g.Replay(); err != nil {
			t.Fatalf("Replay %d = %v", i, err)
		}
	}
	// 4, 8, 12 → submitted at 12; then 4, 8.
	if got := wgpu.Pending(d, stream); got != 8 {
		t.Errorf("Pending = %d, want 8", got)
	}
	allEqual(t, "x", readU32(t, x, 64), 20)
}

// TestGraphCaptureErrors checks that a capture's launch errors are those
// Launch returns (type and message), that a failed launch records nothing,
// and that Finish refuses a graph whose buffer was released meanwhile.
func TestGraphCaptureErrors(t *testing.T) {
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	k := gpu.NewKernel("count", countWGSL, "main")
	small := mustBuffer(t, d, 4)
	cases := []struct {
		name string
		k    *gpu.Kernel
		wg   [3]uint32
		bufs []gpu.Buffer
	}{
		{"nil kernel", nil, [3]uint32{1, 1, 1}, []gpu.Buffer{x}},
		{"too few buffers", k, [3]uint32{1, 1, 1}, []gpu.Buffer{x}},
		{"undersized", k, [3]uint32{1, 1, 1}, []gpu.Buffer{x, small}},
		{"oversized dispatch", k, [3]uint32{d.Limits().MaxComputeWorkgroupsPerDimension + 1, 1, 1}, []gpu.Buffer{x, mustBuffer(t, d, 256)}},
		{"aliased read_write", k, [3]uint32{1, 1, 1}, []gpu.Buffer{x, x}},
		{"foreign buffer", k, [3]uint32{1, 1, 1}, []gpu.Buffer{x, fakeBuffer{}}},
		{"bad source", gpu.NewKernel("bad", "fn main( {", "main"), [3]uint32{1, 1, 1}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lerr := d.Launch(9, tc.k, tc.wg, tc.bufs...)
			r, err := d.NewGraphRecorder(9)
			if err != nil {
				t.Fatal(err)
			}
			cerr := r.Launch(tc.k, tc.wg, tc.bufs...)
			if lerr == nil || cerr == nil {
				t.Fatalf("Launch = %v, capture Launch = %v; want both to fail", lerr, cerr)
			}
			le, ce := asError(t, lerr), asError(t, cerr)
			if le.Type != ce.Type || le.Message != ce.Message {
				t.Errorf("capture error %v (%v), want Launch's %v (%v)", ce.Message, ce.Type, le.Message, le.Type)
			}
			if r.Len() != 0 {
				t.Errorf("Len after a failed launch = %d, want 0", r.Len())
			}
		})
	}
	t.Run("released before Finish", func(t *testing.T) {
		b := mustBuffer(t, d, 256)
		r, _ := d.NewGraphRecorder(9)
		if err := r.Launch(incKernel, [3]uint32{1, 1, 1}, b); err != nil {
			t.Fatal(err)
		}
		b.Release()
		if g, err := r.FinishGraph(); err == nil || !strings.Contains(err.Error(), "buffer is released") {
			t.Fatalf("Finish = %v, %v; want an error naming the released buffer", g, err)
		}
		if _, err := r.FinishGraph(); err == nil {
			t.Fatal("second Finish = nil, want an error")
		}
	})
	if got := wgpu.Pending(d, 9); got != 0 {
		t.Errorf("Pending = %d, want 0", got)
	}
}

// TestGraphDeadBuffers replays graphs whose buffer was released, recycled,
// or recycled and handed out again: each replay is an error naming the
// launch and binding, and runs nothing (a counter bound first stays put).
func TestGraphDeadBuffers(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		kill func(d *wgpu.Device, b *wgpu.Buffer)
		want string
	}{
		{"released", func(d *wgpu.Device, b *wgpu.Buffer) { b.Release() }, "buffer is released"},
		{"recycled", func(d *wgpu.Device, b *wgpu.Buffer) { b.Recycle() }, "buffer is recycled"},
		{"handed out again", func(d *wgpu.Device, b *wgpu.Buffer) {
			b.Recycle()
			if err := d.Sync(ctx, 1); err != nil {
				t.Fatal(err)
			}
			for i := 0; ; i++ {
				nb, err := d.TempBuffer(b.Size(), b.Usage())
				if err != nil {
					t.Fatal(err)
				}
				if nb == b {
					return
				}
				if i == 100 {
					t.Fatal("TempBuffer never handed the recycled buffer out again")
				}
				time.Sleep(10 * time.Millisecond)
				nb.Recycle()
			}
		}, "recycled since the capture"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := openTestDevice(t)
			c := mustBuffer(t, d, 4)
			b, err := d.TempBuffer(256, 0)
			if err != nil {
				t.Fatal(err)
			}
			k := gpu.NewKernel("count", countWGSL, "main")
			g := capture(t, d, 2, func(r *wgpu.GraphRecorder) error {
				return errors.Join(r.Launch(k, [3]uint32{1, 1, 1}, c, mustBuffer(t, d, 256)), r.Launch(k, [3]uint32{1, 1, 1}, c, b))
			})
			if err := g.Replay(); err != nil {
				t.Fatal(err)
			}
			if err := d.Sync(ctx, 2); err != nil {
				t.Fatal(err)
			}
			tc.kill(d, b)
			for _, f := range []func() error{g.Check, g.Replay} {
				err := f()
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "launch 1 (count(main))") || !strings.Contains(err.Error(), "@binding(1)") {
					t.Fatalf("after the buffer is %s: %v, want an error naming launch 1, its binding and %q", tc.name, err, tc.want)
				}
			}
			if got := wgpu.Pending(d, 2); got != 0 {
				t.Errorf("Pending = %d, want 0: a refused replay records nothing", got)
			}
			allEqual(t, "counter", readU32(t, c, 1), 2)
		})
	}
}

// TestGraphRelease checks that a released graph refuses to replay, that
// the replays it recorded before still run, and that the device's Close
// makes replays return ErrClosed.
func TestGraphRelease(t *testing.T) {
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	g := capture(t, d, 3, func(r *wgpu.GraphRecorder) error { return r.Launch(incKernel, [3]uint32{1, 1, 1}, x) })
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	g.Release()
	g.Release()
	if err := g.Replay(); err == nil || !strings.Contains(err.Error(), "is released") {
		t.Fatalf("Replay after Release = %v, want an error saying the graph is released", err)
	}
	if got := wgpu.Pending(d, 3); got != 0 {
		t.Errorf("Pending after Release = %d, want 0 (Release submits the graph's pending replays)", got)
	}
	allEqual(t, "x", readU32(t, x, 64), 1)
	if wgpu.Users(x) != 0 {
		t.Errorf("Users(x) = %d, want 0", wgpu.Users(x))
	}

	g2 := capture(t, d, 3, func(r *wgpu.GraphRecorder) error { return r.Launch(incKernel, [3]uint32{1, 1, 1}, x) })
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func() error{g2.Replay, g2.Check} {
		if err := f(); !errors.Is(err, wgpu.ErrClosed) {
			t.Errorf("after Close: %v, want ErrClosed", err)
		}
	}
	g2.Release()
	if _, err := d.NewGraphRecorder(3); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("Capture after Close = %v, want ErrClosed", err)
	}
}

// TestGraphReplayAllocatesNothing checks that a replay, and a check, do
// not allocate.
func TestGraphReplayAllocatesNothing(t *testing.T) {
	d := openTestDevice(t)
	x, y := mustBuffer(t, d, 256), mustBuffer(t, d, 256)
	g := capture(t, d, 1, func(r *wgpu.GraphRecorder) error {
		return errors.Join(r.Launch(incKernel, [3]uint32{1, 1, 1}, x), r.Launch(incKernel, [3]uint32{1, 1, 1}, y))
	})
	for range 10 {
		g.Replay()
	}
	d.Flush(1)
	if n := testing.AllocsPerRun(200, func() {
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Replay allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(200, func() { g.Check() }); n != 0 {
		t.Errorf("Check allocates %v times, want 0", n)
	}
	if err := d.Sync(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
}

// TestGraphRaces replays graphs from several goroutines while buffers are
// released, graphs released and the device closed: every call returns nil
// or an error, none crashes (run under -race and cgocheck2 in make test).
func TestGraphRaces(t *testing.T) {
	for round := range 4 {
		d := openTestDevice(t)
		var bufs []*wgpu.Buffer
		var graphs []*wgpu.Graph
		for i := range 4 {
			b := mustBuffer(t, d, 256)
			bufs = append(bufs, b)
			graphs = append(graphs, capture(t, d, gpu.StreamID(1+i%2), func(r *wgpu.GraphRecorder) error {
				return errors.Join(r.Launch(incKernel, [3]uint32{1, 1, 1}, b), r.Launch(incKernel, [3]uint32{1, 1, 1}, bufs[0]))
			}))
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				g := graphs[i%len(graphs)]
				for {
					select {
					case <-stop:
						return
					default:
					}
					runtime.Gosched() // without preemption (js/wasm), let the other goroutines run
					g.Replay()
					if i%3 == 0 {
						d.Flush(g.Stream())
					}
					if i%2 == 0 {
						wgpu.Read[uint32](context.Background(), bufs[i%len(bufs)], 0, 1)
					}
				}
			}()
		}
		time.Sleep(20 * time.Millisecond)
		bufs[3].Release()
		graphs[2].Release()
		time.Sleep(20 * time.Millisecond)
		if round%2 == 0 {
			bufs[0].Release()
		}
		time.Sleep(10 * time.Millisecond)
		d.Close()
		close(stop)
		wg.Wait()
		for _, g := range graphs {
			if err := g.Replay(); !errors.Is(err, wgpu.ErrClosed) {
				t.Fatalf("Replay after Close = %v, want ErrClosed", err)
			}
		}
	}
}
