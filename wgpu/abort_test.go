//go:build cgo

package wgpu_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/internal/low/crash"
	"github.com/streamgate/streamgate/wgpu"
)

// abortCases are the calls that once killed the process, or would if the
// package let them reach wgpu-native: each returns an error now. Each runs
// in a child copy of the test binary, so a regression fails one test
// instead of ending the run.
var abortCases = map[string]struct {
	try  func(d *wgpu.Device) error
	want string // in the error
}{
	// go-webgpu hands wgpu-native a NULL code pointer: SIGSEGV.
	"empty-source": {func(d *wgpu.Device) error {
		return d.Compile(context.Background(), gpu.NewKernel("empty", "", "main"))
	}, "empty source"},
	"whitespace-source": {func(d *wgpu.Device) error {
		return d.Compile(context.Background(), gpu.NewKernel("blank", " \n\t/* */ // x\n", "main"))
	}, "empty source"},
	// naga's recursive descent overflows its stack.
	"10000-parens": {func(d *wgpu.Device) error {
		src := "@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(1) fn main() { x[0] = " +
			strings.Repeat("(", 10000) + "1u" + strings.Repeat(")", 10000) + "; }"
		return d.Compile(context.Background(), gpu.NewKernel("deep", src, "main"))
	}, "nesting depth"},
	"long-unary-chain": {func(d *wgpu.Device) error {
		src := "@compute @workgroup_size(1) fn main() { let x = " + strings.Repeat("-", 20000) + "1; }"
		return d.Compile(context.Background(), gpu.NewKernel("unary", src, "main"))
	}, "nesting depth"},
	"long-binary-chain": {func(d *wgpu.Device) error {
		src := "@compute @workgroup_size(1) fn main() { let x = 1u" + strings.Repeat(" + 1u", 20000) + "; }"
		return d.Compile(context.Background(), gpu.NewKernel("binary", src, "main"))
	}, "expression longer than the limit"},
	// wgpu-native panics (and aborts) converting a source that is not UTF-8;
	// found by FuzzWGSL.
	"invalid-utf8-source": {func(d *wgpu.Device) error {
		src := "// a /* in a line c\xe8\x03ment\n@group(0) @binding(0) var<storage, read_write> x: array<u32>;\n@compute @workgroup_size(1) fn main() { x[0] = 1u; }"
		return d.Compile(context.Background(), gpu.NewKernel("utf8", src, "main"))
	}, "not valid UTF-8"},
	"nul-in-source": {func(d *wgpu.Device) error {
		src := "@compute @workgroup_size(1) fn main() {}\x00 garbage the C string would hide"
		return d.Compile(context.Background(), gpu.NewKernel("nul", src, "main"))
	}, "NUL byte"},
	// The same conversion applies to labels: a kernel's name is cleaned.
	"invalid-utf8-name": {func(d *wgpu.Device) error {
		err := d.Compile(context.Background(), gpu.NewKernel("bad\xe8\x03name\x00", incWGSL, "main"))
		return fmt.Errorf("compiled: %v", err)
	}, "compiled: <nil>"},
	// The compiler takes memory in proportion to workgroup, private and
	// function arrays: a 400 MB workgroup array got the process killed, a
	// 4 MB function-scope one took 2.5 GB.
	"workgroup-400MB": {func(d *wgpu.Device) error {
		src := "var<workgroup> big: array<u32, 100000000>;\n@compute @workgroup_size(1) fn main() { big[0] = 1u; }"
		return d.Compile(context.Background(), gpu.NewKernel("wg", src, "main"))
	}, "workgroup memory in all, more than the limit"},
	"function-array-40MB": {func(d *wgpu.Device) error {
		src := "@compute @workgroup_size(1) fn main() { var big: array<u32, 10000000>; big[0] = 1u; }"
		return d.Compile(context.Background(), gpu.NewKernel("fn", src, "main"))
	}, "bytes of function memory, more than the limit"},
	// A destroyed buffer used in a submit aborts wgpu-native: buffers are
	// only ever released, and a released one is refused.
	"released-buffer": {func(d *wgpu.Device) error {
		b, err := d.NewBuffer(256, 0)
		if err != nil {
			return err
		}
		k := gpu.NewKernel("inc", incWGSL, "main")
		if err := d.Launch(1, k, [3]uint32{1, 1, 1}, b); err != nil {
			return err
		}
		b.Release() // submits the pending launch first
		var errs []string
		if err := d.Launch(1, k, [3]uint32{1, 1, 1}, b); err != nil {
			errs = append(errs, err.Error())
		}
		if err := wgpu.Write(b, 0, make([]byte, 16)); err != nil {
			errs = append(errs, err.Error())
		}
		if _, err := wgpu.Read[byte](context.Background(), b, 0, int(b.Size())); err != nil {
			errs = append(errs, err.Error())
		}
		if len(errs) != 3 {
			return fmt.Errorf("only %d of 3 uses of a released buffer failed: %v", len(errs), errs)
		}
		if err := d.Sync(context.Background(), 1); err != nil {
			return err
		}
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}, "buffer is released"},
	// A command buffer submitted twice aborts wgpu-native: each encoder is
	// finished and submitted once, whatever the calls.
	"double-submit": {func(d *wgpu.Device) error {
		b, err := d.NewBuffer(256, 0)
		if err != nil {
			return err
		}
		k := gpu.NewKernel("inc", incWGSL, "main")
		if err := d.Launch(1, k, [3]uint32{1, 1, 1}, b); err != nil {
			return err
		}
		for range 3 {
			if err := d.Flush(1); err != nil {
				return err
			}
		}
		if err := d.Sync(context.Background(), 1); err != nil {
			return err
		}
		if err := d.Sync(context.Background(), 1); err != nil {
			return err
		}
		if err := d.CloseStream(1); err != nil {
			return err
		}
		if err := d.Flush(1); err != nil {
			return err
		}
		got, err := wgpu.Read[uint32](context.Background(), b, 0, int(b.Size()/4))
		if err != nil {
			return err
		}
		return fmt.Errorf("counter %d", got[0])
	}, "counter 1"},
	// A timestamp query set on a device without the feature aborts
	// wgpu-native: it is never created then.
	"timestamps-without-feature": {func(d *wgpu.Device) error {
		d.Close()
		nd, err := wgpu.Open(wgpu.Options{DisableTimestamps: true})
		if err != nil {
			return err
		}
		defer nd.Close()
		called := false
		_, err = nd.TimeStream(context.Background(), 1, func() error { called = true; return nil })
		if called {
			return fmt.Errorf("TimeStream called fn on a device without timestamps")
		}
		return err
	}, "no timestamp-query feature"},
}

