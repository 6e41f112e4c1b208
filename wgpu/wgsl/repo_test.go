package wgsl_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// placeholder matches the $T, $TT, $W... parameters the repository's kernel
// templates substitute before compiling.
var placeholder = regexp.MustCompile(`\$[A-Z]+`)

// repoKernels returns every string literal in the repository's Go files that
// declares a @compute entry point, keyed by file:line.
func repoKernels(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	out := map[string]string{}
	for _, dir := range []string{"wgpu", "client", "cmd/streamgate", "bench", "tune"} {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				// A kernel declares a function; fragments of test sources
				// and error messages do not balance their braces or lack fn.
				// Printf templates (%d) are filled in first; abort_test.go's
				// sources are bad on purpose.
				if err != nil || !strings.Contains(s, "@compute") || !strings.Contains(s, "fn ") ||
					strings.Count(s, "{") != strings.Count(s, "}") || strings.Contains(s, "%") ||
					strings.HasSuffix(name, "abort_test.go") {
					return true
				}
				out[filepath.ToSlash(strings.TrimPrefix(fset.Position(lit.Pos()).String(), root+string(filepath.Separator)))] = s
				return true
			})
		}
	}
	return out
}

// TestRepoKernels parses every kernel of the repository: all must parse,
// with runtime-sized f32/u32 arrays of MinSize 4 and vec4<u32> uniforms of
// 16 bytes, except the deliberately refused external texture.
func TestRepoKernels(t *testing.T) {
	kernels := repoKernels(t)
	if len(kernels) < 10 {
		t.Fatalf("found %d kernels in the repository, want at least 10", len(kernels))
	}
	for where, src := range kernels {
		t.Run(where, func(t *testing.T) {
			src := placeholder.ReplaceAllString(src, "16")
			m, err := wgsl.Parse(src, wgsl.Limits{MaxBindings: 16})
			if strings.Contains(src, "texture_external") {
				if err == nil || !strings.Contains(err.Error(), "texture_external is not available") {
					t.Fatalf("Parse = %v, want the external texture refused", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse = %v\n%s", err, src)
			}
			if len(m.EntryPoints) == 0 {
				t.Errorf("no entry points")
			}
			for _, b := range m.Bindings {
				want := map[string]uint64{"array<f32>": 4, "array<u32>": 4, "vec4<u32>": 16, "array<atomic<u32>>": 4}[b.Type]
				if want == 0 {
					t.Logf("binding %+v", b)
					continue
				}
				if b.MinSize != want {
					t.Errorf("binding %s: MinSize = %d, want %d", b.Name, b.MinSize, want)
				}
			}
		})
	}
}
