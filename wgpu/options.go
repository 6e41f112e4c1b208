package wgpu

import "log/slog"

// DefaultMaxBatch is the number of dispatches a stream records before it
// submits them, when [Options].MaxBatch is 0.
const DefaultMaxBatch = 1024

// DefaultStagingPoolBytes is how many bytes of idle staging buffers a
// device keeps for read-backs when [Options].StagingPoolBytes is 0.
const DefaultStagingPoolBytes = 64 << 20

// DefaultTempPoolBytes is how many bytes of recycled buffers a device keeps
// for [Device.TempBuffer] when [Options].TempPoolBytes is 0.
const DefaultTempPoolBytes = 256 << 20

// Options select the adapter [Open] uses and tune the device. The zero value
// asks for any adapter with default settings. It is a plain value.
type Options struct {
	// Adapter chooses the adapter as [Adapters] lists them (and
	// `streamgate info` prints them): "" lets Open choose by
	// PowerPreference, ForceFallbackAdapter and Backend; a decimal number
	// is an index into the list; anything else names the adapter: an exact
	// name, ignoring case, or else a unique substring of one (e.g. "nvidia",
	// "llvmpipe"). When set, PowerPreference and ForceFallbackAdapter play no
	// part, and a Backend other than BackendAny restricts the names matched
	// (and rejects an index of another backend).
	//
	// Only Vulkan, Metal and D3D12 adapters can be chosen (names match
	// those only): wgpu-native 0.17's OpenGL backend aborts the process on a
	// headless machine (lavapipe's OpenGL adapter does at the first buffer),
	// so an index of an OpenGL, OpenGLES or D3D11 adapter is an [*Error] of
	// type [ErrorTypeUnsupported]. A name or index that matches no adapter
	// is an error matching [ErrNoAdapter]; a name that matches several is an
	// [*Error] of type [ErrorTypeInvalidArgument]. These errors list the
	// adapters there are.
	Adapter string
	// PowerPreference picks among several adapters.
	PowerPreference PowerPreference
	// ForceFallbackAdapter asks for the software (CPU) adapter.
	ForceFallbackAdapter bool
	// Backend restricts the graphics API; BackendAny tries the primary ones
	// (Vulkan, Metal, D3D12). In a browser (the js build) the only one is
	// BackendBrowser, which BackendAny means there.
	Backend Backend
	// Compatibility asks a browser for an adapter of WebGPU's
	// "compatibility" feature level (requestAdapter's featureLevel), for
	// browsers and drivers (OpenGL ES, D3D11) that offer only that. The
	// desktop build ignores it: wgpu-native 0.17 knows only the core
	// level, and its Vulkan, Metal and D3D12 adapters all offer that.
	Compatibility bool
	// MaxBatch is how many dispatches a stream records before it submits
	// them on its own; 0 means DefaultMaxBatch.
	MaxBatch int
	// DisableTimestamps leaves the timestamp-query feature off even when
	// the adapter has it (then [Device.HasTimestamps] is false).
	DisableTimestamps bool
	// TimestampPeriod is the length of one timestamp tick in nanoseconds;
	// 0 means 1. wgpu-native 0.17 does not report the queue's period; it is
	// 1 on lavapipe and on most desktop Vulkan drivers.
	TimestampPeriod float64
	// StagingPoolBytes caps the bytes of idle staging buffers the device
	// keeps for read-backs; 0 means DefaultStagingPoolBytes, negative keeps
	// none (every read-back then creates and releases its own).
	StagingPoolBytes int64
	// TempPoolBytes caps the bytes of recycled buffers the device keeps
	// for [Device.TempBuffer]; 0 means DefaultTempPoolBytes, negative
	// keeps none ([Buffer.Recycle] then releases).
	TempPoolBytes int64
	// CompileWorkers is how many kernels [Device.Precompile] compiles at
	// once, and how many compiles a capture or a discarded launch under
	// CompileAndAutotune leaves running in the background (see
	// [Device.CompileAsync]); 0 means GOMAXPROCS at Open, 1 compiles one
	// kernel at a time, in order. The WGSL lowering's sandbox is sized to
	// run as many lowerings at once.
	CompileWorkers int
	// Logger receives the messages about this device: WebGPU errors raised
	// outside any call's error scope. nil means warnings and errors to
	// slog.Default(). The driver's own log is process-wide: see SetLogger.
	Logger *slog.Logger
}

// poolLimit returns a pool's byte limit from its option: 0 means def,
// negative means none.
func poolLimit(opt int64, def uint64) uint64 {
	switch {
	case opt == 0:
		return def
	case opt < 0:
		return 0
	}
	return uint64(opt)
}
