//go:build cgo

package wgpu

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadersMatch checks that capi.h's copies of webgpu.h and wgpu.h are
// the headers of the go-webgpu version that links wgpu-native, byte for
// byte, so that the shims are compiled against the library's own ABI.
func TestHeadersMatch(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/rajveermalviya/go-webgpu/wgpu").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Skip("go-webgpu's module directory is unknown (not downloaded)")
	}
	for _, name := range []string{"webgpu.h", "wgpu.h"} {
		want, err := os.ReadFile(filepath.Join(dir, "lib", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from go-webgpu's lib/%s: copy it again", name, name)
		}
	}
}

// TestErrorTypeOf checks that every WGPUErrorType keeps its kind.
func TestErrorTypeOf(t *testing.T) {
	for c, want := range map[uint32]ErrorType{1: ErrorTypeValidation, 2: ErrorTypeOutOfMemory, 3: ErrorTypeInternal, 4: ErrorTypeInternal, 5: ErrorTypeInternal} {
		if got := errorTypeOf(c); got != want {
			t.Errorf("errorTypeOf(%d) = %v, want %v", c, got, want)
		}
	}
}
