package bench

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// floorSource is the C floor (cfloor/floor.c): the ExecutedLaunch and
// Replay loop written in C against the static wgpu-native that go-webgpu
// ships, with no Go and no cgo on the path.
//
//go:embed cfloor/floor.c
var floorSource []byte

// goWebGPU is the module whose lib directory holds wgpu-native's headers
// and static libraries, one per GOOS/GOARCH.
const goWebGPU = "github.com/rajveermalviya/go-webgpu/wgpu"

// ErrNoCCompiler is what building the C floor returns, wrapped, when there
// is no C compiler: $CC, else cc or gcc on $PATH.
var ErrNoCCompiler = errors.New("bench: the C floor needs a C compiler ($CC, cc or gcc on $PATH)")

// cFloor is the C floor built and running as a child process that serves
// requests on its standard input (floor.c's -serve). It is not safe for
// concurrent use.
type cFloor struct {
	dir    string // the temporary directory of the binary and the kernels
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer // the child's standard error, for a failure's message
	dead   error         // why the child is gone, once it is; nil before
}

// cCompiler returns the C compiler to build the floor with: $CC, else cc or
// gcc on $PATH.
func cCompiler() (string, error) {
	if cc := os.Getenv("CC"); cc != "" {
		path, err := exec.LookPath(cc)
		if err != nil {
			return "", fmt.Errorf("%w: $CC=%q: %v", ErrNoCCompiler, cc, err)
		}
		return path, nil
	}
	for _, cc := range []string{"cc", "gcc"} {
		if path, err := exec.LookPath(cc); err == nil {
			return path, nil
		}
	}
	return "", ErrNoCCompiler
}

// goWebGPULib returns the lib directory of the go-webgpu module this binary
// was built with, in the module cache.
func goWebGPULib() (string, error) {
	version := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == goWebGPU {
				if m.Replace != nil && m.Replace.Version == "" {
					return filepath.Join(m.Replace.Path, "lib"), nil
				}
				version = m.Version
			}
		}
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return "", fmt.Errorf("bench: the C floor: go env GOMODCACHE: %v", err)
		}
		cache = strings.TrimSpace(string(out))
	}
	if version == "" {
		// A binary without module information (some test binaries): ask
		// the go command, from within the module.
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", goWebGPU).Output()
		if err != nil {
			return "", fmt.Errorf("bench: the C floor: no version of %s in the binary, and go list -m: %v", goWebGPU, err)
		}
		return filepath.Join(strings.TrimSpace(string(out)), "lib"), nil
	}
	return filepath.Join(cache, goWebGPU+"@"+version, "lib"), nil
}

// buildFloor compiles floor.c with cc against the static wgpu-native in lib
// into dir, returning the binary's path. The error says what failed, with
// the compiler's output.
func buildFloor(cc, lib, dir string) (string, error) {
	if runtime.GOOS != "linux" {
		return "", fmt.Errorf("bench: the C floor builds on linux only, not %s", runtime.GOOS)
	}
	static := filepath.Join(lib, runtime.GOOS, runtime.GOARCH, "libwgpu_native.a")
	if _, err := os.Stat(static); err != nil {
		return "", fmt.Errorf("bench: the C floor: wgpu-native's static library: %v", err)
	}
	src := filepath.Join(dir, "floor.c")
	if err := os.WriteFile(src, floorSource, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "floor")
	cmd := exec.Command(cc, "-O2", "-I"+lib, "-o", bin, src, static, "-lm", "-ldl", "-lpthread")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("bench: building the C floor: %s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return bin, nil
}

// startFloor builds the C floor into a new temporary directory and starts
// it on kernels (WGSL sources, one a variant), each dispatch count split in
// passes of at most chunk. Close it after use.
func startFloor(kernels []string, chunk int) (_ *cFloor, err error) {
	cc, err := cCompiler()
	if err != nil {
		return nil, err
	}
	lib, err := goWebGPULib()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "streamgate-cfloor-")
	if err != nil {
		return nil, err
	}
	f := &cFloor{dir: dir}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	bin, err := buildFloor(cc, lib, dir)
	if err != nil {
		return nil, err
	}
	args := []string{"-serve", "-n", strconv.Itoa(chunk)}
	for i, k := range kernels {
		path := filepath.Join(dir, fmt.Sprintf("kernel%d.wgsl", i))
		if err := os.WriteFile(path, []byte(k), 0o644); err != nil {
			return nil, err
		}
		args = append(args, path)
	}
	f.cmd = exec.Command(bin, args...)
	f.stderr = new(bytes.Buffer)
	f.cmd.Stderr = f.stderr
	if f.in, err = f.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := f.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	f.out = bufio.NewReader(out)
	if err := f.cmd.Start(); err != nil {
		f.cmd = nil
		return nil, fmt.Errorf("bench: starting the C floor: %v", err)
	}
	// The device and the pipelines are made before the first request, so
	// that it times dispatches alone.
	line, err := f.out.ReadString('\n')
	if err != nil {
		return nil, f.failed(err)
	}
	if line != "ready\n" {
		return nil, fmt.Errorf("bench: the C floor started with %q, want \"ready\"", line)
	}
	return f, nil
}

