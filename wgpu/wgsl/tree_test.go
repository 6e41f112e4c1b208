package wgsl_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// checkPositions checks that every name's position is where the source
// has the name.
func checkPositions(t *testing.T, src string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkPositions(t, src, v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			checkPositions(t, src, v.Index(i))
		}
	case reflect.Struct:
		if f := v.FieldByName("Name"); f.IsValid() && f.Kind() == reflect.String {
			pos := v.FieldByName("NamePos")
			if !pos.IsValid() {
				pos = v.FieldByName("At")
			}
			if pos.IsValid() && pos.Int() >= 0 && v.Type().Name() != "Attribute" {
				at, name := int(pos.Int()), f.String()
				if at+len(name) > len(src) || src[at:at+len(name)] != name {
					t.Errorf("%s %q at offset %d, where the source has %q", v.Type().Name(), name, at, src[at:min(len(src), at+len(name))])
				}
			}
		}
		// The offsets of punctuation: each where the source has it.
		for field, want := range map[string]string{"Rparen": ")", "Lbrace": "{", "Rangle": ">", "Dot": ".", "Lbrack": "[", "Rbrack": "]"} {
			f := v.FieldByName(field)
			if !f.IsValid() {
				continue
			}
			if tmpl := v.FieldByName("Template"); field == "Rangle" && tmpl.IsNil() {
				continue
			}
			if parens := v.FieldByName("Parens"); parens.IsValid() && !parens.Bool() {
				continue
			}
			if at := int(f.Int()); at < 0 || at >= len(src) || src[at:at+1] != want {
				t.Errorf("%s.%s = %d, where the source has %q, want %q", v.Type().Name(), field, at, src[min(max(at, 0), len(src)):min(max(at, 0)+1, len(src))], want)
			}
		}
		if op := v.FieldByName("OpPos"); op.IsValid() {
			at, text := int(op.Int()), v.FieldByName("Op").String()
			if at+len(text) > len(src) || src[at:at+len(text)] != text {
				t.Errorf("BinaryExpr %q at offset %d, where the source has %q", text, at, src[at:min(len(src), at+len(text))])
			}
		}
		if d, ok := v.Addr().Interface().(*wgsl.VarDecl); ok {
			if d.End <= d.Pos() || d.End > len(src) {
				t.Errorf("VarDecl %s: End %d outside (%d, %d]", d.Name, d.End, d.Pos(), len(src))
			} else if last := src[d.End-1]; last != ';' && d.Init == nil && d.Type == nil {
				t.Errorf("VarDecl %s ends in %q", d.Name, last)
			}
		}
		for i := range v.NumField() {
			checkPositions(t, src, v.Field(i))
		}
	}
}

// roundTrip parses src, prints the tree, parses the output and checks the
// two trees are the same; it returns the printed text.
func roundTrip(t *testing.T, src string) string {
	t.Helper()
	f, err := wgsl.ParseFile(src, wgsl.Limits{})
	if err != nil {
		t.Fatalf("ParseFile = %v", err)
	}
	checkPositions(t, src, reflect.ValueOf(f))
	out := wgsl.Sprint(f)
	g, err := wgsl.ParseFile(out, wgsl.Limits{})
	if err != nil {
		t.Fatalf("ParseFile(Sprint(tree)) = %v\n%s", err, out)
	}
	checkPositions(t, out, reflect.ValueOf(g))
	if !wgsl.Equal(f, g) {
		t.Fatalf("the tree read back from Sprint differs; printed:\n%s", out)
	}
	if again := wgsl.Sprint(g); again != out {
		t.Fatalf("Sprint is not stable:\n%s\nthen\n%s", out, again)
	}
	return out
}

