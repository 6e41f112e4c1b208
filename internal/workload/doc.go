// Package workload names the module's top floor: the workloads that run on
// streamgate, each a package below it, above every library package
// (client, tune, wgpu, registry) and imported by none of them:
//
//   - kernels: the WGSL kernels of the workloads, one copy each;
//   - decoder: the GPT-2-style decoder (the step and the generation);
//   - scratch: the fresh buffers of a tune measurement, for the decoder
//     and the warmup demo's ops;
//   - genrun: the generation demo's steps, shared by the terminal and the
//     browser page;
//   - rawwgpu: the hand-written go-webgpu baselines the benchmarks compare
//     streamgate's launch against.
//
// The low helpers that library packages import live in internal/low.
package workload
