package wgpu

import "strings"

// polyfills are WGSL functions for built-ins that WGSL gained after the
// driver's compiler (naga 0.13, 2023): the packed 4x8-bit integer
// functions. The lowered source calls them by their built-in names, which
// are free identifiers to the old compiler, so defining functions of those
// names there gives the calls the meaning the WGSL specification gives
// them. A user's own function of such a name reaches the lowered source
// renamed (naga reserves the names of built-ins), so it never clashes.
//
// Each entry lists the polyfills it calls, which are added with it.
var polyfills = []struct {
	name, src string
	needs     []string
}{
	{name: "unpack4xU8", src: `fn unpack4xU8(e: u32) -> vec4<u32> {
    return vec4<u32>(e & 255u, (e >> 8u) & 255u, (e >> 16u) & 255u, e >> 24u);
}`},
	{name: "unpack4xI8", src: `fn unpack4xI8(e: u32) -> vec4<i32> {
    return vec4<i32>(bitcast<i32>(e << 24u) >> 24u, bitcast<i32>(e << 16u) >> 24u, bitcast<i32>(e << 8u) >> 24u, bitcast<i32>(e) >> 24u);
}`},
	{name: "pack4xU8", src: `fn pack4xU8(e: vec4<u32>) -> u32 {
    let v = e & vec4<u32>(255u);
    return v.x | (v.y << 8u) | (v.z << 16u) | (v.w << 24u);
}`},
	{name: "pack4xI8", src: `fn pack4xI8(e: vec4<i32>) -> u32 {
    let v = bitcast<vec4<u32>>(e) & vec4<u32>(255u);
    return v.x | (v.y << 8u) | (v.z << 16u) | (v.w << 24u);
}`},
	{name: "pack4xU8Clamp", needs: []string{"pack4xU8"}, src: `fn pack4xU8Clamp(e: vec4<u32>) -> u32 {
    return pack4xU8(min(e, vec4<u32>(255u)));
}`},
	{name: "pack4xI8Clamp", needs: []string{"pack4xI8"}, src: `fn pack4xI8Clamp(e: vec4<i32>) -> u32 {
    return pack4xI8(clamp(e, vec4<i32>(-128), vec4<i32>(127)));
}`},
	{name: "dot4U8Packed", needs: []string{"unpack4xU8"}, src: `fn dot4U8Packed(e1: u32, e2: u32) -> u32 {
    let a = unpack4xU8(e1);
    let b = unpack4xU8(e2);
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}`},
	{name: "dot4I8Packed", needs: []string{"unpack4xI8"}, src: `fn dot4I8Packed(e1: u32, e2: u32) -> i32 {
    let a = unpack4xI8(e1);
    let b = unpack4xI8(e2);
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}`},
}

// addPolyfills appends to lowered the polyfills its calls need. A call is
// the name followed by '(' and not preceded by an identifier character.
func addPolyfills(lowered string) string {
	want := map[string]bool{}
	var add func(name string)
	add = func(name string) {
		if want[name] {
			return
		}
		want[name] = true
		for _, p := range polyfills {
			if p.name == name {
				for _, n := range p.needs {
					add(n)
				}
			}
		}
	}
	for _, p := range polyfills {
		if calls(lowered, p.name) {
			add(p.name)
		}
	}
	if len(want) == 0 {
		return lowered
	}
	var b strings.Builder
	b.WriteString(lowered)
	b.WriteString("\n// Polyfills for built-ins the driver's compiler predates.\n")
	for _, p := range polyfills {
		if want[p.name] {
			b.WriteString(p.src)
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// calls reports whether src calls the function name.
func calls(src, name string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], name+"(")
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !isIdentByte(src[at-1]) {
			return true
		}
		i = at + len(name)
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
