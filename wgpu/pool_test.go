//go:build cgo

package wgpu_test

import (
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// TestReadIntoSteadyState checks that once warm, a loop that
// uploads, launches and reads back into its own slice creates no GPU
// buffer, and ReadInto allocates nothing.
func TestReadIntoSteadyState(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	const n = 1 << 14
	x, err := wgpu.NewBufferFrom(d, 0, make([]uint32, n))
	if err != nil {
		t.Fatal(err)
	}
	src := seq(n)
	dst := make([]uint32, n)
	step := func() {
		if err := wgpu.Write(x, 0, src); err != nil {
			t.Fatal(err)
		}
		if err := d.Launch(1, incKernel, [3]uint32{n / 64, 1, 1}, x); err != nil {
			t.Fatal(err)
		}
		if err := wgpu.ReadInto(ctx, x, 0, dst); err != nil {
			t.Fatal(err)
		}
	}
	step()
	s0 := d.Stats()
	for range 20 {
		step()
	}
	if dst[0] != 2 || dst[n-1] != n+1 {
		t.Fatalf("dst[0], dst[n-1] = %d, %d, want 2, %d", dst[0], dst[n-1], n+1)
	}
	s1 := d.Stats()
	if s1.BuffersCreated != s0.BuffersCreated || s1.StagingCreated != s0.StagingCreated {
		t.Errorf("20 warm steps created buffers: Stats %+v -> %+v", s0, s1)
	}
	if s1.StagingHeld != 1 || s1.StagingBytesHeld != 4*n {
		t.Errorf("Stats = %+v, want one idle staging buffer of %d bytes", s1, 4*n)
	}
	sub := dst[:256]
	if allocs := testing.AllocsPerRun(50, func() {
		if err := wgpu.ReadInto(ctx, x, 1024, sub); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("ReadInto allocates %v times per call in steady state, want 0", allocs)
	}
	if allocs := testing.AllocsPerRun(50, func() {
		if err := wgpu.Write(x, 1024, sub); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Write allocates %v times per call, want 0", allocs)
	}
}

func TestTempBufferReuse(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	a, err := d.TempBuffer(1024, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(1, incKernel, [3]uint32{4, 1, 1}, a); err != nil {
		t.Fatal(err)
	}
	a.Recycle()
	a.Recycle() // twice is harmless
	if wgpu.Pending(d, 1) != 0 {
		t.Fatal("Recycle left the launch binding the buffer pending")
	}
	if err := d.Sync(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if s := d.Stats(); s.TempHeld != 1 || s.TempBytesHeld != 1024 || s.TempMisses != 1 {
		t.Fatalf("after Recycle, Stats = %+v, want 1 held (1024 bytes), 1 miss", s)
	}
	if b, err := d.TempBuffer(1024, wgpu.BufferUsageStorage); err != nil || b == a { // other usage: a miss
		t.Fatalf("TempBuffer(other usage) = %p, %v, want a new buffer", b, err)
	}
	b, err := d.TempBuffer(1024, 0)
	if err != nil || b != a {
		t.Fatalf("TempBuffer(1024) after Sync = %p, %v, want the recycled %p", b, err, a)
	}
	if err := b.Clear(0, 1024); err != nil { // usable again
		t.Fatal(err)
	}
	if s := d.Stats(); s.TempHits != 1 || s.TempMisses != 2 || s.TempHeld != 0 {
		t.Fatalf("Stats = %+v, want 1 hit, 2 misses, none held", s)
	}
	created := d.Stats().BuffersCreated
	for range 10 { // a warm loop of transient buffers creates none
		t, _ := d.TempBuffer(1024, 0)
		t.Recycle()
		d.Sync(ctx, 1)
	}
	b.Recycle()
	if got := d.Stats().BuffersCreated; got > created+1 {
		t.Errorf("a warm TempBuffer loop created %d buffers, want at most 1", got-created)
	}
}

func TestTempPoolLimit(t *testing.T) {
	d := openTestDevice(t, wgpu.Options{TempPoolBytes: 1024})
	a, _ := d.TempBuffer(1024, 0)
	b, _ := d.TempBuffer(1024, 0)
	a.Recycle()
	b.Recycle() // over the limit: released
	if s := d.Stats(); s.TempHeld != 1 || s.TempBytesHeld != 1024 {
		t.Fatalf("Stats = %+v, want 1 held", s)
	}
	if err := wgpu.Write(b, 0, make([]byte, 4)); err == nil || !contains(err.Error(), "buffer is released") {
		t.Fatalf("Write to a buffer recycled over the limit = %v, want released", err)
	}
	nd := openTestDevice(t, wgpu.Options{TempPoolBytes: -1})
	c, _ := nd.TempBuffer(64, 0)
	c.Recycle()
	if s := nd.Stats(); s.TempHeld != 0 {
		t.Fatalf("without a pool, Stats = %+v, want none held", s)
	}
}

// copyWGSL copies in to out, looping to make each launch take a while.
const copyWGSL = `
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	if (i < arrayLength(&dst)) {
		var v = src[i];
		for (var k = 0u; k < 64u; k++) {
			v = (v * 3u + 1u) ^ (v >> 1u);
		}
		dst[i] = v - v + src[i];
	}
}
`

// TestRecycledBufferKeepsPendingData checks the reuse rule: a buffer
// recycled while a launch that reads it is pending or running is not
// handed out (and so not overwritten) until that launch has run.
func TestRecycledBufferKeepsPendingData(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	k := gpu.NewKernel("slowcopy", copyWGSL, "main")
	const n = 1 << 16
	out := mustBuffer(t, d, 4*n)
	want := seq(n)
	var reused int
	for i := range 20 {
		in, err := d.TempBuffer(4*n, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := wgpu.Write(in, 0, want); err != nil {
			t.Fatal(err)
		}
		if err := d.Launch(1, k, [3]uint32{n / 64, 1, 1}, in, out); err != nil {
			t.Fatal(err)
		}
		in.Recycle()
		next, err := d.TempBuffer(4*n, 0) // the launch may still be queued or running
		if err != nil {
			t.Fatal(err)
		}
		if next == in {
			reused++
		}
		if err := wgpu.Write(next, 0, make([]uint32, n)); err != nil { // zeros
			t.Fatal(err)
		}
		got, err := wgpu.Read[uint32](ctx, out, 0, n)
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != 1 || got[n-1] != n {
			t.Fatalf("round %d: the launch read %d..%d, want 1..%d: a recycled buffer was overwritten under it", i, got[0], got[n-1], n)
		}
		if next != in {
			next.Release() // keep the pool to the recycled launch inputs
		} else {
			next.Recycle()
		}
		if i%2 == 1 {
			d.Sync(ctx, 1) // let some rounds reuse
		}
	}
	t.Logf("20 rounds: the recycled buffer was handed out again at once %d times; Stats %+v", reused, d.Stats())
}

// TestCloseReleasesPools checks that Close releases the staging and
// recycled buffers, also those of a cancelled read that may still map.
func TestCloseReleasesPools(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	x := mustBuffer(t, d, 1<<16)
	for _, size := range []int{64, 1024, 1 << 16} {
		if err := wgpu.ReadInto(ctx, x, 0, make([]byte, size)); err != nil {
			t.Fatal(err)
		}
	}
	d.Launch(1, incKernel, [3]uint32{256, 1, 1}, x)
	wgpu.ReadInto(newCancelMidWait(), x, 0, make([]byte, 4096))
	for range 3 {
		tb, _ := d.TempBuffer(4096, 0)
		defer tb.Recycle()
	}
	words := wgpu.LiveStatusWords()
	r, err := wgpu.CloseWithReport(d)
	if err != nil {
		t.Fatal(err)
	}
	if r.Buffers.Occupied != 0 {
		t.Errorf("after Close, %d buffers live, want 0", r.Buffers.Occupied)
	}
	t.Logf("status words %d before Close, %d after", words, wgpu.LiveStatusWords())
}
