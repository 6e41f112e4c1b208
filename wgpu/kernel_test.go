//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

func TestCompileErrors(t *testing.T) {
	d := openTestDevice(t)
	tests := []struct {
		name string
		k    *gpu.Kernel
		typ  wgpu.ErrorType
		want []string // substrings of the message
	}{
		{
			name: "invalid-wgsl",
			k: gpu.NewKernel("bad", `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1)
fn main() {
	x[0] = undefined_thing;
}`, "main"),
			typ:  wgpu.ErrorTypeValidation,
			want: []string{"bad(main)", "undefined_thing"},
		},
		{
			name: "syntax-error",
			k:    gpu.NewKernel("syntax", `fn main( {`, "main"),
			typ:  wgpu.ErrorTypeValidation, // the front-end's, before the driver: the same class as the driver's
			want: []string{"syntax(main)", "wgsl:1:"},
		},
		{
			name: "missing-entry-point",
			k:    gpu.NewKernel("noentry", incWGSL, "nope"),
			typ:  wgpu.ErrorTypeValidation,
			want: []string{`no @compute entry point "nope"`, "main"},
		},
		{
			name: "workgroup-size-over-limit",
			k: gpu.NewKernel("huge", `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(4096, 4096, 1)
fn main() { x[0] = 1u; }`, "main"),
			typ:  wgpu.ErrorTypeLimit, // checked before the driver, against the device's limits
			want: []string{"huge(main)", "maxComputeWorkgroupSizeX"},
		},
		{
			name: "group-past-maxBindGroups",
			k: gpu.NewKernel("g9", `
@group(9) @binding(0) var<storage, read_write> x: array<u32>;
@compute @workgroup_size(1) fn main() { x[0] = 1u; }`, "main"),
			typ:  wgpu.ErrorTypeLimit,
			want: []string{"@group(9)", "maxBindGroups"},
		},
		{
			name: "external-texture-binding",
			k: gpu.NewKernel("tex", `
@group(0) @binding(0) var t: texture_external;
@compute @workgroup_size(1) fn main() { }`, "main"),
			typ:  wgpu.ErrorTypeValidation,
			want: []string{"texture_external is not available to compute shaders here"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := d.Compile(context.Background(), tc.k)
			e := asError(t, err)
			if e.Type != tc.typ || e.Op != "Compile" {
				t.Errorf("Compile = %v (Op %q, Type %v), want Op Compile, Type %v", err, e.Op, e.Type, tc.typ)
			}
			for _, w := range tc.want {
				if !strings.Contains(e.Message, w) {
					t.Errorf("Compile message %q does not contain %q", e.Message, w)
				}
			}
			if d.Compiled(tc.k) {
				t.Errorf("Compiled(%v) = true after a failed compile", tc.k)
			}
			// A launch of the kernel reports the compile error too.
			x := mustBuffer(t, d, 256)
			if err := d.Launch(1, tc.k, [3]uint32{1, 1, 1}, x); err == nil {
				t.Errorf("Launch(%v) = nil, want the compile error", tc.k)
			}
		})
	}
}

// TestCompileOnce: many goroutines compiling the same kernel (and equal
// kernels under other names) build one pipeline.
func TestCompileOnce(t *testing.T) {
	d := openTestDevice(t)
	before := d.Stats().Compiles
	src := strings.Replace(incWGSL, "1u;", "2u;", 1)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			k := gpu.NewKernel(fmt.Sprintf("inc2-%d", i), src, "main")
			errs <- d.Compile(context.Background(), k)
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Compile = %v", err)
		}
	}
	if got := d.Stats().Compiles - before; got != 1 {
		t.Errorf("pipelines built = %d, want 1", got)
	}
	k := gpu.NewKernel("other-name", src, "main")
	if !d.Compiled(k) {
		t.Errorf("Compiled(same content) = false, want true")
	}
	if err := d.Precompile(context.Background(), []*gpu.Kernel{k, incKernel, addKernel}); err != nil {
		t.Fatalf("Precompile = %v", err)
	}
	if got := d.Stats().Compiles - before; got != 3 {
		t.Errorf("pipelines built after Precompile = %d, want 3", got)
	}
}

