//go:build !(js && wasm)

// Not in the browser: it reads the package's source files, and a page has
// no file system; it checks the js build's API from the desktop.

package wgpu_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"
	"testing"
)

// exportedAPI returns the exported declarations of this package's non-test
// files that build under ctx, one line each: functions and methods with
// their signatures (parameter names dropped), types with their exported
// fields, constants and variables.
func exportedAPI(t *testing.T, ctx build.Context) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var api []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctx.MatchFile(".", name); err != nil {
			t.Fatal(err)
		} else if !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			api = append(api, declAPI(d)...)
		}
	}
	slices.Sort(api)
	return api
}

func declAPI(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		recv := ""
		if d.Recv != nil {
			rt := d.Recv.List[0].Type
			base := rt
			if s, ok := base.(*ast.StarExpr); ok {
				base = s.X
			}
			if id, ok := base.(*ast.Ident); !ok || !id.IsExported() {
				return nil
			}
			recv = "(" + types.ExprString(rt) + ") "
		}
		return []string{"func " + recv + d.Name.Name + signature(d.Type)}
	case *ast.GenDecl:
		var out []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if !s.Name.IsExported() {
					continue
				}
				eq := " "
				if s.Assign.IsValid() {
					eq = " = "
				}
				out = append(out, "type "+s.Name.Name+eq+typeAPI(s.Type))
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if !n.IsExported() {
						continue
					}
					line := d.Tok.String() + " " + n.Name
					if s.Type != nil {
						line += " " + types.ExprString(s.Type)
					}
					out = append(out, line)
				}
			}
		}
		return out
	}
	return nil
}

// typeAPI prints a type, keeping only the exported fields of a struct.
func typeAPI(e ast.Expr) string {
	st, ok := e.(*ast.StructType)
	if !ok {
		return types.ExprString(e)
	}
	var fields []string
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.IsExported() {
				fields = append(fields, n.Name+" "+types.ExprString(f.Type))
			}
		}
		if len(f.Names) == 0 { // embedded
			fields = append(fields, types.ExprString(f.Type))
		}
	}
	return "struct{" + strings.Join(fields, "; ") + "}"
}

// signature prints a function type's parameter and result types.
func signature(ft *ast.FuncType) string {
	list := func(fl *ast.FieldList) []string {
		var ts []string
		if fl == nil {
			return nil
		}
		for _, f := range fl.List {
			n := max(len(f.Names), 1)
			for range n {
				ts = append(ts, types.ExprString(f.Type))
			}
		}
		return ts
	}
	s := "(" + strings.Join(list(ft.Params), ", ") + ")"
	switch res := list(ft.Results); len(res) {
	case 0:
	case 1:
		s += " " + res[0]
	default:
		s += " (" + strings.Join(res, ", ") + ")"
	}
	return s
}

// TestAPISameWithoutCgo guards that a program which compiles against this
// package with cgo compiles without it: the build without a device (the
// *_none.go backend) must export exactly what the cgo build does. The API
// lives in the shared files; a backend file that exports something fails
// here until every backend does.
func TestAPISameWithoutCgo(t *testing.T) {
	withCgo, noCgo := build.Default, build.Default
	withCgo.GOOS, withCgo.GOARCH, withCgo.CgoEnabled = "linux", "amd64", true
	noCgo.GOOS, noCgo.GOARCH, noCgo.CgoEnabled = "linux", "amd64", false
	compareAPI(t, withCgo, noCgo, "the *_none.go files")
}

// TestAPISameInBrowser guards the same for the js build (GOOS=js
// GOARCH=wasm, the *_js.go files on navigator.gpu): a program that
// compiles on the desktop compiles for the browser.
func TestAPISameInBrowser(t *testing.T) {
	withCgo, web := build.Default, build.Default
	withCgo.GOOS, withCgo.GOARCH, withCgo.CgoEnabled = "linux", "amd64", true
	web.GOOS, web.GOARCH, web.CgoEnabled = "js", "wasm", false
	compareAPI(t, withCgo, web, "the *_js.go files")
}

// compareAPI fails t for each exported declaration of the cgo build that
// the other build lacks, and each the other has that cgo lacks.
func compareAPI(t *testing.T, withCgo, other build.Context, where string) {
	t.Helper()
	a, b := exportedAPI(t, withCgo), exportedAPI(t, other)
	for name, api := range map[string][]string{"cgo": a, where: b} {
		if !slices.Contains(api, "func Open(Options) (*Device, error)") {
			t.Fatalf("the %s build's API lacks Open; the parser found:\n%s", name, strings.Join(api, "\n"))
		}
	}
	for _, line := range a {
		if !slices.Contains(b, line) {
			t.Errorf("only with cgo (mirror it in %s): %s", where, line)
		}
	}
	for _, line := range b {
		if !slices.Contains(a, line) {
			t.Errorf("only in %s, not with cgo: %s", where, line)
		}
	}
}
