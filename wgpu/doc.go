// Package wgpu is streamgate's WebGPU service: it wraps go-webgpu (cgo over a
// static wgpu-native) into a [Device] that the client package drives through
// its Service interface.
//
// A [Device] owns one WebGPU instance, adapter, device and queue. Kernels
// (client.Kernel: WGSL source and entry point) are compiled once per device
// into compute pipelines with explicit layouts and cached by content.
// Launches are recorded per logical stream (gpu.StreamID) into that
// stream's pending command encoder, many dispatches in one compute pass, and
// submitted in batches: on a threshold ([Options].MaxBatch), on a read-back
// or upload of a buffer the stream's pending work uses, and on
// [Device.Flush] and [Device.Sync].
//
// Every WebGPU validation failure comes back as a [*Error] carrying the
// operation and the driver's message (for invalid WGSL, naga's diagnostic).
// The package never lets a misuse reach the wgpu-native calls that abort the
// process: released buffers cannot be bound, command buffers are submitted
// exactly once, and timestamp query sets are only created on devices with the
// feature.
//
// # Limitations
//
// Kernels bind buffers only, in @group(0), numbered @binding(0..n-1), declared
// as var<storage, read>, var<storage, read_write> or var<uniform>; the
// bindings are read from the WGSL source with a small parser (see
// [ParseBindings]). Override constants are not supported.
package wgpu
