//go:build cgo

package fuzz

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The device FuzzWGSL compiles on: one per process (a fuzz worker runs many
// inputs), reopened every wgslReopen compiles so that the pipeline cache
// stays small.
var (
	wgslMu       sync.Mutex
	wgslDev      *wgpu.Device
	wgslCompiles int
	wgslStream   gpu.StreamID
)

const wgslReopen = 256

func init() {
	afterTests = append(afterTests, func() {
		wgslMu.Lock()
		defer wgslMu.Unlock()
		if wgslDev != nil {
			wgslDev.Close()
			wgslDev = nil
		}
	})
}

func wgslDevice(t *testing.T) *wgpu.Device {
	wgslMu.Lock()
	defer wgslMu.Unlock()
	if wgslDev != nil && wgslCompiles >= wgslReopen {
		wgslDev.Close()
		wgslDev, wgslCompiles = nil, 0
	}
	if wgslDev == nil {
		d, err := wgpu.Open(wgpu.Options{})
		if err != nil {
			if errors.Is(err, wgpu.ErrNoAdapter) && os.Getenv("STREAMGATE_REQUIRE_ADAPTER") != "1" {
				t.Skipf("no WebGPU adapter: %v", err)
			}
			t.Fatalf("wgpu.Open: %v", err)
		}
		wgslDev = d
	}
	wgslCompiles++
	wgslStream = gpu.NewStreamID()
	return wgslDev
}

// wgslSeeds are the shapes a kernel's buffer bindings come in
// (runtime-sized and fixed arrays, structs, aliases, constants, uniforms,
// explicit layout; texture and sampler bindings are textureSeeds'),
// sources with nothing in them, comments that hide a binding, and
// expressions deep and long enough to reach the front-end's limits.
var wgslSeeds = []string{
	"",
	" \n\t",
	"// only a comment",
	"@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) { if (id.x < arrayLength(&x)) { x[id.x] += 1u; } }",
	"struct S { v: array<u32, 64> }\n@group(0) @binding(0) var<storage, read_write> s: S;\n@compute @workgroup_size(1) fn main() { s.v[0] = 7u; }",
	"struct P { a: vec2<f32>, b: u32 }\n@group(0) @binding(0) var<storage, read_write> ps: array<P>;\n@compute @workgroup_size(1) fn main() { ps[0].b = 1u; }",
	"const N = 256u;\n@group(0) @binding(0) var<storage, read_write> x: array<u32, N>;\n@compute @workgroup_size(1) fn main() { x[N - 1u] = 1u; }",
	"alias Block = array<u32, 64>;\n@group(0) @binding(0) var<storage, read_write> x: Block;\n@compute @workgroup_size(1) fn main() { x[63] = 1u; }",
	"// a /* in a line comment\n@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(1) fn main() { x[0] = 1u; }",
	"/* a /* nested */ @group(0) @binding(1) var<storage> y: f32; */\n@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(1) fn main() { x[0] = 1u; }",
	"@group(0x0) @binding(0x0) var<storage, read_write> x: array<u32, 4>;\n@compute @workgroup_size(1) fn main() { x[0] = 1u; }",
	"const B = 0u;\n@group(0) @binding(B) var<storage, read_write> x: u32;\n@compute @workgroup_size(1) fn main() { x = 1u; }",
	"struct U { n: u32, scale: f32, pad: vec2<f32> }\n@group(0) @binding(0) var<uniform> u: U;\n@group(0) @binding(1) var<storage, read_write> x: array<f32>;\n@compute @workgroup_size(1) fn main() { x[0] = u.scale * f32(u.n); }",
	"struct T { a: vec3<f32>, @align(16) b: f32, @size(20) c: u32, m: mat3x3<f32> }\n@group(0) @binding(0) var<storage, read_write> t: array<T, 3>;\n@compute @workgroup_size(1) fn main() { t[2].c = 1u; }",
	"@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(1) fn main() { x[0] = " + strings.Repeat("(", 200) + "1u" + strings.Repeat(")", 200) + "; }",
	"@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(1) fn main() { x[0] = 1u" + strings.Repeat(" + 1u", 3000) + "; }",
}

// treeRoundTrip checks the syntax tree's property on src: ParseFile
// returns a tree or a *wgsl.Error (never a panic), and the tree printed and
// read again is the same tree.
func treeRoundTrip(t *testing.T, src string) {
	f, err := wgsl.ParseFile(src, wgsl.DefaultLimits())
	if err != nil {
		var we *wgsl.Error
		if !errors.As(err, &we) {
			t.Fatalf("ParseFile error %v is a %T, want *wgsl.Error", err, err)
		}
		return
	}
	if len(f.Decls) == 0 {
		return // only stray ';': printed, nothing, which is no module
	}
	out := wgsl.Sprint(f)
	// The printed text may hold a few more tokens (case selectors'
	// colons): the module-size limit is not what is checked here.
	g, err := wgsl.ParseFile(out, wgsl.Limits{MaxModuleTokens: 1 << 30, MaxFunctionTokens: 1 << 30})
	if err != nil {
		t.Fatalf("ParseFile(Sprint(ParseFile(src))) = %v\nsource:\n%s\nprinted:\n%s", err, src, out)
	}
	if !wgsl.Equal(f, g) {
		t.Fatalf("the printed tree reads back as another tree\nsource:\n%s\nprinted:\n%s", src, out)
	}
}

// FuzzWGSL gives arbitrary sources to the WGSL front-end and, when it
// accepts one with a compute entry point, to the real compiler. The
// front-end must never panic; nothing it accepts may kill the process; and
// when the compiler accepts a kernel that binds only buffers, a launch with
// buffers of exactly the reported minimum sizes succeeds, while a launch
// with one buffer 4 bytes smaller fails at Launch. An input starting with
// byte 0xff is decoded by layoutKernel, one starting with 0xfe by
// textureKernel. Launches dispatch zero workgroups: they are
// validated and submitted, and run nothing (a fuzzed kernel may loop).
func FuzzWGSL(f *testing.F) {
	for _, s := range wgslSeeds {
		f.Add(s)
	}
	for _, s := range textureSeeds {
		f.Add(s)
	}
	for _, g := range [][]byte{{0xff, 1, 2, 3, 4, 5, 6, 7, 8}, {0xff, 9, 200, 17, 33, 4, 90, 7, 1, 250, 3}, {0xff, 0, 0, 0, 0},
		{0xfe, 3, 0, 1, 0, 1, 1, 1, 3, 1, 0, 1, 1, 4, 0, 1, 1}, {0xfe, 2, 3, 1, 9, 2, 0, 1, 4, 1, 1, 1}, {0xfe, 3, 2, 3, 1, 3, 3, 3, 18, 0, 1, 1, 0, 2, 0, 6, 0, 0, 1}} {
		f.Add(string(g))
	}
	f.Fuzz(func(t *testing.T, src string) {
		switch {
		case strings.HasPrefix(src, "\xff"):
			src = layoutKernel([]byte(src[1:]))
		case strings.HasPrefix(src, "\xfe"):
			src = textureKernel([]byte(src[1:]))
		}
		treeRoundTrip(t, src)
		m, err := wgsl.Parse(src, wgsl.DefaultLimits())
		if err == nil && len(src) > 64<<10 {
			// The compiler's time grows fast with long function bodies
			// (65,536 lets took 15 s): past 64 KiB, the front-end alone.
			return
		}
		if err != nil {
			var we *wgsl.Error
			if !errors.As(err, &we) {
				t.Fatalf("Parse error %v is a %T, want *wgsl.Error", err, err)
			}
			return
		}
		entry, handles := "", false
		for _, ep := range m.EntryPoints {
			if ep.Stage == "compute" {
				entry = ep.Name
				for _, b := range ep.Bindings {
					handles = handles || !b.Kind.IsBuffer()
				}
				break
			}
		}
		if entry == "" {
			return
		}
		d := wgslDevice(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		k := gpu.NewKernel("fuzz", src, entry)
		if err := d.Compile(ctx, k); err != nil {
			var we *wgpu.Error
			if !errors.As(err, &we) {
				t.Fatalf("Compile error %v is a %T, want *wgpu.Error", err, err)
			}
			// The pipeline's explicit layout carries the front-end's
			// minimum sizes, and the driver checks them against the
			// shader's: a front-end that under-reports fails here. (A
			// layout with a texture or sampler in it is not yet built
			// from what they declare, and its refusal prints the
			// buffer entry it has instead.)
			if strings.Contains(we.Message, "could not read naga's output") {
				t.Fatalf("the syntax tree cannot read naga's output for a source it compiles: %v\n%s", err, src)
			}
			if !handles && strings.Contains(we.Message, "min_binding_size") {
				t.Fatalf("the driver says a front-end minimum size is too small: %v\n%s", err, src)
			}
			return // the front-end passed it; the compiler refused it: fine
		}
		// CheckKernel gets its own minute: on a loaded machine (go test
		// -race beside other builds) Compile can use most of the first
		// one, and a deadline left over from it is not a refusal.
		cctx, ccancel := context.WithTimeout(context.Background(), time.Minute)
		defer ccancel()
		ki, err := d.CheckKernel(cctx, k)
		if err != nil {
			t.Fatalf("Compile accepted a source CheckKernel refuses: %v", err)
		}
		if handles {
			// A launch binds buffers only so far: a kernel binding a
			// texture or sampler is checked, lowered and compiled.
			return
		}
		bindings := ki.Bindings
		exact := make([]gpu.Buffer, len(bindings))
		for i, b := range bindings {
			buf, ok := fuzzBuffer(t, d, b, roundUp4(b.MinSize))
			if !ok {
				return // over the device's limits: nothing to launch
			}
			exact[i] = buf
		}
		stream := wgslStream
		if err := d.Launch(stream, k, [3]uint32{0, 0, 0}, exact...); err != nil {
			t.Fatalf("Launch with buffers of exactly the minimum sizes %v: %v", minSizes(bindings), err)
		}
		for i, b := range bindings {
			size := roundUp4(b.MinSize)
			if size <= 4 {
				continue
			}
			small, ok := fuzzBuffer(t, d, b, size-4)
			if !ok {
				continue
			}
			args := append([]gpu.Buffer(nil), exact...)
			args[i] = small
			err := d.Launch(stream, k, [3]uint32{0, 0, 0}, args...)
			var we *wgpu.Error
			if !errors.As(err, &we) || we.Type != wgpu.ErrorTypeValidation || we.Op != "Launch" {
				t.Fatalf("Launch with binding %d (%s, needs %d) given %d bytes = %v, want a Validation error from Launch", i, b.Name, b.MinSize, size-4, err)
			}
		}
		if err := d.CloseStream(stream); err != nil {
			t.Fatalf("CloseStream after launches that passed Launch: %v", err)
		}
	})
}

// fuzzBuffer makes a buffer of size bytes fit for binding b, released when
// t ends; ok is false when the device's limits refuse it.
func fuzzBuffer(t *testing.T, d *wgpu.Device, b wgpu.Binding, size uint64) (*wgpu.Buffer, bool) {
	usage := wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst
	if b.Type == wgpu.BindingUniform {
		usage = wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst
	}
	if size > 64<<20 {
		return nil, false
	}
	buf, err := d.NewBuffer(size, usage)
	if err != nil {
		var we *wgpu.Error
		if errors.As(err, &we) && we.Type == wgpu.ErrorTypeLimit {
			return nil, false
		}
		t.Fatalf("NewBuffer(%d, %v) = %v", size, usage, err)
	}
	t.Cleanup(buf.Release)
	return buf, true
}

func roundUp4(n uint64) uint64 { return (n + 3) &^ 3 }

func minSizes(bs []wgpu.Binding) []uint64 {
	out := make([]uint64, len(bs))
	for i, b := range bs {
		out[i] = b.MinSize
	}
	return out
}

// layoutKernel builds, from fuzz bytes, a kernel whose buffer bindings have
// generated types: structs of scalars, vectors, matrices, fixed arrays and
// earlier structs, with @align and @size, bound as storage or uniform, some
// as runtime-sized arrays. It sends the fuzzer through the memory layout
// rules (and the compiler) rather than the tokenizer.
func layoutKernel(data []byte) string {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	base := []string{"f32", "u32", "i32", "vec2<f32>", "vec3<f32>", "vec4<f32>", "vec3<u32>", "vec2<i32>",
		"mat2x2<f32>", "mat3x3<f32>", "mat4x4<f32>", "mat2x3<f32>", "atomic<u32>"}
	var b strings.Builder
	var structs []string
	nStructs := 1 + next()%3
	for si := range nStructs {
		name := "S" + strconv.Itoa(si)
		fmt.Fprintf(&b, "struct %s {\n", name)
		nFields := 1 + next()%4
		for fi := range nFields {
			types := base
			if len(structs) > 0 {
				types = append(append([]string(nil), base...), structs...)
			}
			typ := types[next()%len(types)]
			if next()%4 == 0 && typ != "atomic<u32>" {
				typ = fmt.Sprintf("array<%s, %d>", typ, 1+next()%5)
			}
			attr := ""
			switch next() % 6 {
			case 0:
				attr = fmt.Sprintf("@align(%d) ", 16<<(next()%2))
			case 1:
				attr = fmt.Sprintf("@size(%d) ", 64+4*(next()%8))
			}
			fmt.Fprintf(&b, "\t%sf%d: %s,\n", attr, fi, typ)
		}
		b.WriteString("}\n")
		structs = append(structs, name)
	}
	nBindings := 1 + next()%3
	for bi := range nBindings {
		typ := structs[next()%len(structs)]
		space := "storage, read_write"
		switch next() % 4 {
		case 0:
			space = "uniform"
		case 1:
			typ = "array<" + typ + ">"
		case 2:
			typ = fmt.Sprintf("array<%s, %d>", typ, 1+next()%4)
		}
		fmt.Fprintf(&b, "@group(0) @binding(%d) var<%s> b%d: %s;\n", bi, space, bi, typ)
	}
	b.WriteString("@compute @workgroup_size(1) fn main() {\n")
	for bi := range nBindings {
		fmt.Fprintf(&b, "\t_ = &b%d;\n", bi)
	}
	b.WriteString("}\n")
	return b.String()
}
