//go:build js && wasm

package wgpu_test

import (
	"context"
	"errors"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// The browser's own tests: what only the js build has (navigator.gpu's
// adapter info, the browser's compiler and its positions, the refusal to
// await inside a js.FuncOf callback).

const axpyWGSL = `
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
override a: f32 = 2.0;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	let i = id.x;
	if (i < arrayLength(&y)) {
		y[i] = a * x[i] + 1.0;
	}
}
`

// TestWebAxpy: y = a·x + 1 over 1M floats on the page's GPU, the override
// bound by the front-end, batched launches, read back and checked.
func TestWebAxpy(t *testing.T) {
	d := openTestDevice(t)
	info := d.Info()
	if info.Backend != wgpu.BackendBrowser {
		t.Errorf("Info().Backend = %v, want Browser", info.Backend)
	}
	t.Logf("adapter: %+v", info)
	const n = 1 << 20
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i % 1000)
	}
	x, err := wgpu.NewBufferFrom(d, 0, xs)
	if err != nil {
		t.Fatal(err)
	}
	y := mustBuffer(t, d, 4*n)
	s := gpu.NewStreamID()
	for _, a := range []float64{2, 3} {
		k := gpu.NewKernel("axpy", axpyWGSL, "main").WithConstants(map[string]float64{"a": a})
		for range 3 { // the same result each time: launches recorded and flushed as one batch
			if err := d.Launch(s, k, [3]uint32{n / 64, 1, 1}, x, y); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Sync(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		got, err := wgpu.Read[float32](context.Background(), y, 0, n)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if want := float32(a)*xs[i] + 1; got[i] != want {
				t.Fatalf("a=%v: y[%d] = %v, want %v", a, i, got[i], want)
			}
		}
	}
}

// TestWebCompileError: a kernel the browser's compiler refuses (the
// front-end cannot see a type error) is a Validation *Error at the
// user's line and column.
func TestWebCompileError(t *testing.T) {
	d := openTestDevice(t)
	src := "@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n" +
		"@compute @workgroup_size(1)\nfn main() {\n  x[0] = 1.5;\n}\n"
	err := d.Compile(context.Background(), gpu.NewKernel("bad", src, "main"))
	var we *wgpu.Error
	if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeValidation {
		t.Fatalf("Compile(bad) = %v, want a Validation *wgpu.Error", err)
	}
	if !strings.Contains(we.Message, "wgsl:4:") {
		t.Errorf("Compile(bad) = %v, want the position wgsl:4:…", err)
	}
	// The device is still usable.
	b := mustBuffer(t, d, 4)
	if err := d.Launch(gpu.NewStreamID(), incKernel, [3]uint32{1, 1, 1}, b); err != nil {
		t.Fatal(err)
	}
}

// TestWebCallbackRefused: a call that awaits the browser, made inside a
// js.FuncOf callback, returns an error instead of deadlocking the page.
func TestWebCallbackRefused(t *testing.T) {
	d := openTestDevice(t)
	b := mustBuffer(t, d, 4)
	s := gpu.NewStreamID()
	if err := d.Launch(s, incKernel, [3]uint32{1, 1, 1}, b); err != nil {
		t.Fatal(err)
	}
	errc := make(chan [2]error, 1)
	f := js.FuncOf(func(js.Value, []js.Value) any {
		_, rerr := wgpu.Read[uint32](context.Background(), b, 0, 1)
		errc <- [2]error{d.Sync(context.Background(), s), rerr}
		return nil
	})
	defer f.Release()
	js.Global().Call("setTimeout", f, 0)
	select {
	case errs := <-errc:
		for i, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "js.FuncOf callback") {
				t.Errorf("call %d inside a callback = %v, want the error naming js.FuncOf callbacks", i, err)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the callback did not run")
	}
	got, err := wgpu.Read[uint32](context.Background(), b, 0, 1)
	if err != nil || got[0] != 1 {
		t.Fatalf("Read from a goroutine = %v, %v; want [1]", got, err)
	}
}
