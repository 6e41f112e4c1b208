package lower

import (
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestTextureLoadI32: a textureLoad's u32 level or index becomes i32(…)
// for the driver; an i32 literal or conversion, a storage texture's load
// and a module without textures stay as they are.
func TestTextureLoadI32(t *testing.T) {
	cases := []struct {
		name, src, want string
		changed         bool
	}{
		{"u32-level", `@group(0) @binding(0) var t: texture_2d<f32>;
fn f(l: u32) -> vec4<f32> { return textureLoad(t, vec2<i32>(0i), l); }`, "textureLoad(t, vec2<i32>(0i), i32(l))", true},
		{"array-index-and-level", `@group(0) @binding(0) var t: texture_2d_array<u32>;
fn f(i: u32, l: u32) -> vec4<u32> { return textureLoad(t, vec2<i32>(0i), i, l); }`, "textureLoad(t, vec2<i32>(0i), i32(i), i32(l))", true},
		{"i32-literal", `@group(0) @binding(0) var t: texture_2d<f32>;
fn f() -> vec4<f32> { return textureLoad(t, vec2<i32>(0i), 0i); }`, "textureLoad(t, vec2<i32>(0i), 0i)", false},
		{"storage", `@group(0) @binding(0) var t: texture_storage_2d_array<r32float, write>;
fn f(i: u32) { textureStore(t, vec2<i32>(0i), i, vec4<f32>()); }`, "textureStore(t, vec2<i32>(0i), i, vec4<f32>())", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := wgsl.ParseFile(tc.src, lowered)
			if err != nil {
				t.Fatal(err)
			}
			if changed := textureLoadI32(f); changed != tc.changed {
				t.Errorf("changed = %v, want %v", changed, tc.changed)
			}
			if out := wgsl.Sprint(f); !strings.Contains(out, tc.want) {
				t.Errorf("output\n%s\nlacks %q", out, tc.want)
			}
		})
	}
}
