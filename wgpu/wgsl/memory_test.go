package wgsl_test

import (
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestMemoryLimits: workgroup, private and function memory past the limits
// is refused before the compiler sees it (it takes memory in proportion, and
// a 400 MB workgroup array got the process killed); buffers are not bounded
// by these limits.
func TestMemoryLimits(t *testing.T) {
	const main = "\n@compute @workgroup_size(1) fn main() {}\n"
	tests := []struct {
		name string
		src  string
		want string // "" when it parses
	}{
		{"workgroup-tile", "var<workgroup> tile: array<f32, 256>;" + main, ""},
		{"workgroup-at-limit", "var<workgroup> a: array<u32, 2048>;\nvar<workgroup> b: array<u32, 2048>;" + main, ""},
		{"workgroup-over-limit-summed", "var<workgroup> a: array<u32, 2048>;\nvar<workgroup> b: array<u32, 2049>;" + main, "var<workgroup> b: 16388 bytes of workgroup memory in all, more than the limit of 16384"},
		{"workgroup-400MB", "var<workgroup> big: array<u32, 100000000>;\n@compute @workgroup_size(1) fn main() { big[0] = 1u; }", "more than the limit of 16384"},
		{"private-over-limit", "var<private> big: array<vec4<f32>, 2000>;" + main, "var<private> big: 32000 bytes of private memory"},
		{"function-var", "@compute @workgroup_size(1) fn main() { var big: array<u32, 1000000>; big[0] = 1u; }", "main: array<u32, 1000000> takes 4000000 bytes of function memory"},
		{"function-constructor", "@compute @workgroup_size(1) fn main() { let big = array<u32, 1000000>(); }", "takes 4000000 bytes of function memory"},
		{"function-struct-value", "struct Big { a: array<u32, 100000> }\n@compute @workgroup_size(1) fn main() { var b: Big; }", "a value of Big takes 400000 bytes"},
		{"function-alias-value", "alias A = array<f32, 100000>;\n@compute @workgroup_size(1) fn main() { let x = A(); }", "a value of array<f32, 100000> takes 400000 bytes"},
		{"const-array", "const big = array<u32, 100000>();" + main, "big: array<u32, 100000> takes 400000 bytes"},
		{"small-function-array", "@compute @workgroup_size(1) fn main() { var a: array<f32, 64>; a[0] = 1.0; }", ""},
		{"big-storage-buffer", "@group(0) @binding(0) var<storage, read_write> x: array<u32, 10000000>;" + main, ""},
		{"big-storage-struct-through-pointer", "struct Big { a: array<u32, 100000> }\n@group(0) @binding(0) var<storage, read_write> b: Big;\nfn f(p: ptr<storage, Big, read_write>) { (*p).a[0] = 1u; }\n@compute @workgroup_size(1) fn main() { f(&b); }", ""},
		{"workgroup-sized-by-override", "override N: u32 = 64u;\nvar<workgroup> t: array<f32, N>;" + main, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wgsl.Parse(tc.src, wgsl.DefaultLimits())
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Parse = %v, want it accepted", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Parse = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// The device's limit replaces the default.
	lim := wgsl.DefaultLimits()
	lim.MaxWorkgroupBytes = 32 << 10
	if _, err := wgsl.Parse("var<workgroup> a: array<u32, 8000>;"+main, lim); err != nil {
		t.Errorf("Parse with a 32 KiB workgroup limit = %v", err)
	}
}
