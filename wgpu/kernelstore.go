package wgpu

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/streamgate/streamgate/gpu"
)

// KernelStore is [gpu.KernelStore]: the cache that keeps what a compile
// derives from a kernel's source alone (the source lowered for the driver,
// its entry points' lowered names, bindings and layouts, the position map,
// or the verdict on a source the checks refuse), so that a process that
// starts again does not lower again. This package writes each entry with
// its key and a checksum and verifies it when it reads it back: what fails
// the check is a miss, logged once, and is never compiled. Package
// tune/sqlitecache keeps kernels beside tune entries in its file and
// tune/rediscache shares them with a fleet; [OpenKernelDir] is the default,
// a directory of files.
type KernelStore = gpu.KernelStore

// NewMemoryKernelStore returns an empty [KernelStore] that lives as long as
// the process ([gpu.NewMemoryKernelStore]).
func NewMemoryKernelStore() KernelStore { return gpu.NewMemoryKernelStore() }

// The process's kernel store: every compile's lowering consults it (the
// browser's build lowers nothing and never does).
var (
	kernelStoreOnce sync.Once // opens the default store
	kernelStoreBox  atomic.Pointer[kernelStoreHolder]
)

// kernelStoreHolder holds the process's store (nil: none) and what the
// process lowered or read while it was the store: a store set anew starts
// with nothing in memory, so that what the process finds again is written
// to it.
type kernelStoreHolder struct {
	s      KernelStore
	memo   sync.Map    // key → *kernelResult
	marked atomic.Bool // the warm mark is in s (kernelcache_lower.go)
}

// KernelCacheEnv names the environment variable that picks the process's
// default kernel store: unset or empty, a [KernelDir] at
// [DefaultKernelDir]; "off", none; any other value, a KernelDir there.
const KernelCacheEnv = "STREAMGATE_KERNEL_CACHE"

// SetKernelStore sets the store that every compile in the process
// consults before it lowers a source and fills after, and returns the one
// it replaces (nil for none). A nil s turns the cache off: every source
// is lowered again in each process. It is safe for concurrent use; a
// compile in progress uses the store it started with. Until the first
// compile or SetKernelStore, the default store is [KernelCacheEnv]'s.
func SetKernelStore(s KernelStore) KernelStore {
	kernelStoreOnce.Do(func() {}) // the default is not opened now
	old := kernelStoreBox.Swap(&kernelStoreHolder{s: s})
	if old == nil {
		return nil
	}
	return old.s
}

// CurrentKernelStore returns the process's kernel store (nil for none),
// opening the default one ([KernelCacheEnv]) if no [SetKernelStore] came
// first. A default directory that cannot be opened is a warning, logged
// once, and no store.
func CurrentKernelStore() KernelStore { return currentKernels().s }

// currentKernels returns the process's store's holder, opening the
// default store on first use.
func currentKernels() *kernelStoreHolder {
	kernelStoreOnce.Do(func() {
		kernelStoreBox.CompareAndSwap(nil, &kernelStoreHolder{s: defaultKernelStore()})
	})
	return kernelStoreBox.Load()
}

// defaultKernelStore opens the store KernelCacheEnv names.
func defaultKernelStore() KernelStore {
	if runtime.GOOS == "js" {
		return nil // no file system, and nothing lowered
	}
	dir := os.Getenv(KernelCacheEnv)
	switch dir {
	case "off":
		return nil
	case "":
		var err error
		if dir, err = DefaultKernelDir(); err != nil {
			kernelWarn("open", "no kernel cache: every source is lowered again in each process", "err", err)
			return nil
		}
	}
	kd, err := OpenKernelDir(dir)
	if err != nil {
		kernelWarn("open", "no kernel cache: every source is lowered again in each process", "err", err)
		return nil
	}
	return kd
}

// kernelWarned holds the kinds of kernel cache warnings already logged.
var kernelWarned sync.Map

// kernelWarn logs a kernel cache warning of kind once a process, to the
// logger [SetLogger] set (else slog.Default()).
func kernelWarn(kind, msg string, args ...any) {
	if _, dup := kernelWarned.LoadOrStore(kind, true); dup {
		return
	}
	l := driverLog.Load()
	if l == nil {
		l = defaultLogger()
	}
	l.Warn("wgpu: kernel cache: "+msg, append([]any{"component", "kernel cache", "op", kind}, args...)...)
}

// The kernel cache's counts, for KernelCacheStats.
var kernelCounts struct {
	hits, misses, stores, rejected, storeErrors atomic.Int64
}

// KernelCacheStats counts what the process's compiles found in the kernel
// cache (see [KernelStore]) since the process started.
type KernelCacheStats struct {
	// Hits are lowerings the cache answered: from this process's memory
	// or from the store.
	Hits int64
	// StoreHits are the Hits that the store answered (the rest, this
	// process had lowered before).
	StoreHits int64
	// Misses are lowerings done: the source was lowered.
	Misses int64
	// Stores are entries written to the store.
	Stores int64
	// Rejected are entries the store returned that failed their check
	// (damaged, truncated, foreign): misses, each lowered again.
	Rejected int64
	// StoreErrors are the stores that failed (a read-only or full
	// directory, a server down).
	StoreErrors int64
	// LoweringStarts is 1 once the process has started the sandbox that
	// lowers WGSL, else 0: a process whose every source hits never starts
	// it.
	LoweringStarts int64
}

var kernelStoreHits atomic.Int64

// ReadKernelCacheStats returns the process's kernel cache counts.
func ReadKernelCacheStats() KernelCacheStats {
	return KernelCacheStats{
		Hits:           kernelCounts.hits.Load(),
		StoreHits:      kernelStoreHits.Load(),
		Misses:         kernelCounts.misses.Load(),
		Stores:         kernelCounts.stores.Load(),
		Rejected:       kernelCounts.rejected.Load(),
		StoreErrors:    kernelCounts.storeErrors.Load(),
		LoweringStarts: loweringStarts(),
	}
}
