package wgsl

// The differential test of the tree analyses against the token-span
// parser they replace (parseOld). Temporary: it goes with the old code.

import (
	"fmt"
	goast "go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// diffInputs returns every corpus module, every .wgsl file under wgpu, and
// every string literal of the test files of wgpu/wgsl, wgpu and fuzz.
func diffInputs(t testing.TB) []string {
	var out []string
	filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".wgsl") {
			b, _ := os.ReadFile(path)
			out = append(out, string(b))
		}
		return nil
	})
	for _, dir := range []string{".", "..", "../../fuzz"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		fset := gotoken.NewFileSet()
		for _, f := range files {
			af, err := goparser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			goast.Inspect(af, func(n goast.Node) bool {
				if l, ok := n.(*goast.BasicLit); ok && l.Kind == gotoken.STRING {
					if s, err := strconv.Unquote(l.Value); err == nil && len(s) > 3 {
						out = append(out, s)
					}
				}
				return true
			})
		}
	}
	// The generated sources of the tests.
	out = append(out, bigSourceForDiff(1<<14), bigSourceForDiff(1<<20-512))
	return out
}

func bigSourceForDiff(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		s := strconv.Itoa(i)
		b.WriteString("const c" + s + " = (" + s + "u + 3u) * 2u;\n")
		b.WriteString("struct S" + s + " { a: vec3f, @align(16) b: array<u32, c" + s + ">, }\n")
		b.WriteString("@group(" + s + ") @binding(0) var<storage, read_write> x" + s + ": array<S" + s + ">;\n")
		b.WriteString("fn f" + s + "(v: u32) -> u32 { var r = v; for (var i = 0u; i < 4u; i++) { r = r * 3u + (i << 1u); } return r; }\n")
	}
	return b.String()
}

// normalize drops what only one implementation has: the tree, and the
// override declarations (compared as spans).
func normalize(m *Module) *Module {
	if m == nil {
		return nil
	}
	c := *m
	c.File = nil
	c.Overrides = nil
	for _, o := range m.Overrides {
		o.Decl = &VarDecl{At: o.Decl.Pos(), End: o.Decl.End}
		c.Overrides = append(c.Overrides, o)
	}
	return &c
}

// diffOne compares the two implementations on src and returns "" or the
// class of the difference.
func diffOne(src string, lim Limits) (class, detail string) {
	om, oerr := parseOld(src, lim)
	nm, nerr := Parse(src, lim)
	switch {
	case oerr == nil && nerr == nil:
		if !reflect.DeepEqual(normalize(om), normalize(nm)) {
			return "module", fmt.Sprintf("old %+v\nnew %+v", normalize(om), normalize(nm))
		}
		return "", ""
	case oerr == nil:
		return "new-refuses", nerr.Error()
	case nerr == nil:
		return "new-accepts", oerr.Error()
	}
	oe, ne := oerr.(*Error), nerr.(*Error)
	if *oe == *ne {
		return "", ""
	}
	if oe.Msg == ne.Msg {
		return "position", fmt.Sprintf("old %v (%v)\nnew %v (%v)", oe, oe.Kind, ne, ne.Kind)
	}
	return "message", fmt.Sprintf("old %v (%v)\nnew %v (%v)", oe, oe.Kind, ne, ne.Kind)
}

var diffLimits = []Limits{{}, {MaxNestingDepth: 32, MaxExpressionTokens: 256, MaxDeclarationDepth: 32}}

func TestDifferential(t *testing.T) {
	inputs := diffInputs(t)
	counts := map[string]int{}
	accepted := 0
	examples := map[string][]string{}
	for _, src := range inputs {
		for _, lim := range diffLimits {
			if m, err := parseOld(src, lim); err == nil && m != nil {
				accepted++
			}
			class, detail := diffOne(src, lim)
			if _, err := ParseFile(src, lim); class == "new-refuses" && err != nil {
				// ParseFile reads bodies and initializers fully, where
				// the old parser skipped their tokens.
				class = "new-refuses-syntax"
			}
			counts[class]++
			if class != "" && len(examples[class]) < 400 {
				examples[class] = append(examples[class], fmt.Sprintf("%.300q\n%s", src, detail))
			}
		}
	}
	var classes []string
	for c := range counts {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	t.Logf("%d inputs x %d limits, %d accepted by the old Parse", len(inputs), len(diffLimits), accepted)
	for _, c := range classes {
		t.Logf("class %q: %d", c, counts[c])
	}
	for _, c := range classes {
		for _, e := range examples[c] {
			t.Logf("%s: %s", c, e)
		}
	}
	if counts["module"]+counts["new-refuses"]+counts["new-accepts"] > 0 {
		t.Errorf("the implementations differ on accepting or on the Module")
	}
}

func FuzzDifferential(f *testing.F) {
	for _, s := range diffInputs(f) {
		if len(s) < 64<<10 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, lim := range diffLimits {
			class, detail := diffOne(src, lim)
			switch class {
			case "module", "new-accepts":
				t.Fatalf("%s: %s", class, detail)
			case "new-refuses":
				// ParseFile reads bodies and initializers fully: a
				// refusal is fine when the tree parser refuses it.
				if _, err := ParseFile(src, lim); err == nil {
					t.Fatalf("%s: %s", class, detail)
				}
			}
		}
	})
}
