// Package gpu is the contract between streamgate's launch path and a device
// that runs compute kernels, in the spirit of database/sql/driver: a
// [Kernel] (WGSL source and entry point), a [Buffer], the [Service] a device
// implements, the optional capabilities a service may offer besides
// ([GPUTimer], [Identifier], [Capturer] with its
// [GraphRecorder] and [Graph]), and the process-wide [ServiceID] and
// [StreamID] types and allocators (package registry keys its overrides by
// them).
//
// Package client is the consumer, and package tune the consumer of the
// optional capabilities; package wgpu is the WebGPU implementation; tests and
// the streamgatetest kit implement it in memory. The package is a leaf: it
// imports only the standard library, so an implementation never imports its
// consumer and runs no other package's initialization. It builds without
// cgo. A [Kernel] carries no implementation's state: each service keeps its
// compiled forms itself.
package gpu
