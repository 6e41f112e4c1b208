package wgsl_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

var fuzzSeeds = []string{
	"@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) { if id.x < arrayLength(&x) { x[id.x] = x[id.x] + 1u; } }",
	"struct S { @align(16) a: vec3f, @size(32) b: f32, c: array<S2, N> } struct S2 { m: mat3x3f } const N = 4u << 1u; alias A = array<S>; @group(1) @binding(2) var<storage> s: A;",
	"/* /* */ */ // x\nconst A = B * 2; const B = 0x10i; @group(0) @binding(u32(A)) var<uniform> u: array<vec4<f32>, 4>;",
	"enable f16; override O: u32 = 8; @compute @workgroup_size(O, 2, 1) fn f() { let v = vec2<f16>(1.0h, 0x1p-3h); }",
	"fn f(a: u32) -> u32 { if a < 2u { return a; } else if a > 3u { return a >> 1u; } else { return ~a; } }",
	"var<private> p: array<bool, 4>; var<workgroup> w: atomic<u32>; const_assert 1 < 2;",
	"@group(0) @binding(0) var<storage> a: u32; @group(0) @binding(0) var<uniform> b: vec4u; fn h() -> u32 { let a = 1u; return a; } @compute @workgroup_size(1) fn x() { for (var b = 0u; b < a; b++) { _ = h(); } } @fragment fn y() -> @location(0) vec4u { return b; }",
	"@id(7) /* c */ override k: u32 = 3u; override f = 1.5; @id(0x10) override b: bool; alias U = u32; override u: U;",
	"@group(0) @binding(0) var img: texture_2d<f32>; @group(0) @binding(1) var smp: sampler; @group(0) @binding(2) var out: texture_storage_2d<rgba8unorm, write>;\n@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3<u32>) { let d = textureDimensions(img); textureStore(out, id.xy, textureSampleLevel(img, smp, vec2<f32>(id.xy) / vec2<f32>(d), 0.0)); }",
	"alias T = texture_depth_2d_array; @group(1) @binding(0) var d: T; @group(1) @binding(1) var c: sampler_comparison; @group(1) @binding(2) var m: texture_multisampled_2d<u32>; @group(2) @binding(0) var r: texture_storage_3d<r32sint, read_write>; @group(2) @binding(1) var q: texture_storage_1d<rgba16float, read>; @group(2) @binding(2) var k: texture_cube_array<i32>;",
}

// FuzzParse checks that Parse never panics, that every error is a
// *wgsl.Error with a position, and that an accepted module's bindings are
// sorted, of positive size when they are buffers and declaring a view, a
// sample type, a storage format and access, or a sampler kind when they
// are not, each entry point's bindings sorted, unique and declared, and
// each override's spans inside the source.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := wgsl.Parse(src, wgsl.Limits{MaxNestingDepth: 32, MaxExpressionTokens: 256, MaxDeclarationDepth: 32})
		if err != nil {
			var e *wgsl.Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse error %v (%T) is not a *wgsl.Error", err, err)
			}
			if e.Line < 1 || e.Column < 1 || e.Msg == "" {
				t.Fatalf("Parse error %#v has no position or message", e)
			}
			return
		}
		if strings.TrimSpace(src) == "" {
			t.Fatalf("Parse(%q) accepted an empty source", src)
		}
		for i, b := range m.Bindings {
			if b.Kind.IsBuffer() != (b.MinSize > 0) {
				t.Fatalf("binding %+v: MinSize %d", b, b.MinSize)
			}
			if b.Kind < wgsl.StorageRead || b.Kind > wgsl.Sampler || b.Name == "" || b.Type == "" {
				t.Fatalf("binding %+v: malformed", b)
			}
			tex := b.Texture
			var ok bool
			switch b.Kind {
			case wgsl.Texture:
				ok = tex.View != wgsl.ViewNone && tex.Sample != wgsl.SampleNone && tex.Format == wgsl.FormatNone && tex.Access == wgsl.AccessNone && b.Sampler == wgsl.SamplerNone
			case wgsl.StorageTexture:
				ok = tex.View != wgsl.ViewNone && tex.Format.StorageFormat() && tex.Access != wgsl.AccessNone && tex.Sample == wgsl.SampleNone && !tex.Multisampled && b.Sampler == wgsl.SamplerNone
			case wgsl.Sampler:
				ok = tex == wgsl.TextureBinding{} && b.Sampler != wgsl.SamplerNone
			default:
				ok = tex == wgsl.TextureBinding{} && b.Sampler == wgsl.SamplerNone
			}
			if !ok {
				t.Fatalf("binding %+v: its texture or sampler fields do not fit its kind", b)
			}
			if i > 0 {
				a := m.Bindings[i-1]
				if a.Group > b.Group || a.Group == b.Group && a.Index > b.Index {
					t.Fatalf("bindings %+v and %+v: not sorted", a, b)
				}
			}
		}
		declared := map[wgsl.Binding]bool{}
		for _, b := range m.Bindings {
			declared[b] = true
		}
		for _, ep := range m.EntryPoints {
			if ep.Stage != "compute" && ep.Stage != "vertex" && ep.Stage != "fragment" {
				t.Fatalf("entry point %+v: bad stage", ep)
			}
			for i, b := range ep.Bindings {
				if !declared[b] {
					t.Fatalf("entry point %s: binding %+v is not in Module.Bindings", ep.Name, b)
				}
				if i > 0 {
					a := ep.Bindings[i-1]
					if a.Group > b.Group || a.Group == b.Group && a.Index >= b.Index {
						t.Fatalf("entry point %s: bindings %+v and %+v: not sorted and unique", ep.Name, a, b)
					}
				}
			}
		}
		for _, o := range m.Overrides {
			decl := wgsl.Span{Start: o.Decl.Pos(), End: o.Decl.End}
			for _, s := range []wgsl.Span{decl, o.Keyword, o.IDAttr, o.TypeSpan, o.Init} {
				if s.Start < 0 || s.End < s.Start || s.End > len(src) {
					t.Fatalf("override %+v: span %+v outside the source", o, s)
				}
			}
			if got := src[o.Keyword.Start:o.Keyword.End]; got != "override" {
				t.Fatalf("override %s: Keyword spans %q", o.Name, got)
			}
			if decl.Start > o.Keyword.Start || src[decl.End-1] != ';' {
				t.Fatalf("override %s: Decl spans %q", o.Name, src[decl.Start:decl.End])
			}
			if o.HasID != (o.IDAttr != wgsl.Span{}) || o.HasDefault != (o.Init != wgsl.Span{}) {
				t.Fatalf("override %+v: HasID or HasDefault disagrees with its spans", o)
			}
		}
	})
}
