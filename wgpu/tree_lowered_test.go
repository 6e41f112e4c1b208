package wgpu_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamgate/streamgate/wgpu"
	"github.com/streamgate/streamgate/wgpu/wgsl"
)

// TestTreeOfLowered: naga 30's output for every corpus module it lowers
// reads into the syntax tree, and the printed tree reads back the same:
// the tree can carry the lowering's passes.
func TestTreeOfLowered(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*/*.wgsl")
	if err != nil || len(files) < 200 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	big := wgsl.Limits{MaxModuleTokens: 1 << 30, MaxFunctionTokens: 1 << 30, MaxExpressionTokens: 1 << 30, MaxSourceBytes: 1 << 30}
	lowered := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		mi, err := wgpu.CheckModule(context.Background(), string(b), nil, wgpu.Limits{})
		if err != nil {
			continue
		}
		lowered++
		f, err := wgsl.ParseFile(mi.Lowered, big)
		if err != nil {
			t.Errorf("%s: ParseFile(lowered) = %v", path, err)
			continue
		}
		g, err := wgsl.ParseFile(wgsl.Sprint(f), big)
		if err != nil || !wgsl.Equal(f, g) {
			t.Errorf("%s: the lowered module's printed tree reads back as another (%v)", path, err)
		}
	}
	t.Logf("%d of %d corpus modules lowered; each lowered module read into a tree and back", lowered, len(files))
	if lowered < 150 {
		t.Errorf("only %d corpus modules lowered", lowered)
	}
}
