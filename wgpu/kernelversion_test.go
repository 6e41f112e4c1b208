//go:build cgo

package wgpu

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// kernelCodeFiles are the files whose code makes a kernel cache entry.
var kernelCodeFiles = []string{
	"internal/lower/*.go", "wgsl/*.go", "internal/naga/version.go",
	"check.go", "check_lower.go", "wgsl.go", "kernelcache_lower.go",
}

// TestKernelCodeVersion: the code whose results the kernel cache keeps is
// the code kernelCodeVersion names (kernelCodeHash), so that a change of
// it never reads what the old code wrote.
func TestKernelCodeVersion(t *testing.T) {
	var files []string
	for _, pat := range kernelCodeFiles {
		m, err := filepath.Glob(pat)
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: %v, %d files", pat, err, len(m))
		}
		for _, f := range m {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(f), len(b))
		h.Write(b)
	}
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != kernelCodeHash {
		t.Fatalf("the code the kernel cache keeps the results of changed (%d files): in kernelversion_lower.go, "+
			"set kernelCodeVersion = %d and kernelCodeHash = %q, so that no process reads what the old code wrote", len(files), kernelCodeVersion+1, got)
	}
}
