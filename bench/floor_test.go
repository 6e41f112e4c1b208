//go:build cgo

package bench

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/streamgate/streamgate/internal/gputest"
)

func TestParseFloorReply(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		want    int64
		wantErr string // a substring of the error, "" for none
	}{
		{name: "ok", line: "ok\tkernels=3\tdispatches=1000\tns=123456\n", want: 123456},
		{name: "no newline", line: "ok\tkernels=3\tdispatches=1000\tns=7", want: 7},
		{name: "driver error", line: "error\tdriver error 2: Validation Error\n", wantErr: "Validation Error"},
		{name: "other request", line: "ok\tkernels=1\tdispatches=1000\tns=5\n", wantErr: "to a request for kernels=3"},
		{name: "other count", line: "ok\tkernels=3\tdispatches=10\tns=5\n", wantErr: "to a request for"},
		{name: "no ns", line: "ok\tkernels=3\tdispatches=1000\tt=5\n", wantErr: "no ns="},
		{name: "negative ns", line: "ok\tkernels=3\tdispatches=1000\tns=-5\n", wantErr: "no ns="},
		{name: "garbage", line: "warning: something\n", wantErr: "answered"},
		{name: "empty", line: "", wantErr: "answered"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseFloorReply(tc.line, 3, 1000)
			if tc.wantErr == "" {
				if err != nil || got != tc.want {
					t.Fatalf("parseFloorReply(%q) = %d, %v, want %d, nil", tc.line, got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("parseFloorReply(%q) = %d, %v, want an error with %q", tc.line, got, err, tc.wantErr)
			}
		})
	}
}

// TestFloorWithoutCompilerFailsClearly: with no C compiler, starting the C
// floor fails with ErrNoCCompiler, before it builds or runs anything.
func TestFloorWithoutCompilerFailsClearly(t *testing.T) {
	t.Run("CC names no program", func(t *testing.T) {
		t.Setenv("CC", "streamgate-no-such-cc")
		f, err := startFloor([]string{floorTestWGSL}, 10)
		if !errors.Is(err, ErrNoCCompiler) {
			t.Fatalf("startFloor = %v, %v, want ErrNoCCompiler", f, err)
		}
	})
	t.Run("none on PATH", func(t *testing.T) {
		t.Setenv("CC", "")
		t.Setenv("PATH", t.TempDir())
		f, err := startFloor([]string{floorTestWGSL}, 10)
		if !errors.Is(err, ErrNoCCompiler) {
			t.Fatalf("startFloor = %v, %v, want ErrNoCCompiler", f, err)
		}
	})
}

// TestFloorBuildFailureSaysWhy: a compiler that fails makes an error that
// names the build and carries its command.
func TestFloorBuildFailureSaysWhy(t *testing.T) {
	lib, err := goWebGPULib()
	if err != nil {
		t.Skipf("no go-webgpu lib directory: %v", err)
	}
	_, err = buildFloor("false", lib, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "building the C floor: false -O2") {
		t.Fatalf("buildFloor(false) = %v, want an error naming the build and its command", err)
	}
}

const floorTestWGSL = `
@group(0) @binding(0) var<storage, read_write> x: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
	if (id.x < arrayLength(&x)) {
		x[id.x] = x[id.x] + 1u;
	}
}
`

// TestFloorRuns builds the C floor and has it time dispatches over one
// and three kernels, and refuse a request for more kernels than it has.
func TestFloorRuns(t *testing.T) {
	src := []string{floorTestWGSL, floorTestWGSL + "// 1\n", floorTestWGSL + "// 2\n"}
	f, err := startFloor(src, 100)
	if errors.Is(err, ErrNoCCompiler) && !gputest.Required() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("startFloor: %v", err)
	}
	defer f.Close()
	for _, kernels := range []int{1, 3} {
		ns, err := f.Run(kernels, 250) // three passes: 100, 100, 50
		if err != nil || ns <= 0 {
			t.Fatalf("Run(%d, 250) = %d, %v, want a positive time", kernels, ns, err)
		}
	}
	if ns, err := f.Run(4, 10); err == nil || !strings.Contains(err.Error(), "bad request") {
		t.Fatalf("Run(4, 10) = %d, %v, want a bad request error", ns, err)
	}
}

// TestFloorBadKernelSaysWhy: a kernel the driver refuses ends the child
// before it is ready, and the error carries the driver's message.
func TestFloorBadKernelSaysWhy(t *testing.T) {
	f, err := startFloor([]string{"fn main( {"}, 10)
	if errors.Is(err, ErrNoCCompiler) && !gputest.Required() {
		t.Skip(err)
	}
	if err == nil {
		f.Close()
		t.Fatal("startFloor(bad WGSL) = nil error, want the driver's")
	}
	if !strings.Contains(err.Error(), "kernel0.wgsl") {
		t.Fatalf("startFloor(bad WGSL) = %v, want the kernel file and the driver's message", err)
	}
	t.Log(err)
}

// TestInProcessFloor: the C floor compiled into this process refuses a
// kernel the driver refuses, saying which and why, and can be opened
// after; then it times dispatches over one and three kernels, refuses a
// request for more kernels than it has, and a second open is a no-op.
func TestInProcessFloor(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the in-process floor is built on linux only")
	}
	if _, err := runInProcessFloor(1, 10, 10); err == nil || !strings.Contains(err.Error(), "not open") {
		t.Fatalf("run before open = %v, want a not open error", err)
	}
	if err := openInProcessFloor(nil); err == nil || !strings.Contains(err.Error(), "1 to 8 kernels") {
		t.Fatalf("open of no kernels = %v, want an error saying how many it takes", err)
	}
	err := openInProcessFloor([]string{floorTestWGSL, "fn main( {"})
	if err != nil && strings.Contains(err.Error(), "no adapter") && !gputest.Required() {
		t.Skip(err)
	}
	if err == nil || !strings.Contains(err.Error(), "kernel 1") {
		t.Fatalf("open with bad WGSL = %v, want an error naming kernel 1 and the driver's message", err)
	}
	t.Log(err)
	src := []string{floorTestWGSL, floorTestWGSL + "// 1\n", floorTestWGSL + "// 2\n"}
	if err := openInProcessFloor(src); err != nil {
		t.Fatalf("open after a failed one: %v", err)
	}
	for _, kernels := range []int{1, 3} {
		ns, err := runInProcessFloor(kernels, 250, 100) // three passes: 100, 100, 50
		if err != nil || ns <= 0 {
			t.Fatalf("run(%d, 250) = %d, %v, want a positive time", kernels, ns, err)
		}
	}
	if ns, err := runInProcessFloor(4, 10, 10); err == nil || !strings.Contains(err.Error(), "bad request") {
		t.Fatalf("run(4, 10) = %d, %v, want a bad request error", ns, err)
	}
	if err := openInProcessFloor(src[:1]); err != nil {
		t.Fatalf("a second open = %v, want nil (the floor is open)", err)
	}
}
