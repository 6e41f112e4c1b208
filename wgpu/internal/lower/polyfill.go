package lower

import "github.com/streamgate/streamgate/wgpu/wgsl"

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

// polyfillTrees are the polyfills read once, by name.
var polyfillTrees = func() map[string]*wgsl.FuncDecl {
	m := map[string]*wgsl.FuncDecl{}
	for _, p := range polyfills {
		f, err := wgsl.ParseFile(p.src, wgsl.Limits{})
		if err != nil {
			panic("lower: polyfill " + p.name + ": " + err.Error())
		}
		m[p.name] = f.Decls[0].(*wgsl.FuncDecl)
	}
	return m
}()

// addPolyfills appends to f the polyfills its calls need (in the order of
// polyfills), and reports whether it added any. A user's function of such
// a name reaches naga's output renamed, so a call by the name is one of
// the built-in.
func addPolyfills(f *wgsl.File) bool {
	called := map[string]bool{}
	wgsl.Inspect(f, func(n wgsl.Node) bool {
		if c, ok := n.(*wgsl.CallExpr); ok {
			called[c.Fn.Name] = true
		}
		return true
	})
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
		if called[p.name] {
			add(p.name)
		}
	}
	for _, p := range polyfills {
		if want[p.name] {
			f.Decls = append(f.Decls, polyfillTrees[p.name])
		}
	}
	return len(want) > 0
}
