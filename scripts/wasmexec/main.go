//go:build !js

// Command wasmexec runs a GOOS=js GOARCH=wasm program in headless Chromium:
// it is the runner of go test -exec for the js/wasm port,
//
//	GOOS=js GOARCH=wasm go test -exec wasmexec ./pkg
//	wasmexec [-timeout d] [-v] [-without-flag f] prog.wasm [args...]
//
// It serves the binary and the wasm_exec.js of the same GOROOT ($GOROOT, else
// `go env GOROOT`) on 127.0.0.1 on a random port, opens the page in the
// Chromium of internal/chromium (with its WebGPU flags), and runs the program
// there with:
//
//   - argv: the program's path, then args;
//   - the environment: every variable named GO*, STREAMGATE_* or WASMEXEC_*,
//     and HOME, TMPDIR, USER, LANG, TZ; PWD is the working directory;
//   - the working directory of the runner (go test runs it in the package's
//     directory), so relative paths such as testdata/x work;
//   - files: the module root (the nearest directory above the working
//     directory with a go.mod, else the working directory) read-only, served
//     by the runner and read with synchronous XHR; /tmp and $TMPDIR writable,
//     in the page's memory (t.TempDir works; nothing reaches the disk); any
//     other path does not exist, and a write outside /tmp fails with EROFS;
//   - stdout and stderr, byte for byte and in order, to the runner's, so go
//     test parses them as it parses a native binary's;
//   - the exit code of the program as the runner's;
//   - a cross-origin isolated page (COOP and COEP headers), where
//     performance.now(), Go's clock, is finer (5µs steps, not 100µs).
//
// A program that never exits — a deadlock in the page, a goroutine that
// spins without preemption — is killed after the timeout: -timeout, else
// $WASMEXEC_TIMEOUT, else the -test.timeout that go test passes plus 20s
// (before go test's own kill a minute after it, and after the test binary's
// own timeout panic, which prints the goroutines when the page can still run
// it), else 9m. The runner then prints what happened and exits with 1.
// A signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) ends it the same way. Every
// exit path kills Chromium and every process it started.
//
// With STREAMGATE_REQUIRE_ADAPTER=1 it first checks that the page gets a
// WebGPU adapter from navigator.gpu.requestAdapter(), and fails with a
// message that names the missing flag otherwise. -v (or WASMEXEC_VERBOSE=1)
// prints the runner's steps with their times, the page's console and
// Chromium's own output on stderr. -without-flag drops one of
// internal/chromium's flags, to see what it does.
//
// Build it with `go build -o .tools/bin/wasmexec ./scripts/wasmexec` (make
// test-wasm does).
package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/streamgate/streamgate/internal/chromium"
)

//go:embed index.html
var indexHTML []byte

//go:embed page.js
var pageJS []byte

// binding is the CDP binding the page sends its output and exit code on.
const binding = "__wasmexecOut"

// defaultTimeout is the timeout without a flag, $WASMEXEC_TIMEOUT or
// -test.timeout: a bit under go test's default of 10m.
const defaultTimeout = 9 * time.Minute

// adapterJS checks for a WebGPU adapter: "" when there is one, else why not.
const adapterJS = `(async () => {
	if (!navigator.gpu) return "navigator.gpu is undefined (WebGPU disabled, or the page is not a secure context)";
	const a = await navigator.gpu.requestAdapter();
	return a === null ? "navigator.gpu.requestAdapter() returned null" : "";
})()`

func main() {
	becomeSubreaper()
	code := run(os.Args[1:])
	reapChildren()
	os.Exit(code)
}

type runner struct {
	verbose bool
	start   time.Time
	stdout  io.Writer
	stderr  io.Writer

	mu     sync.Mutex
	exited bool // the page sent its exit code; later output is dropped
	exit   chan int
	crash  chan struct{}
	once   sync.Once
}

func (r *runner) logf(format string, args ...any) {
	if r.verbose {
		fmt.Fprintf(r.stderr, "wasmexec: %7.3fs "+format+"\n", append([]any{time.Since(r.start).Seconds()}, args...)...)
	}
}

func (r *runner) failf(format string, args ...any) int {
	fmt.Fprintf(r.stderr, "wasmexec: "+format+"\n", args...)
	return 1
}

