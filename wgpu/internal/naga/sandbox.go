package naga

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
)

// memoryLimitPages bounds each instance's linear memory: 16384 pages of
// 64 KiB, 1 GiB. A source that needs more fails with a sandbox error.
const memoryLimitPages = 16384

// sandbox is the compiled naga module and the pool of its instances. One
// exists per process ([current]), started on first use. Its fields are
// written once, by start, before ready is closed; after that a sandbox is
// safe for concurrent use.
type sandbox struct {
	ready chan struct{} // closed when start has finished

	// Written once by start, before ready is closed.
	rt    wazero.Runtime
	cache wazero.CompilationCache // nil when compiled without one
	cm    wazero.CompiledModule
	pool  *pool
	err   *Error // why start failed; nil if it succeeded
}

// current is the process's sandbox, nil until first use.
var current atomic.Pointer[sandbox]

// starts counts the sandbox's starts in this process (0 or 1).
var starts atomic.Int64

// Starts reports how many times this process started the sandbox: 0 until
// a [Lower], [Ready] or [Prestart] first needs it, then 1. It does not
// start the sandbox.
func Starts() int64 { return starts.Load() }

// minInstances is the most instances a Reserve asked for.
var minInstances atomic.Int64

// Reserve lets up to n calls of [Lower] run at once (at most 256), for a
// caller that lowers on n goroutines: by default GOMAXPROCS calls run at
// once. It only ever raises the bound, and makes no instance: they are made
// on demand. It is safe for concurrent use.
func Reserve(n int) {
	for {
		old := minInstances.Load()
		if int64(n) <= old || minInstances.CompareAndSwap(old, int64(n)) {
			break
		}
	}
	if sb := current.Load(); sb != nil {
		select {
		case <-sb.ready:
			if sb.pool != nil {
				sb.pool.grow(n)
			}
		default: // start grows the pool once ready
		}
	}
}

// cacheDir returns the directory of wazero's compilation cache, or "" for
// none. Tests replace it before the sandbox starts.
var cacheDir = defaultCacheDir

// defaultCacheDir is os.UserCacheDir()/streamgate/wazero, or "" where that
// is unknown or where the build does not record wazero's version.
//
// wazero files compiled machine code under its version, and loads what it
// finds there without further checks; a binary without the version (a test
// binary, a replaced module) would file under "dev" and could load code
// that another wazero compiled. Such builds compile afresh instead.
func defaultCacheDir() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	known := false
	for _, dep := range info.Deps {
		if dep.Path == "github.com/tetratelabs/wazero" {
			known = dep.Replace == nil && dep.Version != "" && dep.Version != "(devel)"
		}
	}
	if !known {
		return ""
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "streamgate", "wazero")
}

// writableDir reports whether dir exists or can be made, and takes a file.
func writableDir(dir string) bool {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return false
	}
	f.Close()
	return os.Remove(f.Name()) == nil
}

// Prestart starts the process's sandbox in the background if it has not
// started, and returns at once: a later [Lower] then finds it ready, or
// waits only for the rest of its start. It is safe for concurrent use.
func Prestart() {
	if current.Load() == nil {
		n := &sandbox{ready: make(chan struct{})}
		if current.CompareAndSwap(nil, n) {
			go n.start()
		}
	}
}

// loadSandbox returns the process's sandbox, starting it on first use.
// While it starts, callers wait; a canceled ctx returns ctx.Err(), and
// the start goes on for the next caller. A failed start is recorded: every
// later call gets the same sandbox error.
func loadSandbox(ctx context.Context) (*sandbox, error) {
	sb := current.Load()
	if sb == nil {
		n := &sandbox{ready: make(chan struct{})}
		if current.CompareAndSwap(nil, n) {
			// The start runs on its own goroutine, under its own context,
			// so that the caller's cancellation cannot spoil it for others.
			go n.start()
		}
		sb = current.Load()
	}
	select {
	case <-sb.ready:
	default:
		select {
		case <-sb.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if sb.err != nil {
		e := *sb.err
		return nil, &e
	}
	return sb, nil
}

// start compiles the module, with the compilation cache if it works and
// without it otherwise, and makes the first instance.
func (sb *sandbox) start() {
	starts.Add(1)
	defer func() {
		close(sb.ready)
		if sb.pool != nil {
			// A Reserve that found sb not ready left the growing to us.
			sb.pool.grow(int(minInstances.Load()))
		}
	}()
	ctx := context.Background()
	if dir := cacheDir(); dir != "" && writableDir(dir) {
		if cache, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			if sb.compile(ctx, cache) == nil {
				return
			}
			// A damaged entry, or a write that failed: compile afresh, and
			// clear the directory (ours alone) for the next process to
			// fill. Neither fails the caller.
			cache.Close(ctx)
			_ = os.RemoveAll(dir)
		}
	}
	if err := sb.compile(ctx, nil); err != nil {
		sb.err = sandboxError(err)
	}
}

// compile makes sb's runtime, compiled module and pool, with cache if not
// nil. On error it leaves sb as it was.
func (sb *sandbox) compile(ctx context.Context, cache wazero.CompilationCache) (err error) {
	// NewRuntimeConfig uses the compiler where wazero has one (amd64,
	// arm64) and the interpreter elsewhere (386, ...).
	cfg := wazero.NewRuntimeConfig().
		WithMemoryLimitPages(memoryLimitPages).
		WithCloseOnContextDone(true)
	if cache != nil {
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	defer func() {
		if err != nil {
			rt.Close(ctx)
		}
	}()
	cm, err := rt.CompileModule(ctx, wasmBinary)
	if err != nil {
		return err
	}
	if err := instantiateGlue(ctx, rt, cm); err != nil {
		return err
	}
	p := newPool(sb, max(runtime.GOMAXPROCS(0), int(minInstances.Load())))
	sb.rt, sb.cm, sb.cache, sb.pool = rt, cm, cache, p
	// Make the first instance now: it proves that the module runs, and the
	// first caller finds it ready.
	in, err := p.get(ctx)
	if err != nil {
		sb.rt, sb.cm, sb.cache, sb.pool = nil, nil, nil, nil
		return err
	}
	p.put(in, false)
	return nil
}

// close releases sb's runtime. Only tests call it, when no call runs.
func (sb *sandbox) close() error {
	<-sb.ready
	if sb.rt == nil {
		return nil
	}
	ctx := context.Background()
	sb.pool.closeIdle()
	err := sb.rt.Close(ctx)
	if sb.cache != nil {
		err = errors.Join(err, sb.cache.Close(ctx))
	}
	return err
}
