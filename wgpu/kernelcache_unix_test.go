//go:build cgo && unix

package wgpu_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/streamgate/streamgate/wgpu"
)

// TestKernelDirOddFiles: a FIFO, a symbolic link or a directory under an
// entry's name is a miss at once (a FIFO with no writer would block an
// open forever), and a compile past it lowers the source again.
func TestKernelDirOddFiles(t *testing.T) {
	dir := t.TempDir()
	kd := useKernelDir(t, dir)
	want := checkAll(t)
	files := entryFiles(t, dir)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, []byte("SGKERNEL1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
		var err error
		switch i % 3 {
		case 0:
			err = syscall.Mkfifo(f, 0o600)
		case 1:
			err = os.Symlink(target, f)
		case 2:
			err = os.Mkdir(f, 0o700)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan []string, 1)
	go func() {
		wgpu.ForgetKernels()
		done <- checkAll(t)
	}()
	select {
	case got := <-done:
		if len(got) != len(want) {
			t.Fatalf("got %d results, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("result %d changed:\n%s\nwant\n%s", i, got[i], want[i])
			}
		}
	case <-time.After(time.Minute):
		t.Fatal("a compile blocked on an odd file under an entry's name")
	}
	if _, ok := kd.LoadKernel(context.Background(), [32]byte{}); ok {
		t.Fatal("a missing entry loaded")
	}
}
