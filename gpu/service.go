package gpu

import (
	"context"
	"strconv"
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
	// bindings (buffers, and texture views and samplers where the service
	// has them) on stream, bound in an order the service documents (wgpu:
	// (group, binding) order of the bindings k's entry point uses). It
	// must not keep the bindings slice after it returns (callers reuse it). It
	// compiles k first if needed. The dispatch is submitted later: on the
	// service's own threshold, on Flush, on Sync, or on a read-back of a
	// buffer the stream wrote.
	Launch(stream StreamID, k *Kernel, workgroups [3]uint32, bindings ...Binding) error

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

// Binding is a resource bound to a launch, as a [Service] sees it: a
// buffer, a texture view (sampled or storage) or a sampler. A service
// accepts only its own bindings, of the kind each of the kernel's bindings
// declares, and returns an error for any other.
type Binding interface {
	// Size returns a buffer's size in bytes, and 0 for a binding that is
	// not a buffer.
	Size() uint64
}

// Buffer is a binding that is a device buffer. It is the same interface as
// [Binding] (a Binding without a BindingKind method is a buffer), so code
// written when launches bound buffers only compiles unchanged.
type Buffer = Binding

// BindingKind is what a launch binding is.
type BindingKind uint8

const (
	// KindBuffer: a storage or uniform buffer.
	KindBuffer BindingKind = iota
	// KindTexture: a sampled texture's view.
	KindTexture
	// KindStorageTexture: a storage texture's view.
	KindStorageTexture
	// KindSampler: a sampler (filtering, non-filtering or comparison).
	KindSampler
)

var bindingKindNames = [...]string{"buffer", "texture", "storage-texture", "sampler"}

// String returns the kind's name.
func (k BindingKind) String() string {
	if int(k) < len(bindingKindNames) {
		return bindingKindNames[k]
	}
	return "BindingKind(" + strconv.Itoa(int(k)) + ")"
}

// Kinded is implemented by a [Binding] that is not a buffer: it says which
// kind it is. A texture view is KindTexture where it can be bound as a
// sampled texture (and KindStorageTexture when it can only be bound as a
// storage texture).
type Kinded interface {
	Binding
	BindingKind() BindingKind
}

// KindOf returns b's kind: its BindingKind when it is [Kinded], else
// KindBuffer.
func KindOf(b Binding) BindingKind {
	if k, ok := b.(Kinded); ok {
		return k.BindingKind()
	}
	return KindBuffer
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
