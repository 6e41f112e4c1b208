//go:build cgo

package fuzz

import (
	"fmt"
	"strings"
)

// textureSeeds are kernels that declare textures, storage textures and
// samplers as users write them: an image blur, integer and depth loads,
// comparison sampling, arrays, cubes and 3D textures, aliases, read and
// read_write storage textures (refused by the desktop's driver), and the
// declarations the front-end refuses (a non-storage format, a bad access,
// texture_external, a handle in an address space).
var textureSeeds = []string{
	"@group(0) @binding(0) var img: texture_2d<f32>;\n@group(0) @binding(1) var smp: sampler;\n@group(0) @binding(2) var out: texture_storage_2d<rgba8unorm, write>;\n@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n\tlet d = textureDimensions(img);\n\tif (any(id.xy >= d)) { return; }\n\tlet uv = (vec2<f32>(id.xy) + 0.5) / vec2<f32>(d);\n\ttextureStore(out, id.xy, textureSampleLevel(img, smp, uv, 0.0) * 0.5 + textureLoad(img, id.xy, 0) * 0.5);\n}",
	"alias L = texture_2d<u32>;\n@group(0) @binding(0) var labels: L;\n@group(0) @binding(1) var<storage, read_write> counts: array<atomic<u32>>;\n@compute @workgroup_size(16, 16) fn main(@builtin(global_invocation_id) id: vec3<u32>) { atomicAdd(&counts[textureLoad(labels, vec2<i32>(id.xy), 0).r], 1u); }",
	"@group(0) @binding(0) var shadow: texture_depth_2d;\n@group(0) @binding(1) var cmp: sampler_comparison;\n@group(0) @binding(2) var<storage, read_write> out: array<f32>;\n@compute @workgroup_size(1) fn main() { out[0] = textureSampleCompareLevel(shadow, cmp, vec2<f32>(0.5), 0.5) + textureLoad(shadow, vec2<u32>(0u), 0); }",
	"@group(0) @binding(0) var layers: texture_2d_array<f32>;\n@group(0) @binding(1) var env: texture_cube<f32>;\n@group(0) @binding(2) var vol: texture_3d<i32>;\n@group(0) @binding(3) var s: sampler;\n@group(1) @binding(0) var slab: texture_storage_3d<rgba16float, write>;\n@compute @workgroup_size(1) fn main() { textureStore(slab, vec3<u32>(0u), textureSampleLevel(layers, s, vec2<f32>(0.5), 1, 0.0) + textureSampleLevel(env, s, vec3<f32>(1.0), 0.0) + vec4<f32>(textureLoad(vol, vec3<i32>(0), 0))); }",
	"@group(0) @binding(0) var acc: texture_storage_2d<r32float, read_write>;\n@group(0) @binding(1) var src: texture_storage_2d<r32uint, read>;\n@compute @workgroup_size(1) fn main() { textureStore(acc, vec2<i32>(0), textureLoad(acc, vec2<i32>(0)) + f32(textureLoad(src, vec2<i32>(0)).x)); }",
	"@group(0) @binding(0) var ms: texture_multisampled_2d<f32>;\n@group(0) @binding(1) var<storage, read_write> out: array<f32>;\n@compute @workgroup_size(1) fn main() { out[0] = textureLoad(ms, vec2<i32>(0), 0).x + f32(textureNumSamples(ms)); }",
	"@group(0) @binding(0) var t: texture_storage_2d<r8unorm, write>;\n@compute @workgroup_size(1) fn main() { textureStore(t, vec2<i32>(0), vec4<f32>()); }",
	"@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm, read_only>;\n@compute @workgroup_size(1) fn main() { _ = textureDimensions(t); }",
	"@group(0) @binding(0) var t: texture_external;\n@compute @workgroup_size(1) fn main() { _ = textureDimensions(t); }",
	"@group(0) @binding(0) var<storage> t: texture_2d<f32>;\n@compute @workgroup_size(1) fn main() { _ = textureDimensions(t); }",
	"var t: texture_2d<f32>;\n@compute @workgroup_size(1) fn main() { _ = textureDimensions(t); }",
}