// Run has the floor record count dispatches alternating over kernels
// pipelines and returns the nanoseconds its timed part took.
func (f *cFloor) Run(kernels, count int) (ns int64, err error) {
	if f.dead != nil {
		return 0, f.dead
	}
	if _, err := fmt.Fprintf(f.in, "%d %d\n", kernels, count); err != nil {
		return 0, f.failed(err)
	}
	line, err := f.out.ReadString('\n')
	if err != nil {
		return 0, f.failed(err)
	}
	return parseFloorReply(line, kernels, count)
}

// failed ends the child, whose pipe failed with err, and returns err with
// what the child wrote on its standard error; later calls of Run return it
// too.
func (f *cFloor) failed(err error) error {
	f.in.Close()
	f.in = nil
	f.cmd.Wait() // the child has closed its end: it is gone or going
	f.cmd = nil
	f.dead = fmt.Errorf("bench: the C floor: %v", err)
	if msg := strings.TrimSpace(f.stderr.String()); msg != "" {
		f.dead = fmt.Errorf("bench: the C floor: %v: %s", err, msg)
	}
	return f.dead
}

// parseFloorReply parses the floor's answer to a request for count
// dispatches over kernels pipelines, "ok\tkernels=K\tdispatches=N\tns=T",
// returning T; an "error\tMESSAGE" answer returns MESSAGE as an error.
func parseFloorReply(line string, kernels, count int) (int64, error) {
	fields := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
	switch {
	case fields[0] == "error" && len(fields) > 1:
		return 0, fmt.Errorf("bench: the C floor: %s", strings.Join(fields[1:], " "))
	case fields[0] != "ok" || len(fields) != 4:
		return 0, fmt.Errorf("bench: the C floor answered %q", line)
	}
	want := []string{"kernels=" + strconv.Itoa(kernels), "dispatches=" + strconv.Itoa(count)}
	if fields[1] != want[0] || fields[2] != want[1] {
		return 0, fmt.Errorf("bench: the C floor answered %q to a request for %s %s", line, want[0], want[1])
	}
	v, ok := strings.CutPrefix(fields[3], "ns=")
	ns, err := strconv.ParseInt(v, 10, 64)
	if !ok || err != nil || ns < 0 {
		return 0, fmt.Errorf("bench: the C floor answered %q: no ns=", line)
	}
	return ns, nil
}

// Close stops the child and removes its directory.
func (f *cFloor) Close() {
	if f.in != nil {
		f.in.Close() // the child exits at the end of its input
	}
	if f.cmd != nil {
		f.cmd.Wait()
	}
	os.RemoveAll(f.dir)
}
