package wgpu

import "time"

// The plain types of the counts and the element types of buffer I/O: in
// every build. The defaults of [Options] are in options.go.

// Stats is what a device holds and has done, as [Device.Stats] reads it
// (package metrics publishes it): its pipeline builds, its live buffers,
// streams and cached pipelines, and its two buffer pools, the staging
// buffers that read-backs copy through and the recycled buffers of
// [Device.TempBuffer]. A loop whose every step creates no GPU buffer keeps
// BuffersCreated and StagingCreated still after its first step. It is a
// plain value that the caller owns.
type Stats struct {
	// Compiles is how many pipeline builds the device has started: once
	// per distinct kernel that compiled, plus once per failed attempt. A
	// program can check with it that a warm-up pass compiled every kernel
	// and the real pass compiled none.
	Compiles int64
	// CompileTime is the wall-clock time during which at least one of
	// those builds was in progress on the device (from its start to its
	// pipeline's creation, the driver's half in the background included):
	// compiles that overlap count once, so with several compile workers
	// it is less than the builds' summed time. A warm-up's compile time is
	// its difference across the warm-up.
	CompileTime time.Duration
	// PipelinesCached is the compiled pipelines the device keeps.
	PipelinesCached int
	// BuffersLive is the buffers created and not released.
	BuffersLive int
	// StreamsLive is the streams with state on the device (launched on
	// and not closed).
	StreamsLive int
	// BindGroupsLive is the bind groups the device caches: one per set
	// of buffers bound together, released with the first of them.
	BindGroupsLive int
	// UncapturedErrors is how many WebGPU errors escaped every error scope
	// in this process, on any device: each is a bug in this package or the
	// driver. wgpu-native reports them without saying on which device.
	UncapturedErrors uint64
	// BuffersCreated counts the buffers NewBuffer created (and so
	// NewBufferFrom and TempBuffer's misses).
	BuffersCreated int64
	// StagingCreated counts the staging buffers read-backs created.
	StagingCreated int64
	// StagingHeld and StagingBytesHeld are the idle staging buffers kept.
	StagingHeld      int
	StagingBytesHeld uint64
	// TempHits and TempMisses count TempBuffer (and TempTexture) calls that reused a
	// recycled buffer and that made a new one.
	TempHits, TempMisses int64
	// TempHeld and TempBytesHeld are the recycled buffers (and textures) kept;
	// TempWaiting of them wait for the queue to finish their last use.
	TempHeld      int
	TempBytesHeld uint64
	TempWaiting   int
	// TexturesCreated counts the textures NewTexture created;
	// TexturesLive and SamplersLive are the textures and samplers created
	// and not released (a texture's views go with it).
	TexturesCreated int64
	TexturesLive    int
	SamplersLive    int
}

// Numeric is the element types the buffer functions ([Write], [Read],
// [ReadInto], [NewBufferFrom]) move to and from buffers: fixed-size
// integers and floats, stored little-endian as WGSL reads them.
type Numeric interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}
