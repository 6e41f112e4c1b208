//go:build unix && !js

// The runner's tests are Unix-only: they send signals and look for
// Chromium processes left behind; the runner itself builds everywhere but js.

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/streamgate/streamgate/internal/chromium"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// build builds the runner and testdata/prog (for js/wasm) once per test
// binary, and returns their paths.
func build(t *testing.T) (runner, prog string) {
	t.Helper()
	chromium.Require(t)
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "wasmexec-test-")
		if buildErr != nil {
			return
		}
		var out []byte
		out, buildErr = exec.Command("go", "build", "-o", filepath.Join(buildDir, "wasmexec"), ".").CombinedOutput()
		if buildErr != nil {
			buildErr = &buildError{"wasmexec", out, buildErr}
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(buildDir, "prog.wasm"), "./testdata/prog")
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, buildErr = cmd.CombinedOutput()
		if buildErr != nil {
			buildErr = &buildError{"testdata/prog", out, buildErr}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, "wasmexec"), filepath.Join(buildDir, "prog.wasm")
}

type buildError struct {
	what string
	out  []byte
	err  error
}

func (e *buildError) Error() string {
	return "building " + e.what + ": " + e.err.Error() + "\n" + string(e.out)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
	elapsed        time.Duration
}

// runProg runs the runner on prog with args in dir, with env added, and
// checks that it leaves no process behind.
func runProg(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	runner, prog := build(t)
	// A mark in the environment, which Chromium's processes inherit: any
	// process that still has it after the runner exits leaked.
	mark := make([]byte, 8)
	rand.Read(mark)
	markVar := "WASMEXEC_TEST_MARK=" + hex.EncodeToString(mark)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var argv []string
	for _, a := range args {
		if a == "PROG" {
			a = prog
		}
		argv = append(argv, a)
	}
	cmd := exec.CommandContext(ctx, runner, argv...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), markVar), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("wasmexec %q: %v\nstderr:\n%s", args, err, r.stderr)
	}
	if pids := marked(markVar); len(pids) > 0 {
		t.Errorf("wasmexec %q left processes %v running", args, pids)
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
	return r
}

