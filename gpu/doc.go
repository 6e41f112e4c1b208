// Package gpu is the contract between streamgate's launch path and a device
// that runs compute kernels, in the spirit of database/sql/driver: a
// [Kernel] (WGSL source and entry point), a [Buffer], the [Service] a device
// implements, and the process-wide [ServiceID] and [StreamID] allocators.
//
// Package client is the consumer; package wgpu is the WebGPU implementation;
// tests and the streamgatetest kit implement it in memory. The package is a
// leaf: it imports only the registry's id types, so an implementation never
// imports its consumer. It builds without cgo.
package gpu
