//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/streamgate/streamgate/wgpu"
)

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// roundTrip uploads v with NewBufferFrom, reads it back whole with Read,
// then writes v[:half] at byte offset half*size and reads it with ReadInto.
func roundTrip[T wgpu.Numeric](t *testing.T, d *wgpu.Device, v []T) {
	ctx := testCtx(t)
	b, err := wgpu.NewBufferFrom(d, 0, v)
	if err != nil {
		t.Fatalf("NewBufferFrom(%T) = %v", v, err)
	}
	defer b.Release()
	got, err := wgpu.Read[T](ctx, b, 0, len(v))
	if err != nil || !reflect.DeepEqual(got, v) {
		t.Fatalf("Read = %v, %v, want %v", got, err, v)
	}
	half := len(v) / 2
	esize := uint64(b.Size()) / uint64(len(v))
	if err := wgpu.Write(b, uint64(half)*esize, v[:half]); err != nil {
		t.Fatalf("Write(offset %d) = %v", uint64(half)*esize, err)
	}
	dst := make([]T, half)
	if err := wgpu.ReadInto(ctx, b, uint64(half)*esize, dst); err != nil || !reflect.DeepEqual(dst, v[:half]) {
		t.Fatalf("ReadInto(offset %d) = %v, %v, want %v", uint64(half)*esize, dst, err, v[:half])
	}
}

type myFloat float32

func TestTypedRoundTrip(t *testing.T) {
	d := openTestDevice(t)
	for _, tc := range []struct {
		name string
		f    func(t *testing.T)
	}{
		{"int8", func(t *testing.T) { roundTrip(t, d, []int8{-1, 2, -128, 127, 5, 6, 7, 8}) }},
		{"uint8", func(t *testing.T) { roundTrip(t, d, []uint8{1, 2, 3, 255, 5, 6, 7, 8}) }},
		{"int16", func(t *testing.T) { roundTrip(t, d, []int16{-1, 2, -32768, 32767}) }},
		{"uint16", func(t *testing.T) { roundTrip(t, d, []uint16{1, 2, 65535, 4}) }},
		{"int32", func(t *testing.T) { roundTrip(t, d, []int32{-1, 2, -3, 1 << 30}) }},
		{"uint32", func(t *testing.T) { roundTrip(t, d, []uint32{1, 2, 3, 1 << 31}) }},
		{"int64", func(t *testing.T) { roundTrip(t, d, []int64{-1, 1 << 40}) }},
		{"uint64", func(t *testing.T) { roundTrip(t, d, []uint64{1, 1 << 63}) }},
		{"float32", func(t *testing.T) { roundTrip(t, d, []float32{1.5, -2.25, 3, 4}) }},
		{"float64", func(t *testing.T) { roundTrip(t, d, []float64{1.5, -2.25}) }},
		{"named-float32", func(t *testing.T) { roundTrip(t, d, []myFloat{1, 2, 3, 4}) }},
	} {
		t.Run(tc.name, tc.f)
	}
}

