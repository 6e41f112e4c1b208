package wgsl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestSprintMarks: over the corpus, SprintMarks writes what Sprint writes,
// its marks never go back, and each name, literal, declaration and
// statement is marked where its text begins in the output.
func TestSprintMarks(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*/*.wgsl")
	if len(files) < 200 {
		t.Fatalf("corpus: %d files", len(files))
	}
	checked := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := wgsl.ParseFile(string(b), wgsl.Limits{})
		if err != nil {
			continue
		}
		out, marks := wgsl.SprintMarks(f)
		if out != wgsl.Sprint(f) {
			t.Fatalf("%s: SprintMarks and Sprint differ", path)
		}
		seen := map[wgsl.Node]bool{}
		for i, m := range marks {
			if i > 0 && m.Out < marks[i-1].Out {
				t.Fatalf("%s: mark %d at %d, before mark %d at %d", path, i, m.Out, i-1, marks[i-1].Out)
			}
			seen[m.Node] = true
			var want string
			switch n := m.Node.(type) {
			case *wgsl.Ident:
				want = n.Name
			case *wgsl.Literal:
				want = n.Text
			case *wgsl.FuncDecl:
				want = "fn " + n.Name
				if len(n.Attrs) > 0 {
					want = "@" + n.Attrs[0].Name
				}
			case *wgsl.ReturnStmt:
				want = "return"
			case *wgsl.Param:
				want = n.Name
				if len(n.Attrs) > 0 {
					want = "@" + n.Attrs[0].Name
				}
			}
			if !strings.HasPrefix(out[m.Out:], want) {
				t.Fatalf("%s: a %T marked at %d, where the output has %.20q, want %q", path, m.Node, m.Out, out[m.Out:], want)
			}
		}
		// Every identifier of the tree is marked.
		wgsl.Inspect(f, func(n wgsl.Node) bool {
			if id, ok := n.(*wgsl.Ident); ok && !seen[id] {
				t.Fatalf("%s: identifier %s at %d not marked", path, id.Name, id.At)
			}
			return true
		})
		checked++
	}
	if checked < 200 {
		t.Errorf("checked %d modules", checked)
	}
}
