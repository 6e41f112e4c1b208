package lower

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// forDriverOn is ForDriver on a module that is its own naga output, as
// the golden inputs are written.
func forDriverOn(in string) (*Result, error) {
	user, err := wgsl.ParseFile(in, wgsl.Limits{})
	if err != nil {
		user = nil
	}
	return ForDriver(user, in, in)
}

// render is what a golden file holds for ForDriver's result on in: the
// driver's source and its entry points, or the error.
func render(in string) string {
	r, err := forDriverOn(in)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var eps []string
	for _, ep := range r.EntryPoints {
		eps = append(eps, ep.Name+" ("+ep.Stage+")")
	}
	changed := "changed"
	if r.Source == in {
		changed = "unchanged, byte for byte"
	}
	return r.Source + "// --- " + changed + "; entry points: " + strings.Join(eps, ", ") + "\n"
}

// TestGolden runs ForDriver on each testdata/*.wgsl (written as naga 30
// writes its output) and compares with testdata/*.golden; -update rewrites
// them. Each changed output reads again as WGSL, and running the passes on
// it changes nothing more.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.wgsl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			in := string(b)
			got := render(in)
			checkGolden(t, "ForDriver", path, got)
			r, err := forDriverOn(in)
			if err != nil {
				return
			}
			if _, err := wgsl.ParseFile(r.Source, lowered); err != nil {
				t.Fatalf("the output does not read: %v", err)
			}
			again, changed, err := IndexThroughVars(r.Source)
			if err != nil || changed || again != r.Source {
				t.Errorf("IndexThroughVars(its own output) changed it again (%v)", err)
			}
		})
	}
}

// checkGolden compares got, what fn made of path (testdata/X.wgsl), with
// testdata/X.golden; -update writes it first.
func checkGolden(t *testing.T, fn, path, got string) {
	t.Helper()
	golden := strings.TrimSuffix(path, ".wgsl") + ".golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s(%s) =\n%s\nwant\n%s", fn, path, got, want)
	}
}

// TestIndexThroughVarsCases: what each rule rewrites and leaves alone, on
// small modules.
func TestIndexThroughVarsCases(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // substrings of the output
		not      []string // not in it
	}{
		{"let indexed by a variable", "fn f(i: u32) -> u32 { let a = array<u32, 2>(i, 1u); return a[i]; }", []string{"var a = array<u32, 2>(i, 1u);"}, []string{"let a"}},
		{"let indexed by a literal", "fn f(i: u32) -> u32 { let a = array<u32, 2>(i, 1u); return a[1u]; }", []string{"let a"}, nil},
		{"second index dynamic", "fn f(i: u32) -> u32 { let a = array<array<u32, 2>, 2>(); return a[0][i]; }", []string{"var a"}, nil},
		{"member chain", "struct S { v: array<u32, 2> }\nfn f(s: S, i: u32) -> u32 { return s.v[i]; }", []string{"fn f(sg_value_s: S, i: u32)", "var s = sg_value_s;"}, nil},
		{"vector parameter", "fn f(v: vec4<f32>, i: u32) -> f32 { return v[i]; }", []string{"fn f(v: vec4<f32>, i: u32)"}, []string{"sg_value"}},
		{"non-constant constructor", "fn f(i: u32) -> u32 { return array<u32, 2>(i, 2u)[i]; }", []string{"array<u32, 2>(i, 2u)[i]"}, []string{"sg_const_array"}},
		{"constant constructor", "fn f(i: u32) -> u32 { return array<vec2<u32>, 2>(vec2<u32>(1u, 2u), vec2<u32>(3u, 4u))[i].x; }", []string{"var<private> sg_const_array_0: array<vec2<u32>, 2> = array<vec2<u32>, 2>(vec2<u32>(1u, 2u), vec2<u32>(3u, 4u));", "return sg_const_array_0[i].x;"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := IndexThroughVars(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("IndexThroughVars(%q) =\n%s\nwant it to contain %q", tc.in, out, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("IndexThroughVars(%q) =\n%s\nwant no %q", tc.in, out, w)
				}
			}
		})
	}
}

// TestForDriverUnreadable: an output the front-end cannot read is an error
// naming it, not a panic or a silent pass.
func TestForDriverUnreadable(t *testing.T) {
	if _, err := ForDriver(nil, "", "fn f( {"); err == nil || !strings.Contains(err.Error(), "reading naga's output") {
		t.Errorf("ForDriver(garbage) = %v, want an error about reading naga's output", err)
	}
}

// BenchmarkForDriver times the passes alone on the golden inputs
// (file=...): one read of naga's output as a tree, the passes, the print
// when something changed.
func BenchmarkForDriver(b *testing.B) {
	files, _ := filepath.Glob("testdata/*.wgsl")
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		in := string(src)
		b.Run("file="+strings.TrimSuffix(filepath.Base(path), ".wgsl"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = forDriverOn(in)
			}
		})
	}
}