func run(argv []string) int {
	r := &runner{start: time.Now(), stdout: os.Stdout, stderr: os.Stderr, exit: make(chan int, 1), crash: make(chan struct{})}
	a, code := r.parseArgs(argv)
	if a == nil {
		return code
	}
	timeout, err := pickTimeout(a.timeout, a.args)
	if err != nil {
		return r.failf("%v", err)
	}
	p, err := loadProgram(a.prog, a.args)
	if err != nil {
		return r.failf("%v", err)
	}

	// Every exit path below runs the deferred cancels, which kill Chromium.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer stop()
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()

	url, closeServer, err := serveProgram(p)
	if err != nil {
		return r.failf("%v", err)
	}
	defer closeServer()
	r.logf("serving %s (%d bytes) on %s; module root %s; timeout %v", a.prog, len(p.bin), url, p.root, timeout)

	path, err := chromium.Path()
	if err != nil {
		return r.failf("%v", err)
	}
	tail := &tailBuffer{max: 8 << 10}
	var chromeLog io.Writer = tail
	if r.verbose {
		chromeLog = io.MultiWriter(tail, r.stderr)
	}
	opts, flagsUsed, err := browserOptions(path, chromeLog, a.without)
	if err != nil {
		return r.failf("%v", err)
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	fail := func(step string, err error) int {
		if c := context.Cause(ctx); c != nil {
			err = c
		}
		switch {
		case errors.Is(err, errTimeout):
			r.failf("%s did not exit in %v (-timeout, $WASMEXEC_TIMEOUT): killed it and Chromium (while %s)", a.prog, timeout, step)
		case ctx.Err() != nil:
			r.failf("interrupted by a signal: killed Chromium (while %s)", step)
		default:
			r.failf("%s: %v", step, err)
			if t := tail.String(); t != "" {
				fmt.Fprintf(r.stderr, "wasmexec: Chromium's last output:\n%s\n", t)
			}
		}
		return 1
	}
	return r.drive(ctx, bctx, url, path, flagsUsed, fail)
}

// cmdline holds the runner's flags and the program's command line.
type cmdline struct {
	timeout time.Duration
	without string
	prog    string
	args    []string
}

// parseArgs reads the runner's flags (setting r.verbose); a nil result
// comes with the exit code of a usage error.
func (r *runner) parseArgs(argv []string) (*cmdline, int) {
	flags := flag.NewFlagSet("wasmexec", flag.ContinueOnError)
	flags.SetOutput(r.stderr)
	timeoutFlag := flags.Duration("timeout", 0, "kill the program after `d` (default $WASMEXEC_TIMEOUT, else -test.timeout+20s, else 9m)")
	flags.BoolVar(&r.verbose, "v", os.Getenv("WASMEXEC_VERBOSE") == "1", "print the runner's steps, the page's console and Chromium's output on stderr")
	without := flags.String("without-flag", "", "start Chromium without this one of its `flag`s (e.g. --enable-unsafe-webgpu)")
	flags.Usage = func() {
		fmt.Fprintln(r.stderr, "usage: wasmexec [-timeout d] [-v] [-without-flag f] prog.wasm [args...]")
		flags.PrintDefaults()
	}
	if err := flags.Parse(argv); err != nil {
		return nil, 2
	}
	if flags.NArg() < 1 {
		flags.Usage()
		return nil, 2
	}
	return &cmdline{timeout: *timeoutFlag, without: *without, prog: flags.Arg(0), args: flags.Args()[1:]}, 0
}

// program is what the page is served: the binary, wasm_exec.js and the
// page's configuration.
type program struct {
	bin, wasmExecJS, cfgJSON []byte
	root                     string
	readonly                 []string
}

// loadProgram reads the WebAssembly binary prog and wasm_exec.js, and
// makes the page's configuration for the working directory.
func loadProgram(prog string, args []string) (*program, error) {
	bin, err := os.ReadFile(prog)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(bin, []byte("\x00asm")) {
		return nil, fmt.Errorf("%s is not a WebAssembly binary (build it with GOOS=js GOARCH=wasm)", prog)
	}
	wasmExecJS, err := readWasmExec()
	if err != nil {
		return nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root := moduleRoot(cwd)
	cfg := pageConfig(prog, args, cwd, root)
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	return &program{bin: bin, wasmExecJS: wasmExecJS, cfgJSON: cfgJSON, root: root, readonly: cfg.Readonly}, nil
}

// serveProgram serves the page, the program and the read-only file system
// on 127.0.0.1; it returns the page's URL and the function that stops it.
func serveProgram(p *program) (url string, closeServer func() error, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	serve := func(path, typ string, body []byte) {
		mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", typ)
			w.Header().Set("Cache-Control", "no-store")
			// Cross-origin isolation: performance.now(), which Go's clocks
			// read, then ticks in 5µs rather than 100µs steps.
			w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
			w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
			w.Write(body)
		})
	}
	serve("/{$}", "text/html; charset=utf-8", indexHTML)
	serve("/config.js", "text/javascript", append(append([]byte("globalThis.__wasmexecConfig = "), p.cfgJSON...), ";\n"...))
	serve("/page.js", "text/javascript", pageJS)
	serve("/wasm_exec.js", "text/javascript", p.wasmExecJS)
	serve("/test.wasm", "application/wasm", p.bin)
	files := &fileServer{roots: p.readonly}
	mux.HandleFunc("/fs/{op}", files.ServeHTTP)
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", srv.Close, nil
}

