//go:build cgo || (js && wasm)

package wgpu_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// groupsWGSL keeps its data in group 0 and its parameters in group 2, with
// bindings numbered with gaps, group 1 unused, and a variable that shares
// a slot with one the entry point uses but that only another entry point
// reads.
const groupsWGSL = `
struct Params { add: u32, mul: u32 }
@group(2) @binding(7) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> other: array<f32>;

fn scale(x: u32) -> u32 { return x * params.mul; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < arrayLength(&out)) { out[id.x] = scale(src[id.x]) + params.add; }
}

@compute @workgroup_size(64)
fn zero(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < arrayLength(&other)) { other[id.x] = 0.0; }
}`

// TestBindGroupsAndGaps: Launch binds in (group, binding) order of the
// entry point's interface, across groups and gaps; a launch that changes
// only group 2's buffer makes one new bind group and reuses group 0's.
func TestBindGroupsAndGaps(t *testing.T) {
	d := openTestDevice(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	k := gpu.NewKernel("groups", groupsWGSL, "main")
	ki, err := d.CheckKernel(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range ki.Bindings {
		got = append(got, b.String())
	}
	want := []string{"binding src (@group(0) @binding(1))", "binding out (@group(0) @binding(3))", "binding params (@group(2) @binding(7))"}
	if !slices.Equal(got, want) {
		t.Fatalf("CheckKernel bindings = %q, want %q", got, want)
	}
	const n = 256
	in := make([]uint32, n)
	for i := range in {
		in[i] = uint32(i)
	}
	src := mustBuffer(t, d, 4*n)
	out := mustBuffer(t, d, 4*n)
	if err := wgpu.Write(src, 0, in); err != nil {
		t.Fatal(err)
	}
	uniform := func(add, mul uint32) *wgpu.Buffer {
		b, err := d.NewBuffer(8, wgpu.BufferUsageUniform|wgpu.BufferUsageCopyDst)
		if err != nil {
			t.Fatal(err)
		}
		if err := wgpu.Write(b, 0, []uint32{add, mul}); err != nil {
			t.Fatal(err)
		}
		return b
	}
	p1, p2 := uniform(5, 2), uniform(1, 3)
	stream := gpu.NewStreamID()
	before := wgpu.BindGroups(d)
	if err := d.Launch(stream, k, [3]uint32{n / 64, 1, 1}, src, out, p1); err != nil {
		t.Fatal(err)
	}
	if got := wgpu.BindGroups(d) - before; got != 2 {
		t.Errorf("first launch made %d bind groups, want 2 (group 0 and group 2; group 1 is the pipeline's empty one)", got)
	}
	if err := d.Launch(stream, k, [3]uint32{n / 64, 1, 1}, src, out, p2); err != nil {
		t.Fatal(err)
	}
	if got := wgpu.BindGroups(d) - before; got != 3 {
		t.Errorf("after a launch changing only group 2's buffer, %d bind groups, want 3 (group 0's reused)", got)
	}
	res, err := wgpu.Read[uint32](ctx, out, 0, int(out.Size()/4))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res {
		if w := uint32(i)*3 + 1; v != w {
			t.Fatalf("out[%d] = %d, want %d (the second launch's parameters)", i, v, w)
		}
	}
	// The other entry point uses the variable sharing out's slot.
	z := gpu.NewKernel("groups", groupsWGSL, "zero")
	zi, err := d.CheckKernel(ctx, z)
	if err != nil || len(zi.Bindings) != 1 || zi.Bindings[0].Name != "other" {
		t.Fatalf("CheckKernel(zero) = %+v, %v; want the one binding other", zi, err)
	}
	if err := d.Launch(stream, z, [3]uint32{n / 64, 1, 1}, out); err != nil {
		t.Fatal(err)
	}
	if res, err = wgpu.Read[uint32](ctx, out, 0, int(out.Size()/4)); err != nil || res[7] != 0 {
		t.Fatalf("after zero: out[7] = %v, %v; want 0", res[7], err)
	}
	// Wrong order is caught by the checks: a uniform where storage goes.
	if err := d.Launch(stream, k, [3]uint32{1, 1, 1}, p1, out, src); err == nil {
		t.Error("Launch with the buffers out of (group, binding) order = nil, want an error naming the binding")
	}
}

// TestPerStageLimit: more storage buffers than the device allows per
// stage is refused before the driver, naming the limit and both counts.
func TestPerStageLimit(t *testing.T) {
	d := openTestDevice(t)
	lim := d.Limits().MaxStorageBuffersPerShaderStage
	var src, body string
	for i := range lim + 1 {
		src += "@group(0) @binding(" + strconv.Itoa(int(i)) + ") var<storage, read_write> b" + strconv.Itoa(int(i)) + ": array<u32>;\n"
		body += " b" + strconv.Itoa(int(i)) + "[0] = 1u;"
	}
	src += "@compute @workgroup_size(1) fn main() {" + body + " }"
	err := d.Compile(context.Background(), gpu.NewKernel("many", src, "main"))
	e := asError(t, err)
	if e.Type != wgpu.ErrorTypeLimit || !contains(e.Message, "maxStorageBuffersPerShaderStage") || !contains(e.Message, strconv.Itoa(int(lim+1))+" storage buffers") {
		t.Errorf("Compile(%d storage buffers) = %v, want a Limit error naming maxStorageBuffersPerShaderStage and both counts", lim+1, err)
	}
}