// TestWholeBufferAndBytes reads a whole buffer with Read and moves raw
// bytes with the same functions: byte is a Numeric.
func TestWholeBufferAndBytes(t *testing.T) {
	d := openTestDevice(t)
	b := mustBuffer(t, d, 16)
	if err := wgpu.Write(b, 0, []float32{1, 2}); err != nil {
		t.Fatal(err)
	}
	got, err := wgpu.Read[float32](testCtx(t), b, 0, int(b.Size()/4))
	if want := []float32{1, 2, 0, 0}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Read[float32] = %v, %v, want %v", got, err, want)
	}
	if err := wgpu.Write(b, 0, []byte{7, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0, 10, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	u, err := wgpu.Read[uint32](testCtx(t), b, 0, int(b.Size()/4))
	if want := []uint32{7, 8, 9, 10}; err != nil || !reflect.DeepEqual(u, want) {
		t.Fatalf("Read[uint32] = %v, %v, want %v", u, err, want)
	}
	raw, err := wgpu.Read[byte](testCtx(t), b, 4, 4)
	if want := []byte{8, 0, 0, 0}; err != nil || !reflect.DeepEqual(raw, want) {
		t.Fatalf("Read[byte] = %v, %v, want %v", raw, err, want)
	}
}

func seq(n int) []uint32 {
	v := make([]uint32, n)
	for i := range v {
		v[i] = uint32(i + 1)
	}
	return v
}

func TestRangesCopyClear(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	a, err := wgpu.NewBufferFrom(d, 0, seq(8))
	if err != nil {
		t.Fatal(err)
	}
	b, err := wgpu.NewBufferFrom(d, 0, make([]uint32, 8))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CopyTo(b, 4, 8, 12); err != nil { // a[1:4] -> b[2:5]
		t.Fatalf("CopyTo = %v", err)
	}
	got, err := wgpu.Read[uint32](ctx, b, 0, 8)
	if want := []uint32{0, 0, 2, 3, 4, 0, 0, 0}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after CopyTo, Read = %v, %v, want %v", got, err, want)
	}
	if err := a.Clear(8, 12); err != nil {
		t.Fatalf("Clear = %v", err)
	}
	got, err = wgpu.Read[uint32](ctx, a, 0, 8)
	if want := []uint32{1, 2, 0, 0, 0, 6, 7, 8}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after Clear, Read = %v, %v, want %v", got, err, want)
	}
	if err := wgpu.Write(a, 28, []byte{9, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 8)
	if err := wgpu.ReadInto(ctx, a, 24, raw); err != nil || !reflect.DeepEqual(raw, []byte{7, 0, 0, 0, 9, 0, 0, 0}) {
		t.Fatalf("ReadInto(24) = %v, %v", raw, err)
	}
}

// TestCopyOrderedWithLaunches checks that CopyTo submits the pending
// launches of both buffers first: a launch recorded before the copy on the
// source runs before it, and one on the destination is overwritten by it.
func TestCopyOrderedWithLaunches(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	a, _ := wgpu.NewBufferFrom(d, 0, seq(64))
	b, _ := wgpu.NewBufferFrom(d, 0, make([]uint32, 64))
	if err := d.Launch(1, incKernel, [3]uint32{1, 1, 1}, a); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(2, incKernel, [3]uint32{1, 1, 1}, b); err != nil {
		t.Fatal(err)
	}
	if err := a.CopyTo(b, 0, 0, 256); err != nil {
		t.Fatal(err)
	}
	if n := wgpu.Pending(d, 1) + wgpu.Pending(d, 2); n != 0 {
		t.Fatalf("after CopyTo, %d launches still pending", n)
	}
	if err := d.Launch(2, incKernel, [3]uint32{1, 1, 1}, b); err != nil { // after the copy
		t.Fatal(err)
	}
	got, err := wgpu.Read[uint32](ctx, b, 0, 64)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if want := uint32(i + 1 + 2); g != want {
			t.Fatalf("b[%d] = %d, want %d (a+1 copied, then +1)", i, g, want)
		}
	}
}