const (
	abortCaseEnv = "STREAMGATE_ABORT_CASE"
	// deliberateCrash is a child that dies as a driver abort would.
	deliberateCrash = "deliberate-crash"
)

// TestAbortPaths runs each abort case in a child process and checks that
// the child exits normally with the case's error.
func TestAbortPaths(t *testing.T) {
	if name := os.Getenv(abortCaseEnv); name != "" {
		if name == deliberateCrash {
			crash.Now()
			time.Sleep(time.Minute)
		}
		c, ok := abortCases[name]
		if !ok {
			t.Fatalf("no abort case %q", name)
		}
		d := openTestDevice(t)
		err := c.try(d)
		fmt.Printf("ABORT-CASE-RESULT: %v\n", err)
		return
	}
	for name, c := range abortCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			result, out, err := runAbortCase(name)
			if err != nil {
				t.Fatalf("child for %s: %v (the process died?)\n%s", name, err, out)
			}
			if !strings.Contains(result, c.want) {
				t.Errorf("child for %s: result %q, want it to contain %q\n%s", name, result, c.want, out)
			}
		})
	}
}

// runAbortCase runs abort case name in a child copy of the test binary and
// returns the result line it printed, its output, and its exit error.
func runAbortCase(name string) (result string, out []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestAbortPaths$", "-test.count=1")
	cmd.Env = append(os.Environ(), abortCaseEnv+"="+name)
	out, err = cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if r, ok := strings.CutPrefix(line, "ABORT-CASE-RESULT: "); ok {
			result = r
		}
	}
	return result, out, err
}

// TestAbortPathsCatchACrash: the child-process harness reports a child that
// dies the way a driver abort kills a process (SIGSEGV on Unix), rather than
// dying with it.
func TestAbortPathsCatchACrash(t *testing.T) {
	_, out, err := runAbortCase(deliberateCrash)
	if err == nil || !strings.Contains(string(out), crash.Signature) {
		t.Fatalf("child dying (%s): exit error %v, want a failure showing it\n%s", crash.Signature, err, out)
	}
}
