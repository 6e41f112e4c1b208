package wgsl_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestAnalyzeRewrittenTree: Analyze reads the tree it is given, not the
// source: a rewritten tree gives the rewritten module, and an error in a
// node a rewrite made is reported at the position of the node it
// replaced. Module.File is the tree.
func TestAnalyzeRewrittenTree(t *testing.T) {
	src := "const B = 2u;\n@group(0) @binding(B) var<storage, read_write> x: array<u32, 4>;\n@compute @workgroup_size(8) fn main() { x[0] = 1u; }\n"
	f, err := wgsl.ParseFile(src, wgsl.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := wgsl.Analyze(f, src, wgsl.Limits{})
	if err != nil {
		t.Fatalf("Analyze = %v", err)
	}
	if m.File != f {
		t.Errorf("Analyze(f).File = %p, want f %p", m.File, f)
	}
	p, err := wgsl.Parse(src, wgsl.Limits{})
	if err != nil {
		t.Fatalf("Parse = %v", err)
	}
	if !wgsl.Equal(p.File, f) {
		t.Errorf("Parse(src).File is not the tree ParseFile reads")
	}
	p.File, m.File = nil, nil
	if !reflect.DeepEqual(p, m) {
		t.Errorf("Parse = %+v, Analyze(ParseFile) = %+v, want them equal", p, m)
	}

	x := f.Decls[1].(*wgsl.VarDecl)
	bind := x.Attrs[1]
	bind.Args[0] = &wgsl.Literal{At: bind.Args[0].Pos(), Kind: wgsl.LiteralInt, Text: "7u"}
	m, err = wgsl.Analyze(f, src, wgsl.Limits{})
	if err != nil {
		t.Fatalf("Analyze(@binding(7u)) = %v", err)
	}
	if b := m.Bindings[0]; b.Index != 7 || b.Type != "array<u32, 4>" || b.MinSize != 16 {
		t.Errorf("Analyze(@binding(7u)).Bindings[0] = %+v, want index 7 of array<u32, 4>, 16 bytes", b)
	}
	if got := m.EntryPoints[0].Bindings; len(got) != 1 || got[0].Index != 7 {
		t.Errorf("Analyze(@binding(7u)).EntryPoints[0].Bindings = %+v, want the binding at index 7", got)
	}

	typ := x.Type.(*wgsl.Ident)
	count := typ.Template[1]
	typ.Template[1] = &wgsl.Literal{At: count.Pos(), Kind: wgsl.LiteralFloat, Text: "1.5"}
	_, err = wgsl.Analyze(f, src, wgsl.Limits{})
	e, ok := err.(*wgsl.Error)
	line, col := wgsl.Position(src, count.Pos())
	if !ok || e.Line != line || e.Column != col || !strings.Contains(e.Msg, "array count: 1.5 is not an integer") {
		t.Errorf("Analyze(array<u32, 1.5>) = %v, want %d:%d: array count: 1.5 is not an integer", err, line, col)
	}
}

// TestExprEnd: source[x.Pos():End(x)] is the text of expression x: read
// again as an initializer, it is the same expression, for every
// initializer, type, assigned value and attribute argument of the corpus.
func TestExprEnd(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*/*.wgsl")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	n := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		f, err := wgsl.ParseFile(src, wgsl.Limits{})
		if err != nil {
			continue // a module of a WGSL extension the front-end does not read
		}
		check := func(x wgsl.Expr) {
			if x == nil || x.Pos() < 0 {
				return
			}
			n++
			text := src[x.Pos():wgsl.End(x)]
			g, err := wgsl.ParseFile("const x = "+text+";", wgsl.Limits{})
			if err != nil {
				t.Errorf("%s: %q (offsets %d-%d) does not read as an expression: %v", path, text, x.Pos(), wgsl.End(x), err)
				return
			}
			if y := g.Decls[0].(*wgsl.VarDecl).Init; !wgsl.Equal(x, y) {
				t.Errorf("%s: %q reads as a different expression", path, text)
			}
		}
		wgsl.Inspect(f, func(n wgsl.Node) bool {
			switch n := n.(type) {
			case *wgsl.VarDecl:
				check(n.Type)
				check(n.Init)
			case *wgsl.AssignStmt:
				check(n.LHS)
				check(n.RHS)
			case *wgsl.Attribute:
				for _, a := range n.Args {
					check(a)
				}
			}
			return true
		})
	}
	if n < 1000 {
		t.Errorf("checked %d expressions, want more than 1000", n)
	}
}

// TestAnalyzeCorpus: on every corpus module, Parse is ParseFile then
// Analyze: the same Module, or the same error.
func TestAnalyzeCorpus(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*/*.wgsl")
	accepted := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		pm, perr := wgsl.Parse(src, wgsl.Limits{})
		f, ferr := wgsl.ParseFile(src, wgsl.Limits{})
		if ferr != nil {
			if perr == nil {
				t.Errorf("%s: ParseFile = %v, but Parse accepts it", path, ferr)
			}
			continue
		}
		am, aerr := wgsl.Analyze(f, src, wgsl.Limits{})
		if (perr == nil) != (aerr == nil) || perr != nil && perr.Error() != aerr.Error() {
			t.Errorf("%s: Parse = %v, Analyze(ParseFile) = %v", path, perr, aerr)
			continue
		}
		if perr != nil {
			continue
		}
		accepted++
		if !wgsl.Equal(pm.File, am.File) {
			t.Errorf("%s: Parse's File differs from ParseFile's tree", path)
		}
		pm.File, am.File = nil, nil
		for i := range pm.Overrides {
			pm.Overrides[i].Decl, am.Overrides[i].Decl = nil, nil
		}
		if !reflect.DeepEqual(pm, am) {
			t.Errorf("%s: Parse = %+v, Analyze(ParseFile) = %+v", path, pm, am)
		}
	}
	if accepted < len(files)/2 {
		t.Errorf("Parse accepted %d of %d corpus modules, want at least half", accepted, len(files))
	}
	t.Logf("Parse accepted %d of %d corpus modules", accepted, len(files))
}