func TestBufferBadInputs(t *testing.T) {
	d := openTestDevice(t)
	d2 := openTestDevice(t)
	ctx := testCtx(t)
	b := mustBuffer(t, d, 64)
	other := mustBuffer(t, d2, 64)
	released := mustBuffer(t, d, 64)
	released.Release()
	storageOnly, err := d.NewBuffer(64, wgpu.BufferUsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	recycled, _ := d.TempBuffer(64, 0)
	recycled.Recycle()
	var nilBuf *wgpu.Buffer
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"Write/past-end", func() error { return wgpu.Write(b, 64, []byte{1, 2, 3, 4}) }, "offset 64 + length 4 is past the buffer's size 64"},
		{"Write/huge-offset", func() error { return wgpu.Write(b, 1<<63, []byte{1, 2, 3, 4}) }, "past the buffer's size 64"},
		{"Write/unaligned-offset", func() error { return wgpu.Write(b, 2, []byte{1, 2, 3, 4}) }, "offset 2 and length 4 must be multiples of 4 (buffer size 64)"},
		{"Write/unaligned-length", func() error { return wgpu.Write(b, 0, []byte{1, 2, 3}) }, "offset 0 and length 3 must be multiples of 4"},
		{"Write/too-long", func() error { return wgpu.Write(b, 0, make([]byte, 68)) }, "offset 0 + length 68 is past the buffer's size 64"},
		{"Write[int8]/odd", func() error { return wgpu.Write(b, 0, []int8{1, 2, 3}) }, "length 3 must be multiples of 4"},
		{"ReadInto/past-end", func() error { return wgpu.ReadInto(ctx, b, 60, make([]byte, 8)) }, "offset 60 + length 8 is past the buffer's size 64"},
		{"ReadInto/unaligned", func() error { return wgpu.ReadInto(ctx, b, 6, make([]uint32, 1)) }, "offset 6 and length 4 must be multiples of 4"},
		{"Read/negative", func() error { _, err := wgpu.Read[uint32](ctx, b, 0, -1); return err }, "negative length -1"},
		{"Read/too-many", func() error { _, err := wgpu.Read[uint64](ctx, b, 0, 9); return err }, "length 72 is past the buffer's size 64"},
		{"Clear/past-end", func() error { return b.Clear(32, 64) }, "offset 32 + length 64 is past the buffer's size 64"},
		{"Clear/unaligned", func() error { return b.Clear(0, 6) }, "length 6 must be multiples of 4"},
		{"CopyTo/src-range", func() error { return b.CopyTo(mustBuffer(t, d, 64), 8, 0, 64) }, "source: offset 8 + length 64 is past the buffer's size 64"},
		{"CopyTo/dst-range", func() error { return b.CopyTo(mustBuffer(t, d, 16), 0, 0, 32) }, "destination: offset 0 + length 32 is past the buffer's size 16"},
		{"CopyTo/unaligned", func() error { return b.CopyTo(mustBuffer(t, d, 64), 0, 2, 4) }, "destination: offset 2 and length 4 must be multiples of 4"},
		{"CopyTo/same", func() error { return b.CopyTo(b, 0, 32, 16) }, "source and destination are the same buffer"},
		{"CopyTo/other-device", func() error { return b.CopyTo(other, 0, 0, 16) }, "destination buffer belongs to another device"},
		{"CopyTo/nil-dst", func() error { return b.CopyTo(nil, 0, 0, 16) }, "nil destination buffer"},
		{"CopyTo/released-dst", func() error { return b.CopyTo(released, 0, 0, 16) }, "buffer is released"},
		{"CopyTo/no-copy-src", func() error { return storageOnly.CopyTo(b, 0, 0, 16) }, "the source buffer's usage Storage lacks BufferUsageCopySrc"},
		{"Write/no-copy-dst", func() error { return wgpu.Write(storageOnly, 0, make([]byte, 4)) }, "the buffer's usage Storage lacks BufferUsageCopyDst"},
		{"Read/no-copy-src", func() error { _, err := wgpu.Read[byte](ctx, storageOnly, 0, 4); return err }, "lacks BufferUsageCopySrc"},
		{"Clear/no-copy-dst", func() error { return storageOnly.Clear(0, 4) }, "lacks BufferUsageCopyDst"},
		{"nil/Write[byte]", func() error { return wgpu.Write(nilBuf, 0, make([]byte, 4)) }, "nil buffer"},
		{"nil/Read", func() error { _, err := wgpu.Read[byte](ctx, nilBuf, 0, 4); return err }, "nil buffer"},
		{"nil/ReadInto", func() error { return wgpu.ReadInto(ctx, nilBuf, 0, []float32{1}) }, "nil buffer"},
		{"nil/Write[T]", func() error { return wgpu.Write(nilBuf, 0, []float32{1}) }, "nil buffer"},
		{"nil/CopyTo", func() error { return nilBuf.CopyTo(b, 0, 0, 4) }, "nil buffer"},
		{"nil/Clear", func() error { return nilBuf.Clear(0, 4) }, "nil buffer"},
		{"nil/NewBufferFrom", func() error { _, err := wgpu.NewBufferFrom[float32](nil, 0, []float32{1}); return err }, "nil device"},
		{"NewBufferFrom/empty", func() error { _, err := wgpu.NewBufferFrom(d, 0, []float32{}); return err }, "size 0 is not a positive multiple of 4"},
		{"NewBufferFrom/odd-bytes", func() error { _, err := wgpu.NewBufferFrom(d, 0, []uint16{1}); return err }, "size 2 is not a positive multiple of 4"},
		{"NewBufferFrom/no-copy-dst", func() error { _, err := wgpu.NewBufferFrom(d, wgpu.BufferUsageStorage, []float32{1}); return err }, "lacks BufferUsageCopyDst"},
		{"released/Write", func() error { return wgpu.Write(released, 0, make([]byte, 4)) }, "buffer is released"},
		{"released/ReadInto", func() error { return wgpu.ReadInto(ctx, released, 0, make([]uint32, 1)) }, "buffer is released"},
		{"released/Clear", func() error { return released.Clear(0, 4) }, "buffer is released"},
		{"released/CopyTo", func() error { return released.CopyTo(b, 0, 0, 4) }, "buffer is released"},
		{"recycled/Write", func() error { return wgpu.Write(recycled, 0, make([]byte, 4)) }, "buffer is recycled"},
		{"recycled/ReadInto", func() error { return wgpu.ReadInto(ctx, recycled, 0, make([]byte, 4)) }, "buffer is recycled"},
		{"recycled/CopyTo-dst", func() error { return b.CopyTo(recycled, 0, 0, 4) }, "buffer is recycled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if err == nil {
				t.Fatalf("= nil, want an error containing %q", tc.want)
			}
			e := asError(t, err)
			// A WebGPU rule broken (range, alignment, usage, a copy onto
			// itself) is Validation; what only a Go caller gets wrong is
			// InvalidArgument.
			want := wgpu.ErrorTypeValidation
			for _, w := range []string{"nil ", "released", "recycled", "another device", "negative", "not a positive multiple"} {
				if contains(tc.want, w) {
					want = wgpu.ErrorTypeInvalidArgument
				}
			}
			if e.Type != want || !contains(e.Error(), tc.want) {
				t.Fatalf("= %v (type %v), want a %v error containing %q", err, e.Type, want, tc.want)
			}
		})
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestBufferAfterClose(t *testing.T) {
	d := openTestDevice(t)
	ctx := testCtx(t)
	b := mustBuffer(t, d, 64)
	c := mustBuffer(t, d, 64)
	if _, err := wgpu.Read[uint32](ctx, b, 0, 4); err != nil { // a staging buffer in the pool
		t.Fatal(err)
	}
	tb, _ := d.TempBuffer(64, 0)
	tb.Recycle()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() error{
		"Write":    func() error { return wgpu.Write(b, 0, make([]byte, 4)) },
		"ReadInto": func() error { return wgpu.ReadInto(ctx, b, 0, make([]uint32, 1)) },
		"CopyTo":   func() error { return b.CopyTo(c, 0, 0, 4) },
		"Clear":    func() error { return b.Clear(0, 4) },
		"TempBuffer": func() error {
			_, err := d.TempBuffer(64, 0)
			return err
		},
		"NewBufferFrom": func() error {
			_, err := wgpu.NewBufferFrom(d, 0, []float32{1})
			return err
		},
	} {
		if err := f(); !isClosed(err) {
			t.Errorf("%s after Close = %v, want ErrClosed", name, err)
		}
	}
	tb.Recycle() // harmless
	b.Recycle()
	if s := d.Stats(); s.StagingHeld != 0 || s.TempHeld != 0 {
		t.Errorf("after Close, Stats = %+v, want nothing held", s)
	}
}

func isClosed(err error) bool {
	e, ok := err.(*wgpu.Error)
	return ok && e.Type == wgpu.ErrorTypeClosed
}
