// Package gotest is a test package that wasmexec's tests run with
// GOOS=js GOARCH=wasm go test -exec wasmexec.
package gotest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTempDirAndTestdata(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "x")
	if err := os.WriteFile(f, []byte("written"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(f); string(b) != "written" || err != nil {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	b, err := os.ReadFile("../data.txt")
	if err != nil || !strings.HasPrefix(string(b), "hello from testdata") {
		t.Fatalf("ReadFile(../data.txt) = %q, %v", b, err)
	}
	t.Log("gotest ran in", os.Getenv("PWD"))
}

func TestFailsWhenAsked(t *testing.T) {
	if os.Getenv("STREAMGATE_WASMEXEC_FAIL") == "1" {
		t.Fatal("failing as asked")
	}
}