func TestPrecompileJoinsErrors(t *testing.T) {
	d := openTestDevice(t)
	bad1 := gpu.NewKernel("bad1", "fn main( {", "main")
	bad2 := gpu.NewKernel("bad2", incWGSL, "missing")
	err := d.Precompile(context.Background(), []*gpu.Kernel{incKernel, bad1, addKernel, bad2})
	if err == nil {
		t.Fatal("Precompile = nil, want errors")
	}
	for _, name := range []string{"bad1(main)", "bad2(missing)"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("Precompile error %q does not name %s", err, name)
		}
	}
	if !d.Compiled(incKernel) || !d.Compiled(addKernel) {
		t.Errorf("valid kernels not compiled after Precompile")
	}
	var e *wgpu.Error
	if !errors.As(err, &e) {
		t.Errorf("errors.As(Precompile error, *Error) = false")
	}
}

// TestErrorScopesConcurrent: many goroutines create valid and invalid
// shaders at once; every error lands on its own call (the error scopes are
// per device, so the package serializes them).
func TestErrorScopesConcurrent(t *testing.T) {
	uncaptured := wgpu.UncapturedErrors()
	d := openTestDevice(t)
	n := 48
	if testing.Short() {
		n = 16
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var k *gpu.Kernel
			ident := fmt.Sprintf("missing_ident_%d", i)
			if i%2 == 0 {
				k = gpu.NewKernel(fmt.Sprintf("ok%d", i), strings.Replace(incWGSL, "1u;", fmt.Sprintf("%du;", i+3), 1), "main")
			} else {
				k = gpu.NewKernel(fmt.Sprintf("bad%d", i), strings.Replace(incWGSL, "1u;", ident+";", 1), "main")
			}
			err := d.Compile(context.Background(), k)
			switch {
			case i%2 == 0 && err != nil:
				errs <- fmt.Errorf("valid kernel %d: Compile = %v", i, err)
			case i%2 == 1 && err == nil:
				errs <- fmt.Errorf("invalid kernel %d: Compile = nil", i)
			case i%2 == 1 && !strings.Contains(err.Error(), ident):
				errs <- fmt.Errorf("invalid kernel %d got another call's error: %v", i, err)
			}
			// Buffers (also scoped) interleave with the compiles.
			if b, err := d.NewBuffer(64, 0); err != nil {
				errs <- fmt.Errorf("NewBuffer = %v", err)
			} else {
				b.Release()
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := wgpu.UncapturedErrors(); n != uncaptured {
		t.Errorf("UncapturedErrors = %d, want %d", n, uncaptured)
	}
}

func TestCompiledAllocs(t *testing.T) {
	d := openTestDevice(t)
	if err := d.Compile(context.Background(), incKernel); err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(100, func() {
		if !d.Compiled(incKernel) {
			t.Fatal("Compiled = false")
		}
		d.Compiled(addKernel)
	}); allocs != 0 {
		t.Errorf("Compiled allocates %v times, want 0", allocs)
	}
}

func TestCompileCanceled(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	k := gpu.NewKernel("c", strings.Replace(incWGSL, "1u;", "9u;", 1), "main")
	if err := d.Compile(ctx, k); !errors.Is(err, context.Canceled) {
		t.Fatalf("Compile(canceled) = %v, want context.Canceled", err)
	}
	if d.Compiled(k) {
		t.Fatal("Compiled after canceled Compile = true")
	}
}

// TestNilKernelIsAnError: a nil kernel anywhere is an error (or false), never
// a panic.
func TestNilKernelIsAnError(t *testing.T) {
	d := openTestDevice(t)
	ctx := context.Background()
	x := mustBuffer(t, d, 16)
	if e := asError(t, d.Compile(ctx, nil)); e.Type != wgpu.ErrorTypeInvalidArgument || !strings.Contains(e.Message, "nil kernel") {
		t.Errorf("Compile(nil) = %v, want InvalidArgument naming the nil kernel", e)
	}
	if d.Compiled(nil) {
		t.Error("Compiled(nil) = true")
	}
	err := d.Precompile(ctx, []*gpu.Kernel{incKernel, nil})
	if err == nil || !strings.Contains(err.Error(), "kernel 1 is nil") {
		t.Errorf("Precompile([inc, nil]) = %v, want an error naming kernel 1", err)
	}
	if !d.Compiled(incKernel) {
		t.Error("Precompile did not compile the good kernel beside the nil one")
	}
	if e := asError(t, d.Launch(1, nil, [3]uint32{1, 1, 1}, x)); e.Type != wgpu.ErrorTypeInvalidArgument {
		t.Errorf("Launch(nil kernel) = %v, want InvalidArgument", e)
	}
	var nb *wgpu.Buffer
	if err := wgpu.Write(nb, 0, []byte{1, 2, 3, 4}); err == nil {
		t.Error("(*Buffer)(nil).Write = nil, want an error")
	}
	if _, err := wgpu.Read[byte](ctx, nb, 0, int(nb.Size())); err == nil {
		t.Error("(*Buffer)(nil).Read = nil, want an error")
	}
	nb.Release() // harmless
	if nb.Size() != 0 {
		t.Errorf("(*Buffer)(nil).Size() = %d", nb.Size())
	}
}

// TestKernelIndex: the device finds a kernel's pipeline by the kernel's
// pointer without allocating, kernels alternating or not; kernels of one
// content share one pipeline; the index stays bounded when a program makes
// its kernels anew, and Close empties it.
func TestKernelIndex(t *testing.T) {
	ctx := context.Background()
	d := openTestDevice(t)
	x := mustBuffer(t, d, 256)
	other := gpu.NewKernel("inc again", incKernel.Source(), incKernel.Entry())
	plus := incKernel.WithConstants(nil) // same content again
	for _, k := range []*gpu.Kernel{incKernel, other, plus} {
		if err := d.Launch(7, k, [3]uint32{0, 0, 0}, x); err != nil {
			t.Fatalf("Launch(%v) = %v", k, err)
		}
	}
	if n := d.Stats().Compiles; n != 1 {
		t.Errorf("Stats().Compiles = %d after three kernels of one content, want 1", n)
	}
	alternate := []*gpu.Kernel{incKernel, other, plus}
	i := 0
	if allocs := testing.AllocsPerRun(200, func() {
		if err := d.Launch(7, alternate[i%len(alternate)], [3]uint32{0, 0, 0}, x); err != nil {
			t.Fatal(err)
		}
		i++
	}); allocs != 0 {
		t.Errorf("alternating Launch allocates %.1f times, want 0", allocs)
	}
	if err := d.Sync(ctx, 7); err != nil {
		t.Fatal(err)
	}

	for range 3 * wgpu.KernelIndexMin {
		if err := d.Compile(ctx, gpu.NewKernel("anew", incKernel.Source(), incKernel.Entry())); err != nil {
			t.Fatal(err)
		}
	}
	if n := wgpu.KernelsIndexed(d); n == 0 || n > wgpu.KernelIndexMin {
		t.Errorf("KernelsIndexed() = %d after %d kernels made anew, want 1..%d", n, 3*wgpu.KernelIndexMin, wgpu.KernelIndexMin)
	}
	if n := d.Stats().Compiles; n != 1 {
		t.Errorf("Stats().Compiles = %d, want 1", n)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if n := wgpu.KernelsIndexed(d); n != 0 {
		t.Errorf("KernelsIndexed() = %d after Close, want 0", n)
	}
	if err := d.Launch(7, incKernel, [3]uint32{0, 0, 0}, x); !errors.Is(err, wgpu.ErrClosed) {
		t.Errorf("Launch after Close = %v, want ErrClosed", err)
	}
}