// TestTreeRoundTripCorpus: every module of the corpus of others' shaders
// reads into a tree whose names sit at their positions, and the printed
// tree reads back as the same tree.
func TestTreeRoundTripCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*/*.wgsl")
	if err != nil || len(files) < 200 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	parsed := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if _, err := wgsl.ParseFile(src, wgsl.Limits{}); err != nil {
			// The corpus keeps files as their repositories have them:
			// some are fragments a host program completes (#include,
			// template placeholders); those fail the front-end too.
			if _, perr := wgsl.Parse(src, wgsl.Limits{}); perr == nil {
				t.Errorf("%s: ParseFile = %v, but Parse accepts it", path, err)
			}
			continue
		}
		parsed++
		t.Run(strings.TrimPrefix(path, "../testdata/corpus/"), func(t *testing.T) { roundTrip(t, src) })
	}
	t.Logf("ParseFile read %d of %d corpus modules; each printed tree read back the same", parsed, len(files))
	if parsed < len(files)*9/10 {
		t.Errorf("ParseFile read %d of %d corpus modules, want at least 90%%", parsed, len(files))
	}
}

// TestTreeShapes: each statement and expression form reads into the node
// it is, and prints in the one layout.
func TestTreeShapes(t *testing.T) {
	src := `enable f16;
diagnostic(off, derivative_uniformity);
alias V = vec4<f32>;
struct S { @size(16) a: f32, b: array<u32, 4>, }
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
const N: u32 = 4u;
override gain = 2.0;
const_assert N > 2;
@compute @workgroup_size(64, 1) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  var s = 0.0; let k = -(-1); var p: ptr<function, f32> = &s;
  if (s < 1.0) && id.x > 0u { s += 1.0; } else if s > 2.0 { s = 0.0; } else { s--; }
  switch id.x { case 0u, 1u: { s = 1.0; } case 2u, default { } }
  loop { if s > 9.0 { break; } continuing { s++; break if s >= 4.0; } }
  for (var i = 0u; i < N; i++) { *p = f32(i) * gain + s; _ = i; }
  while s > 0.0 { s = s - 1.0; continue; }
  out[id.x] = vec2<f32>(s, - -s).x + bitcast<f32>(1u << 2u) - f32(k);
  const_assert N == 4;
  { ; }
  return;
}
`
	out := roundTrip(t, src)
	want := `enable f16;
diagnostic(off, derivative_uniformity);
alias V = vec4<f32>;
struct S {
    @size(16) a: f32,
    b: array<u32, 4>,
}
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
const N: u32 = 4u;
override gain = 2.0;
const_assert N > 2;

@compute @workgroup_size(64, 1) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    var s = 0.0;
    let k = -(-1);
    var p: ptr<function, f32> = &s;
    if (s < 1.0) && id.x > 0u {
        s += 1.0;
    } else if s > 2.0 {
        s = 0.0;
    } else {
        s--;
    }
    switch id.x {
        case 0u, 1u: {
            s = 1.0;
        }
        case 2u, default: {}
    }
    loop {
        if s > 9.0 {
            break;
        }
        continuing {
            s++;
            break if s >= 4.0;
        }
    }
    for (var i = 0u; i < N; i++) {
        *p = f32(i) * gain + s;
        _ = i;
    }
    while s > 0.0 {
        s = s - 1.0;
        continue;
    }
    out[id.x] = vec2<f32>(s, - -s).x + bitcast<f32>(1u << 2u) - f32(k);
    const_assert N == 4;
    {
        ;
    }
    return;
}
`
	if out != want {
		t.Errorf("Sprint =\n%s\nwant\n%s", out, want)
	}
	f, _ := wgsl.ParseFile(src, wgsl.Limits{})
	fn := f.Decls[len(f.Decls)-1].(*wgsl.FuncDecl)
	if len(fn.Body.Stmts) != 12 {
		t.Fatalf("main has %d statements, want 12", len(fn.Body.Stmts))
	}
	ifs := fn.Body.Stmts[3].(*wgsl.IfStmt)
	if _, ok := ifs.Else.(*wgsl.IfStmt); !ok {
		t.Errorf("else if reads as %T, want *IfStmt", ifs.Else)
	}
	and := ifs.Cond.(*wgsl.BinaryExpr)
	if and.Op != "&&" {
		t.Errorf("if condition's operator = %q, want &&", and.Op)
	}
	if _, ok := and.X.(*wgsl.ParenExpr); !ok {
		t.Errorf("(s < 1.0) reads as %T, want *ParenExpr", and.X)
	}
	// Precedence: a + b * c is a + (b * c).
	assign := fn.Body.Stmts[8].(*wgsl.AssignStmt)
	sum := assign.RHS.(*wgsl.BinaryExpr)
	if sum.Op != "-" {
		t.Errorf("the assignment's top operator = %q, want - (left-assoc +, -)", sum.Op)
	}
	if line, col := wgsl.Position(src, fn.NamePos); line != 9 || col != 36 {
		t.Errorf("Position(main) = %d:%d, want 9:36", line, col)
	}
}

// TestTreePrintParens: a tree made by hand (as a rewrite makes one) prints
// with the parentheses its shape needs, and - -x does not print as --x.
func TestTreePrintParens(t *testing.T) {
	a, b, c := &wgsl.Ident{Name: "a"}, &wgsl.Ident{Name: "b"}, &wgsl.Ident{Name: "c"}
	for _, tc := range []struct {
		x    wgsl.Expr
		want string
	}{
		{&wgsl.BinaryExpr{X: &wgsl.BinaryExpr{X: a, Op: "+", Y: b}, Op: "*", Y: c}, "(a + b) * c"},
		{&wgsl.BinaryExpr{X: a, Op: "-", Y: &wgsl.BinaryExpr{X: b, Op: "-", Y: c}}, "a - (b - c)"},
		{&wgsl.BinaryExpr{X: &wgsl.BinaryExpr{X: a, Op: "-", Y: b}, Op: "-", Y: c}, "a - b - c"},
		{&wgsl.UnaryExpr{Op: "-", X: &wgsl.UnaryExpr{Op: "-", X: a}}, "- -a"},
		{&wgsl.UnaryExpr{Op: "&", X: &wgsl.UnaryExpr{Op: "&", X: a}}, "& &a"},
		{&wgsl.UnaryExpr{Op: "!", X: &wgsl.BinaryExpr{X: a, Op: "||", Y: b}}, "!(a || b)"},
		{&wgsl.MemberExpr{X: &wgsl.UnaryExpr{Op: "*", X: a}, Name: "x"}, "(*a).x"},
		{&wgsl.IndexExpr{X: &wgsl.BinaryExpr{X: a, Op: "+", Y: b}, Index: c}, "(a + b)[c]"},
	} {
		if got := wgsl.Sprint(tc.x); got != tc.want {
			t.Errorf("Sprint = %q, want %q", got, tc.want)
		}
	}
}

// TestTreeErrors: a syntax error names the token where it stops fitting the
// grammar, at its line and column.
func TestTreeErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"fn f() { x = ; }", "1:14: expected an expression, found \";\""},
		{"fn f() { let = 1; }", "1:14: expected a name, found \"=\""},
		{"fn f() { f(1) }", "1:15: expected \";\", found \"}\""},
		{"fn f() { x; }", "1:11: expected an assignment, an increment or a function call, found \";\""},
		{"fn f() {\n  @diagnostic(off, x) return;\n}", "2:3: attributes apply to a block"},
		{"struct S { a f32 }", "1:14: expected \":\", found \"f32\""},
		{"let x = 1;", "1:1: expected a declaration, found \"let\""},
		{"fn f() { loop { continuing { } s = 1; } }", "1:32: expected '}' after the continuing block"},
		{"fn f() { for (var i = 0; i < 2; var j = 1) {} }", "1:33: a for statement's update cannot declare"},
		{"fn f() { if x { }", "1:8: unclosed \"{\""},
		{"fn f() { if x { } else }", "1:24: expected \"{\", found \"}\""},
	} {
		_, err := wgsl.ParseFile(tc.src, wgsl.Limits{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFile(%q) = %v, want an error containing %q", tc.src, err, tc.want)
		}
	}
}

// TestTreeEqualCatchesBrokenPrint: the round trip's comparison tells apart
// trees that a printer dropping parentheses, an operator or an attribute
// would make.
func TestTreeEqualCatchesBrokenPrint(t *testing.T) {
	src := "@compute @workgroup_size(1) fn main() { var x = (1 + 2) * 3; x = -x; }"
	f, err := wgsl.ParseFile(src, wgsl.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, broken := range []string{
		"@compute @workgroup_size(1) fn main() { var x = 1 + 2 * 3; x = -x; }",
		"@compute @workgroup_size(1) fn main() { var x = (1 + 2) * 3; x = x; }",
		"@compute fn main() { var x = (1 + 2) * 3; x = -x; }",
		"@compute @workgroup_size(1) fn main() { var x = (1 + 2) * 3; x -= x; }",
		"@compute @workgroup_size(1) fn main() { let x = (1 + 2) * 3; x = -x; }",
	} {
		g, err := wgsl.ParseFile(broken, wgsl.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if wgsl.Equal(f, g) {
			t.Errorf("Equal(%q, %q) = true", src, broken)
		}
	}
	same, _ := wgsl.ParseFile("  @compute   @workgroup_size(1,)\nfn main() {var x=(1+2)*3;x=-x;}", wgsl.Limits{})
	if !wgsl.Equal(f, same) {
		t.Errorf("Equal(the same module laid out otherwise) = false")
	}
}