// browserOptions are Chromium's options, less the flag without names (if
// any); it returns them with the flags Chromium runs with.
func browserOptions(path string, log io.Writer, without string) ([]chromedp.ExecAllocatorOption, []string, error) {
	opts := chromium.Options(path, log)
	flagsUsed := chromium.Flags
	if without != "" {
		name := strings.TrimPrefix(strings.SplitN(without, "=", 2)[0], "--")
		if !slices.ContainsFunc(chromium.Flags, func(f string) bool { return strings.HasPrefix(f, "--"+name) }) {
			return nil, nil, fmt.Errorf("-without-flag %s: not one of Chromium's flags %q", without, chromium.Flags)
		}
		opts = append(opts, chromedp.Flag(name, false))
		flagsUsed = slices.DeleteFunc(slices.Clone(flagsUsed), func(f string) bool { return strings.HasPrefix(f, "--"+name) })
	}
	return opts, flagsUsed, nil
}

// drive starts Chromium on bctx, loads the page, checks for an adapter
// when STREAMGATE_REQUIRE_ADAPTER=1, starts the program and returns its
// exit code; fail reports a step's error and gives the code for it.
func (r *runner) drive(ctx, bctx context.Context, url, path string, flagsUsed []string, fail func(string, error) int) int {
	// The first Run starts Chromium and opens the tab.
	err := chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, runtime.AddBinding, runtime.AddBindingParams{Name: binding})
		return err
	}))
	if err != nil {
		return fail("starting Chromium ("+path+")", err)
	}
	r.logf("Chromium started")
	if err := chromedp.Listen(bctx, r.event); err != nil {
		return fail("listening to the page", err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		return fail("loading the page", err)
	}
	r.logf("page loaded")
	if os.Getenv("STREAMGATE_REQUIRE_ADAPTER") == "1" {
		why, err := chromedp.Run(bctx, chromedp.Evaluate[string](adapterJS, chromedp.EvalAwaitPromise))
		if err != nil {
			return fail("asking for a WebGPU adapter", err)
		}
		if why != "" {
			return r.failf("STREAMGATE_REQUIRE_ADAPTER=1 and %s: Chromium gives a WebGPU adapter headless only with --enable-unsafe-webgpu (and --headless=new); it ran with %q (%s)", why, flagsUsed, path)
		}
		r.logf("WebGPU adapter found")
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool]("__wasmexecStart()")); err != nil {
		return fail("starting the program", err)
	}
	r.logf("program started")
	detached, err := chromedp.Detached(bctx)
	if err != nil {
		return fail("watching the page", err)
	}
	select {
	case code := <-r.exit:
		r.logf("program exited with %d", code)
		return code
	case <-r.crash:
		return fail("running the program", errors.New("the page crashed (out of memory?)"))
	case <-detached:
		return fail("running the program", errors.New("the browser closed the page"))
	case <-ctx.Done():
		return fail("running the program", context.Cause(ctx))
	}
}

var errTimeout = errors.New("timeout")

// event handles the page's events, in the order the page sent them; it runs
// in chromedp's loop for the tab, so it only writes.
func (r *runner) event(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventBindingCalled:
		if ev.Name != binding || ev.Payload == "" {
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.exited {
			return
		}
		kind, data := ev.Payload[0], ev.Payload[1:]
		switch kind {
		case 'o':
			r.stdout.Write(latin1(data))
		case 'e':
			r.stderr.Write(latin1(data))
		case 'x':
			code, err := strconv.Atoi(data)
			if err != nil {
				fmt.Fprintf(r.stderr, "wasmexec: the page sent a bad exit code %q\n", data)
				code = 1
			}
			r.exited = true
			r.exit <- code
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		r.mu.Lock()
		if !r.exited {
			fmt.Fprintf(r.stderr, "wasmexec: uncaught exception in the page: %s\n", msg)
		}
		r.mu.Unlock()
	case *runtime.EventConsoleAPICalled:
		if !r.verbose {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if a.Value != nil {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		fmt.Fprintf(r.stderr, "wasmexec: console.%s: %s\n", ev.Type, strings.Join(parts, " "))
	case *inspector.EventTargetCrashed:
		r.once.Do(func() { close(r.crash) })
	}
}

// latin1 turns the page's string of one char a byte back into the bytes.
func latin1(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, c := range s {
		b = append(b, byte(c))
	}
	return b
}

// pickTimeout is the -timeout flag, else $WASMEXEC_TIMEOUT, else the test
// binary's -test.timeout plus 20s, else defaultTimeout.
func pickTimeout(flagValue time.Duration, args []string) (time.Duration, error) {
	if flagValue < 0 {
		return 0, fmt.Errorf("-timeout %v: must be positive", flagValue)
	}
	if flagValue > 0 {
		return flagValue, nil
	}
	if s := os.Getenv("WASMEXEC_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("WASMEXEC_TIMEOUT=%s: want a positive duration such as 5m", s)
		}
		return d, nil
	}
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "-test.timeout="); ok {
			if d, err := time.ParseDuration(v); err == nil && d > 0 {
				return d + 20*time.Second, nil
			}
		}
	}
	return defaultTimeout, nil
}

