package gpu

import (
	"context"
	"time"
)

// Service is what a client (package client) needs from a device: one WebGPU
// device and its queue, reached through logical streams. The wgpu package's
// Device implements it; tests may implement it in memory.
//
// Implementations must be safe for concurrent use by multiple goroutines,
// on one stream too: under the client package's Single policy every client of a service
// launches on one stream, from any goroutine.
type Service interface {
	// ServiceID returns the process-unique id of this service.
	ServiceID() ServiceID

	// Compile compiles k now, or returns at once when it is already compiled
	// (a cache hit). Concurrent calls for the same kernel compile it once.
	Compile(ctx context.Context, k *Kernel) error

	// Compiled reports whether k is compiled on this service. It must not
	// block on a compile in progress, lock for long, or allocate: a
	// discarded launch calls it.
	Compiled(k *Kernel) bool

	// Precompile compiles a batch of kernels, returning the first error for
	// each failing kernel joined with errors.Join. Kernels already compiled
	// cost nothing.
	Precompile(ctx context.Context, ks []*Kernel) error

	// Launch records one dispatch of k with the given workgroup counts and
	// buffers on stream, bound in an order the service documents (wgpu:
	// (group, binding) order of the bindings k's entry point uses). It
	// must not keep the bindings slice after it returns (callers reuse it). It
	// compiles k first if needed. The dispatch is submitted later: on the
	// service's own threshold, on Flush, on Sync, or on a read-back of a
	// buffer the stream wrote.
	Launch(stream StreamID, k *Kernel, workgroups [3]uint32, bindings ...Buffer) error

	// Flush submits the stream's recorded launches without waiting.
	Flush(stream StreamID) error

	// Sync flushes the stream and waits until all its submitted work is
	// done, or ctx is done (then it returns ctx.Err()).
	Sync(ctx context.Context, stream StreamID) error

	// CloseStream flushes the stream, drops whatever state the service
	// keeps for it and retires the id for good: a call that would record
	// on the stream afterwards — a Launch, a graph's replay, a capture, a
	// timing — creates nothing and returns an error matching
	// [ErrStreamClosed], and so does one racing CloseStream that did not
	// record before it; Flush, Sync and CloseStream of a retired stream
	// return nil (nothing is pending). A retired id is never reused, so a
	// stream that is closed comes from [NewStreamID], which never repeats.
	// A client calls it from Close when the stream is its own (the
	// PerClient policy); the Single policy's shared stream is never closed.
	CloseStream(stream StreamID) error
}

// Buffer is a device buffer as a [Service] sees it. A service accepts only
// its own buffers as launch bindings and returns an error for any other.
type Buffer interface {
	// Size returns the buffer's size in bytes.
	Size() uint64
}

// GPUTimer is an optional interface that may be implemented by a [Service]
// that can time a stream's work on the GPU. Package tune times its samples
// with it; if a Service does not implement GPUTimer, or HasTimestamps
// reports false, tune times samples by the wall clock around a sync.
//
// The wgpu package's Device implements it. Implementations must be safe for
// concurrent use by multiple goroutines.
type GPUTimer interface {
	// HasTimestamps reports whether TimeStream can measure on this service
	// (wgpu: whether the adapter has timestamp queries). It must not block.
	HasTimestamps() bool

	// TimeStream runs record, which launches on stream, and returns the GPU
	// time those launches took. It returns record's error if record fails,
	// and ctx.Err() if ctx is done before the result is read.
	TimeStream(ctx context.Context, stream StreamID, record func() error) (time.Duration, error)
}

// Identifier is an optional interface that may be implemented by a
// [Service] that can name its adapter (name, vendor, driver, backend): the
// device part of package tune's cache keys, so that a decision made on one
// kind of hardware is reused on the same kind only. If a Service does not
// implement Identifier, tune keys its decisions by the service id, which
// lasts only as long as the process.
//
// The wgpu package's Device implements it. AdapterIdentity must be safe for
// concurrent use and return the same string for the service's life.
type Identifier interface {
	AdapterIdentity() string
}

// AsyncCompiler is an optional interface that may be implemented by a
// [Service] whose compile has a quick part that finds every error of the
// kernel's own (its checks, its lowering) and a slower part that can go on
// in the background (the driver's). Package client uses it for the
// discarded launches of a warm-up under ProcessCompileAndAutotune, so that
// their compiles overlap, and waits for them with Precompile at the next
// Sync. Package wgpu's Device implements it.
type AsyncCompiler interface {
	// CompileAsync returns once k's quick part is done, with its error,
	// leaving the rest of k's compile running: Compiled(k) is false until
	// it finishes, and Compile, Precompile or a launch of k wait for it and
	// return its error. A kernel already compiled costs a lookup.
	CompileAsync(ctx context.Context, k *Kernel) error
}
