package lower

import (
	"fmt"
	"strconv"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// The driver's compiler (naga 0.13) indexes an array value (a let, a
// function parameter, a constant array constructor) only by a constant;
// WGSL, and naga 30, allow any index. IndexThroughVars rewrites naga 30's
// output so that every such value is indexed through a variable holding a
// copy of it, which the old compiler indexes freely and which computes the
// same thing.

// lowered is the front-end's limits for a lowered module: naga's output is
// longer than the user's source, whose limits were checked.
var lowered = wgsl.Limits{MaxSourceBytes: 1 << 30, MaxFunctionTokens: 1 << 30, MaxModuleTokens: 1 << 30, MaxExpressionTokens: 1 << 30}

// IndexThroughVars returns source (naga 30's output) rewritten so that no
// array value is indexed by a non-constant, and whether it changed
// anything:
//   - a let whose value is indexed so becomes a var;
//   - a parameter of array or struct type indexed so is renamed
//     sg_value_NAME and copied into a var of its name at the function's
//     start;
//   - a module-scope const of array type indexed so becomes a
//     var<private>;
//   - a constant array constructor indexed so (naga inlines consts and
//     constant lets at their uses) is hoisted into a module-scope
//     var<private> sg_const_array_N, indexed instead.
//
// "Indexed so" means an index that is not a decimal integer literal,
// anywhere in the chain of member accesses and indices rooted at the
// value (v[i], v.m[i], v[0][i]). A source with no such index comes back as
// it was, byte for byte; a changed one is printed by [wgsl.Fprint]. The
// error is the front-end's, for a source it cannot read (naga's output
// always reads).
func IndexThroughVars(source string) (string, bool, error) {
	f, err := wgsl.ParseFile(source, lowered)
	if err != nil {
		return source, false, fmt.Errorf("lower: reading naga's output: %w", err)
	}
	if !indexThroughVars(f) {
		return source, false, nil
	}
	return wgsl.Sprint(f), true, nil
}

// indexThroughVars rewrites f in place and reports whether it changed it.
func indexThroughVars(f *wgsl.File) bool {
	changed := false
	structs := map[string]bool{}
	for _, d := range f.Decls {
		if s, ok := d.(*wgsl.StructDecl); ok {
			structs[s.Name] = true
		}
	}
	dynamic := dynamicRoots(f)
	// Module-scope array consts indexed so.
	for _, d := range f.Decls {
		if v, ok := d.(*wgsl.VarDecl); ok && v.Keyword == "const" && isArrayType(v.Type) && dynamic[v.Name] {
			v.Keyword = "var"
			v.Template = []wgsl.Expr{&wgsl.Ident{At: -1, Name: "private"}}
			changed = true
		}
	}
	// Constant array constructors indexed so.
	var hoisted []wgsl.Decl
	wgsl.Inspect(f, func(n wgsl.Node) bool {
		ix, ok := n.(*wgsl.IndexExpr)
		if !ok || isIntLiteral(ix.Index) {
			return true
		}
		c, ok := ix.X.(*wgsl.CallExpr)
		if !ok || c.Fn.Name != "array" || c.Fn.Template == nil || !constant(c) {
			return true
		}
		name := "sg_const_array_" + strconv.Itoa(len(hoisted))
		hoisted = append(hoisted, &wgsl.VarDecl{
			At: -1, NamePos: -1, Keyword: "var", Name: name,
			Template: []wgsl.Expr{&wgsl.Ident{At: -1, Name: "private"}},
			Type:     c.Fn, Init: c,
		})
		ix.X = &wgsl.Ident{At: c.Pos(), Name: name}
		return true
	})
	if len(hoisted) > 0 {
		f.Decls = append(hoisted, f.Decls...)
		changed = true
	}
	for _, d := range f.Decls {
		fn, ok := d.(*wgsl.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		inBody := dynamicRoots(fn.Body)
		var copies []wgsl.Stmt
		for _, p := range fn.Params {
			if len(p.Attrs) > 0 || !inBody[p.Name] {
				continue
			}
			if !isArrayType(p.Type) && !isStruct(p.Type, structs) {
				continue
			}
			name := p.Name
			p.Name = "sg_value_" + name
			copies = append(copies, &wgsl.DeclStmt{Decl: &wgsl.VarDecl{
				At: -1, NamePos: -1, Keyword: "var", Name: name,
				Init: &wgsl.Ident{At: -1, Name: p.Name},
			}})
		}
		if len(copies) > 0 {
			fn.Body.Stmts = append(copies, fn.Body.Stmts...)
			changed = true
		}
		wgsl.Inspect(fn.Body, func(n wgsl.Node) bool {
			if ds, ok := n.(*wgsl.DeclStmt); ok && ds.Decl.Keyword == "let" && inBody[ds.Decl.Name] {
				ds.Decl.Keyword = "var"
				changed = true
			}
			return true
		})
	}
	return changed
}

// dynamicRoots returns the names that the tree under n indexes by a
// non-literal somewhere in a chain of member accesses and indices rooted at
// them.
func dynamicRoots(n wgsl.Node) map[string]bool {
	roots := map[string]bool{}
	wgsl.Inspect(n, func(n wgsl.Node) bool {
		ix, ok := n.(*wgsl.IndexExpr)
		if !ok || isIntLiteral(ix.Index) {
			return true
		}
		x := ix.X
		for {
			switch e := x.(type) {
			case *wgsl.MemberExpr:
				x = e.X
				continue
			case *wgsl.IndexExpr:
				x = e.X
				continue
			case *wgsl.Ident:
				if e.Template == nil {
					roots[e.Name] = true
				}
			}
			break
		}
		return true
	})
	return roots
}

// isIntLiteral reports an index the old compiler takes: a decimal integer
// literal, with or without its i or u suffix.
func isIntLiteral(x wgsl.Expr) bool {
	l, ok := x.(*wgsl.Literal)
	if !ok || l.Kind != wgsl.LiteralInt {
		return false
	}
	t := l.Text
	if n := len(t); n > 0 && (t[n-1] == 'i' || t[n-1] == 'u') {
		t = t[:n-1]
	}
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

func isArrayType(t wgsl.Expr) bool {
	id, ok := t.(*wgsl.Ident)
	return ok && id.Name == "array"
}

func isStruct(t wgsl.Expr, structs map[string]bool) bool {
	id, ok := t.(*wgsl.Ident)
	return ok && id.Template == nil && structs[id.Name]
}

// constant reports whether x is made of literals and value constructors
// only, as naga writes an inlined constant.
func constant(x wgsl.Expr) bool {
	switch e := x.(type) {
	case *wgsl.Literal:
		return true
	case *wgsl.UnaryExpr:
		return e.Op == "-" && constant(e.X)
	case *wgsl.ParenExpr:
		return constant(e.X)
	case *wgsl.CallExpr:
		if !constructors[e.Fn.Name] {
			return false
		}
		for _, a := range e.Args {
			if !constant(a) {
				return false
			}
		}
		return true
	}
	return false
}

// constructors are the value constructors a constant may hold.
var constructors = map[string]bool{
	"array": true, "vec2": true, "vec3": true, "vec4": true, "u32": true, "i32": true, "f32": true, "f16": true, "bool": true,
	"mat2x2": true, "mat3x3": true, "mat4x4": true, "mat2x3": true, "mat2x4": true, "mat3x2": true,
	"mat3x4": true, "mat4x2": true, "mat4x3": true,
}