// readWasmExec reads wasm_exec.js from $GOROOT, else from `go env GOROOT`:
// it must come from the toolchain that built the binary.
func readWasmExec() ([]byte, error) {
	goroot := os.Getenv("GOROOT")
	if goroot == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return nil, fmt.Errorf("finding GOROOT for wasm_exec.js: go env GOROOT: %v (set GOROOT)", err)
		}
		goroot = strings.TrimSpace(string(out))
	}
	b, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, fmt.Errorf("wasm_exec.js of GOROOT %s: %v", goroot, err)
	}
	return b, nil
}

// moduleRoot is the nearest directory at or above dir with a go.mod, else
// dir.
func moduleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// config is what the page gets as globalThis.__wasmexecConfig.
type config struct {
	Argv     []string          `json:"argv"`
	Env      map[string]string `json:"env"`
	Cwd      string            `json:"cwd"`
	Readonly []string          `json:"readonly"`
	Writable []string          `json:"writable"`
}

func pageConfig(prog string, args []string, cwd, root string) config {
	env := map[string]string{"PWD": cwd}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GO"), strings.HasPrefix(k, "STREAMGATE_"), strings.HasPrefix(k, "WASMEXEC_"),
			k == "HOME", k == "TMPDIR", k == "USER", k == "LANG", k == "TZ":
			env[k] = v
		}
	}
	writable := []string{"/tmp"}
	if t := os.Getenv("TMPDIR"); t != "" && filepath.IsAbs(t) {
		if t = filepath.Clean(t); t != "/tmp" {
			writable = append(writable, t)
		}
	}
	return config{Argv: append([]string{prog}, args...), Env: env, Cwd: cwd, Readonly: []string{root}, Writable: writable}
}

// fileServer answers the page's reads under roots: /fs/stat, /fs/readdir and
// /fs/read with ?p=path. An error is a 404 whose body is the errno's name.
type fileServer struct{ roots []string }

func (s *fileServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	p := req.URL.Query().Get("p")
	w.Header().Set("Cache-Control", "no-store")
	fail := func(code string) {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, code)
	}
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || !slices.ContainsFunc(s.roots, func(r string) bool {
		return p == r || strings.HasPrefix(p, r+"/")
	}) {
		fail("EACCES")
		return
	}
	switch req.PathValue("op") {
	case "stat":
		fi, err := os.Stat(p)
		if err != nil {
			fail(errno(err))
			return
		}
		json.NewEncoder(w).Encode(map[string]any{
			"dir": fi.IsDir(), "mode": fi.Mode().Perm(), "size": fi.Size(), "mtimeMs": fi.ModTime().UnixMilli(),
		})
	case "readdir":
		ents, err := os.ReadDir(p)
		if err != nil {
			fail(errno(err))
			return
		}
		names := make([]string, len(ents))
		for i, e := range ents {
			names[i] = e.Name()
		}
		json.NewEncoder(w).Encode(names)
	case "read":
		b, err := os.ReadFile(p)
		if err != nil {
			fail(errno(err))
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(b)
	default:
		fail("ENOSYS")
	}
}

// errno names err's errno for the page (Go's syscall/js maps it back).
func errno(err error) string {
	var en syscall.Errno
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "ENOENT"
	case errors.Is(err, fs.ErrPermission):
		return "EACCES"
	case errors.Is(err, syscall.EISDIR):
		return "EISDIR"
	case errors.Is(err, syscall.ENOTDIR):
		return "ENOTDIR"
	case errors.As(err, &en) && en == syscall.ELOOP:
		return "ELOOP"
	}
	return "EIO"
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}