// marked lists the processes whose environment holds kv.
func marked(kv string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, v := range bytes.Split(b, []byte{0}) {
			if string(v) == kv {
				var pid int
				for _, c := range e.Name() {
					pid = pid*10 + int(c-'0')
				}
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

func TestRunner(t *testing.T) {
	wd, _ := os.Getwd()
	data, err := os.ReadFile("testdata/data.txt")
	if err != nil {
		t.Fatal(err)
	}
	// TMPDIR must exist on the host too: Chromium keeps its profile there.
	hostTmp := t.TempDir()
	allBytes := make([]byte, 256)
	for i := range allBytes {
		allBytes[i] = byte(i)
	}
	for _, tc := range []struct {
		name       string
		env        []string
		args       []string
		code       int
		stdout     string
		stderrHas  string
		stdoutHas  string
		maxElapsed time.Duration
	}{
		{name: "argv", args: []string{"PROG", "args", "a", "b c", "-test.v"}, stdout: `["args" "a" "b c" "-test.v"]` + "\n"},
		{name: "env", env: []string{"STREAMGATE_X=1", "GOFLAGS=-x", "SECRET_X=2", "HOME=/home/h", "TMPDIR=" + hostTmp},
			args:   []string{"PROG", "env", "STREAMGATE_X", "GOFLAGS", "SECRET_X", "HOME", "TMPDIR", "PWD"},
			stdout: "STREAMGATE_X=1\nGOFLAGS=-x\nSECRET_X=\nHOME=/home/h\nTMPDIR=" + hostTmp + "\nPWD=" + wd + "\n"},
		{name: "exit 0", args: []string{"PROG", "exit", "0"}, stdout: "to stdout\nno newline", stderrHas: "to stderr\n"},
		{name: "exit 3", args: []string{"PROG", "exit", "3"}, code: 3, stdout: "to stdout\nno newline", stderrHas: "to stderr\n"},
		{name: "every byte", args: []string{"PROG", "bytes"}, stdout: string(allBytes)},
		{name: "read testdata", args: []string{"PROG", "read", "testdata/data.txt"}, stdout: string(data)},
		{name: "read absolute", args: []string{"PROG", "read", filepath.Join(wd, "testdata/data.txt")}, stdout: string(data)},
		{name: "read outside the module", args: []string{"PROG", "read", "/etc/hostname"}, code: 1, stdout: "error: open /etc/hostname: No such file or directory\n"},
		{name: "read missing", args: []string{"PROG", "read", "testdata/nope"}, code: 1, stdoutHas: "No such file or directory"},
		{name: "cwd", args: []string{"PROG", "cwd"}, stdout: wd + " <nil>\n"},
		{name: "temp dir", args: []string{"PROG", "tmp"}, stdout: "tmp ok\n"},
		{name: "temp dir in TMPDIR", env: []string{"TMPDIR=" + hostTmp}, args: []string{"PROG", "tmp"}, stdout: "tmp ok\n"},
		{name: "write outside tmp", args: []string{"PROG", "write-outside"}, stdout: "open testdata/new.txt: Read-only file system\n"},
		{name: "panic", args: []string{"PROG", "panic"}, code: 2, stderrHas: "panic: boom"},
		{name: "spin killed", args: []string{"-timeout", "10s", "PROG", "spin"}, code: 1, stdout: "spinning\n",
			stderrHas: "did not exit in 10s", maxElapsed: 40 * time.Second},
		{name: "block killed", env: []string{"WASMEXEC_TIMEOUT=10s"}, args: []string{"PROG", "block"}, code: 1, stdout: "blocking\n",
			stderrHas: "did not exit in 10s", maxElapsed: 40 * time.Second},
		{name: "adapter", env: []string{"STREAMGATE_REQUIRE_ADAPTER=1"}, args: []string{"PROG", "args"}, stdout: `["args"]` + "\n"},
		{name: "no adapter", env: []string{"STREAMGATE_REQUIRE_ADAPTER=1"}, args: []string{"-without-flag", "--enable-unsafe-webgpu", "PROG", "args"},
			code: 1, stderrHas: "requestAdapter() returned null: Chromium gives a WebGPU adapter headless only with --enable-unsafe-webgpu"},
		{name: "not wasm", args: []string{"wasmexec_test.go"}, code: 1, stderrHas: "is not a WebAssembly binary"},
		{name: "bad timeout", env: []string{"WASMEXEC_TIMEOUT=soon"}, args: []string{"PROG", "args"}, code: 1, stderrHas: "WASMEXEC_TIMEOUT=soon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runProg(t, wd, tc.env, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout: %q\nstderr: %q", r.code, tc.code, r.stdout, r.stderr)
			}
			if tc.stdout != "" && r.stdout != tc.stdout {
				t.Errorf("stdout %q, want %q", r.stdout, tc.stdout)
			}
			if !strings.Contains(r.stdout, tc.stdoutHas) {
				t.Errorf("stdout %q, want it to hold %q", r.stdout, tc.stdoutHas)
			}
			if !strings.Contains(r.stderr, tc.stderrHas) {
				t.Errorf("stderr %q, want it to hold %q", r.stderr, tc.stderrHas)
			}
			if tc.maxElapsed > 0 && r.elapsed > tc.maxElapsed {
				t.Errorf("took %v, want at most %v", r.elapsed, tc.maxElapsed)
			}
		})
	}
}

// TestSignal checks that a signal to the runner ends it and Chromium.
func TestSignal(t *testing.T) {
	runner, prog := build(t)
	markVar := "WASMEXEC_TEST_MARK=signal"
	cmd := exec.Command(runner, prog, "spin")
	cmd.Env = append(os.Environ(), markVar)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len("spinning\n"))
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "spinning\n" {
		cmd.Process.Kill()
		t.Fatalf("read %q, %v; want spinning", buf, err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("wasmexec did not exit 20s after SIGTERM")
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "interrupted by a signal") {
		t.Errorf("after SIGTERM: %v, stderr %q; want exit code 1 and interrupted by a signal", err, stderr.String())
	}
	if pids := marked(markVar); len(pids) > 0 {
		t.Errorf("left processes %v running", pids)
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// TestGoTest runs testdata/gotest with go test -exec, as make test-wasm
// runs the module's packages: a pass, then a failure go test must see.
func TestGoTest(t *testing.T) {
	runner, _ := build(t)
	if testing.Short() {
		t.Skip("builds a test binary for js/wasm")
	}
	for _, tc := range []struct {
		name string
		fail bool
		want []string
	}{
		{"pass", false, []string{"--- PASS: TestTempDirAndTestdata", "gotest ran in", "testdata/gotest", "ok  \t"}},
		{"fail", true, []string{"--- FAIL: TestFailsWhenAsked", "failing as asked", "FAIL\t"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("go", "test", "-count=1", "-v", "-exec", runner, "./testdata/gotest")
			cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
			if tc.fail {
				cmd.Env = append(cmd.Env, "STREAMGATE_WASMEXEC_FAIL=1")
			}
			out, err := cmd.CombinedOutput()
			if (err != nil) != tc.fail {
				t.Errorf("go test: %v, want failure %v\n%s", err, tc.fail, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("go test output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