// textureKernel builds, from fuzz bytes, a kernel that declares handles of
// generated types (every sampled, depth, multisampled and storage texture
// type and sampler, any texel format and access, now and then through an
// alias or left unused) and uses each with a built-in its type takes. It
// sends the fuzzer through the front-end's handle types, the lowering and
// the driver's compiler rather than the tokenizer.
func textureKernel(data []byte) string {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	sampled := []string{"texture_1d", "texture_2d", "texture_2d_array", "texture_cube", "texture_cube_array", "texture_3d", "texture_multisampled_2d"}
	depth := []string{"texture_depth_2d", "texture_depth_2d_array", "texture_depth_cube", "texture_depth_cube_array", "texture_depth_multisampled_2d"}
	storage := []string{"texture_storage_1d", "texture_storage_2d", "texture_storage_2d_array", "texture_storage_3d"}
	scalars := []string{"f32", "i32", "u32", "f16"}
	formats := []string{"rgba8unorm", "rgba8snorm", "rgba8uint", "rgba8sint", "rgba16uint", "rgba16sint", "rgba16float", "r32uint", "r32sint", "r32float",
		"rg32uint", "rg32sint", "rg32float", "rgba32uint", "rgba32sint", "rgba32float", "bgra8unorm", "r8unorm", "rg16float", "depth32float"}
	accesses := []string{"write", "write", "read", "read_write", "read_only"}
	// coords are the integer coordinates of a load or store, by the
	// type's dimension (array types take a layer after them).
	coords := func(typ string) string {
		switch {
		case strings.Contains(typ, "1d"):
			return "0i"
		case strings.Contains(typ, "3d"):
			return "vec3<i32>(0)"
		case strings.Contains(typ, "2d_array"):
			return "vec2<i32>(0), 0i"
		}
		return "vec2<i32>(0)"
	}
	var decls, body strings.Builder
	decls.WriteString("@group(1) @binding(0) var base: texture_2d<f32>;\n@group(1) @binding(1) var dbase: texture_depth_2d;\n")
	n := 1 + next()%4
	for i := range n {
		var typ, use string
		switch next() % 5 {
		case 0, 1:
			name := sampled[next()%len(sampled)]
			typ = name + "<" + scalars[next()%len(scalars)] + ">"
			use = fmt.Sprintf("_ = textureDimensions(h%d);", i)
			if name == "texture_2d" || name == "texture_3d" || name == "texture_1d" || name == "texture_2d_array" || name == "texture_multisampled_2d" {
				use += fmt.Sprintf(" _ = textureLoad(h%d, %s, 0);", i, coords(name))
			}
		case 2:
			typ = depth[next()%len(depth)]
			use = fmt.Sprintf("_ = textureDimensions(h%d);", i)
		case 3:
			name := storage[next()%len(storage)]
			format, access := formats[next()%len(formats)], accesses[next()%len(accesses)]
			typ = name + "<" + format + ", " + access + ">"
			value := "vec4<f32>(0.0)"
			if strings.HasSuffix(format, "uint") {
				value = "vec4<u32>(0u)"
			} else if strings.HasSuffix(format, "sint") {
				value = "vec4<i32>(0)"
			}
			switch access {
			case "write":
				use = fmt.Sprintf("textureStore(h%d, %s, %s);", i, coords(name), value)
			case "read_write":
				use = fmt.Sprintf("textureStore(h%d, %s, textureLoad(h%d, %s));", i, coords(name), i, coords(name))
			default:
				use = fmt.Sprintf("_ = textureLoad(h%d, %s);", i, coords(name))
			}
		case 4:
			if next()%2 == 0 {
				typ, use = "sampler", fmt.Sprintf("_ = textureSampleLevel(base, h%d, vec2<f32>(0.5), 0.0);", i)
			} else {
				typ, use = "sampler_comparison", fmt.Sprintf("_ = textureSampleCompareLevel(dbase, h%d, vec2<f32>(0.5), 0.5);", i)
			}
		}
		if next()%4 == 0 {
			fmt.Fprintf(&decls, "alias A%d = %s;\n", i, typ)
			typ = fmt.Sprintf("A%d", i)
		}
		fmt.Fprintf(&decls, "@group(0) @binding(%d) var h%d: %s;\n", i, i, typ)
		if next()%5 != 0 {
			fmt.Fprintf(&body, "\t%s\n", use)
		}
	}
	return decls.String() + "@compute @workgroup_size(1) fn main() {\n" + body.String() + "}\n"
}
