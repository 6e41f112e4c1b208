package lower

import (
	"strings"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// textureLoadI32 rewrites f (naga 30's output) for the driver's compiler,
// naga 0.13, which takes the level, array index and sample index of
// textureLoad as i32 only, where WGSL and naga 30 take u32 too: every such
// argument of a textureLoad of a sampled or depth texture becomes
// i32(argument), which keeps an i32 as it is and converts a u32 (a level or
// index is far below 2^31). It reports whether it changed anything.
func textureLoadI32(f *wgsl.File) bool {
	sampled := map[string]bool{} // the module's sampled and depth textures, by name
	for _, d := range f.Decls {
		v, ok := d.(*wgsl.VarDecl)
		if !ok || v.Type == nil {
			continue
		}
		if id, ok := v.Type.(*wgsl.Ident); ok && strings.HasPrefix(id.Name, "texture_") && !strings.HasPrefix(id.Name, "texture_storage") {
			sampled[v.Name] = true
		}
	}
	if len(sampled) == 0 {
		return false
	}
	changed := false
	wgsl.Inspect(f, func(n wgsl.Node) bool {
		c, ok := n.(*wgsl.CallExpr)
		if !ok || c.Fn == nil || c.Fn.Name != "textureLoad" || len(c.Args) < 3 {
			return true
		}
		if t, ok := c.Args[0].(*wgsl.Ident); !ok || !sampled[t.Name] {
			return true
		}
		for i := 2; i < len(c.Args); i++ {
			if isI32(c.Args[i]) {
				continue
			}
			c.Args[i] = &wgsl.CallExpr{Fn: &wgsl.Ident{Name: "i32"}, Args: []wgsl.Expr{c.Args[i]}}
			changed = true
		}
		return true
	})
	return changed
}

// isI32 reports whether e is plainly an i32: an i32 literal, or i32(...).
func isI32(e wgsl.Expr) bool {
	switch e := e.(type) {
	case *wgsl.Literal:
		return strings.HasSuffix(e.Text, "i")
	case *wgsl.CallExpr:
		return e.Fn != nil && e.Fn.Name == "i32"
	}
	return false
}
