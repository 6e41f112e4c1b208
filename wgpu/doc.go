// Package wgpu is streamgate's WebGPU service: it wraps wgpu-native (a
// static C library that go-webgpu ships and links) into a [Device] that
// implements gpu.Service, the contract the client package drives. Every
// call into wgpu-native goes through the package's own shims: capi.h
// declares the C API (over a copy of go-webgpu's header), the
// handle_*_native.go files hold the handles (cgo_native.go what they
// share), callbacks_native.go the C→Go callbacks.
//
// A [Device] owns one WebGPU instance, adapter, device and queue. Kernels
// (gpu.Kernel: WGSL source and entry point) are compiled once per device
// into compute pipelines with explicit layouts and cached by content.
// Launches are recorded per logical stream (gpu.StreamID) into that
// stream's pending command encoder, many dispatches in one compute pass, and
// submitted in batches: on a threshold ([Options].MaxBatch), on a read-back
// or upload of a buffer the stream's pending work uses, and on
// [Device.Flush] and [Device.Sync].
//
// # Nothing aborts, nothing good is lost
//
// Before the shader compiler sees a source, the WGSL front-end in package
// wgpu/wgsl (pure Go) checks it: an empty source, invalid UTF-8, deep
// nesting, very long expressions, and workgroup, private or function
// arrays past their limits (the compiler's memory grows with them) —
// inputs that crash wgpu-native or get the process killed — are refused
// with an [*Error] naming the line and column. The front-end also
// lays out every buffer binding's type by WGSL's memory layout rules, so
// [Device.Launch] refuses a buffer too small for its binding, or without
// the usage its binding's kind needs, naming the kernel, the binding and
// both sizes. Should the driver still reject a submitted batch, the stream
// replays it in halves: every good launch runs exactly once and the call
// that submitted returns a *gpu.LaunchError naming the rejected launches
// by their sequence numbers on the stream.
//
// Every WebGPU validation failure comes back as a [*Error] carrying the
// operation and the driver's message (for invalid WGSL, naga's diagnostic).
// The package never lets a misuse reach the wgpu-native calls that abort
// the process: released buffers cannot be bound, command buffers are
// submitted exactly once, timestamp query sets are only created on devices
// with the feature, and nil kernels and buffers are errors. A Sync or Read
// whose context ends while it waits keeps nothing once the driver reports
// the work done.
//
// # Building
//
// The package needs cgo: wgpu-native is a C library, linked statically from
// go-webgpu's module for linux/amd64, windows/amd64, darwin/amd64 and
// darwin/arm64 (and android, ios). A program built without cgo
// (CGO_ENABLED=0) still compiles against the same API, but [Open] and
// [Adapters] return an error matching [ErrNoCgo] that says how to rebuild.
//
// # Choosing an adapter
//
// [Adapters] lists the adapters of every backend; [Options].Adapter picks
// one of them by index or by name (`streamgate info` prints the list, and
// the command's -adapter flag sets the option).
//
// # XDG_RUNTIME_DIR
//
// Mesa's Vulkan drivers (lavapipe among them) print "XDG_RUNTIME_DIR is
// invalid or not set" on every instance unless that variable names a
// directory. On Linux, the first call of [Open] or [Adapters] therefore
// checks it once: a value that is an absolute path to a directory is left
// alone; else the process's XDG_RUNTIME_DIR is set to a private directory
// (mode 0700) under os.TempDir, streamgate-xdg-<uid>.
//
// # Today's WGSL on an old compiler
//
// The driver's shader compiler is the naga inside wgpu-native 0.17 (about
// 0.13, from 2023), which refuses much of today's WGSL. A kernel's source
// is therefore lowered before the driver sees it ([CheckModule] says how,
// and shows the result): the front-end's safety limits run first; the
// module's override constants take the kernel's values
// (gpu.Kernel.WithConstants, by name or @id; a pipeline is cached per set
// of values); a current compiler, naga 30 compiled to WebAssembly and run
// in-process under wazero (package wgpu/internal/naga), validates it by
// today's rules — its diagnostics carry the line and column of the user's
// source — and writes it back as WGSL with abstract literals concretized
// and const-expressions evaluated; built-ins the old compiler lacks (the
// packed 4x8-bit functions) are polyfilled, and array values indexed by a
// non-constant are indexed through variables. Every step is a rewrite of a
// syntax tree, none of text (package wgpu/internal/lower, whose doc draws
// the pipeline): the user's source is read once, naga's output once, and
// an error the driver's compiler reports on the lowered source also names
// the user's line and column near it. The sandbox starts once per
// process, on the first compile (about a second; a few milliseconds when
// wazero's compilation cache under the user cache directory is warm), and
// a lowered source is cached by content: in the process, and across
// processes in the kernel cache ([KernelStore]; by default a directory,
// [DefaultKernelDir]), so that a program that starts again with every
// source there reads what it lowered before and never starts the sandbox.
//
// # Closing and a racing call
//
// [Device.CloseStream] retires a stream id for good: a call racing it
// either recorded before it (and CloseStream submitted the work) or
// records nothing and returns an error matching [ErrStreamClosed]; a
// later call on the id does the same, and no call makes the stream anew.
// [Device.Close] waits for the calls in progress; a call after it returns
// an error matching [ErrClosed]. [Buffer.Release] submits the work that
// binds the buffer first; a later launch or replay binding it fails.
// [Graph.Release]: replays recorded before run, later ones fail.
//
// # Errors
//
// One [ErrorType] per rule broken, whoever saw it: [ErrorTypeValidation]
// for a WebGPU or WGSL rule (invalid WGSL, a missing or non-compute entry
// point, a binding too small or without the usage its kind needs, the
// wrong number of buffers, aliasing a read_write binding) whether the
// front-end, Launch or the driver checked it — the message says which;
// [ErrorTypeLimit] for a device limit or a front-end safety limit;
// [ErrorTypeUnsupported] for what the driver cannot do (enable f16,
// subgroups, timestamps on a device without them); [ErrorTypeInvalidArgument]
// only for what a Go caller alone can get wrong (nil, a buffer of another
// device, a released buffer, a negative length).
//
// # Limitations
//
// Kernels bind buffers (var<storage, read>, var<storage, read_write>,
// var<uniform>), sampled and depth textures, write-only storage textures
// and samplers, in any @group below maxBindGroups, numbered with gaps or
// not: [Device.Launch] takes them — a [*Buffer], a [*TextureView] or a
// [*Sampler] each — in (group, binding) order of the bindings the entry
// point statically uses. Textures have one mip level and one sample.
// Storage textures that are read (read, read_write) are refused on the
// desktop as [ErrorTypeUnsupported] (wgpu-native 0.17 binds only
// write-only ones) and accepted in a browser. Extensions the driver's
// compiler predates (enable f16, subgroup operations, binding arrays, ray
// queries) are refused as [ErrorTypeUnsupported]; 64-bit types and float
// atomics are not WebGPU.
//
// # In a browser (GOOS=js GOARCH=wasm)
//
// Built for js/wasm, the package is the same API on the page's
// navigator.gpu (the *_js.go files; api_test.go checks that they export
// what the cgo files do), so a program that builds for the desktop builds
// for the browser unchanged. [Open] asks navigator.gpu for an adapter
// ([Options].Compatibility asks for WebGPU's "compatibility" feature
// level) and a device with the adapter's limits; without navigator.gpu,
// or when the browser returns no adapter, the error (matching
// [ErrNoAdapter]) names what is missing: a secure context, or Chromium's
// --enable-unsafe-webgpu (chrome://flags). [Device.Info] has the
// adapter's vendor, architecture and description, BackendBrowser, and
// isFallbackAdapter as [AdapterInfo].Fallback.
//
// WGSL goes to the browser's compiler as written: it is current, so there
// is no lowering, and neither naga nor wazero is linked into the page. The
// front-end's checks and the bindings' minimum sizes run as on the
// desktop, and the front-end binds the override constants; the browser's
// compilation messages come back as an [*Error] of type
// [ErrorTypeValidation] at the user's line and column. [CheckModule] and
// [CheckKernel] run the front-end only (a type error the front-end does not
// see is the browser's, at Compile or the first launch).
//
// Launches are checked and recorded in Go — the kernel's pipeline by
// pointer, the bindings' sizes and usages, the bind group cache — into an
// integer command list per stream; a flush hands the list to a small
// JavaScript function in one call, which encodes it into one compute pass
// (skipping a setPipeline or setBindGroup that repeats the previous one)
// and submits it. A captured [Graph]'s commands are kept by the page: a
// replay adds one command to the stream's list. The browser validates
// submitted work asynchronously: a launch it still rejects is reported by
// the next [Device.Sync] (from the device's error scopes, so possibly on
// another stream's Sync), not isolated from the good launches of its batch
// as on the desktop. There are no timestamp queries ([Device.TimeStream]
// is unsupported). Read-backs map pooled staging buffers, the same pool as
// on the desktop ([Options].StagingPoolBytes), and [Device.TempBuffer]
// recycles buffers from the same pool. One set of error scopes is open on
// the device at a time, and each Sync closes it and opens the next, so an
// operation leaves nothing behind for the next Sync to collect.
//
// The page has one thread and no preemption, and the browser answers by
// promises: [Open], compiles (a kernel's first launch), [Device.Sync],
// [Read], [ReadInto], [GraphRecorder.Finish] and [Device.Close] await them
// from the calling goroutine. Call them from a goroutine, never inside a
// js.FuncOf callback: the page's event loop waits for the callback to
// return, so the promise could never resolve. They detect that case (the
// runtime's callback frame is on the goroutine's stack) and return an
// [*Error] of type [ErrorTypeInvalidArgument] instead of hanging.
//
// # One device, two backends: the files
//
// There is one [Device], one [Buffer], one [Graph]: the device, its
// streams, the launch path and its checks, the kernel index and the
// compile pipeline, graphs, buffers, both pools, [Stats], Close and the
// errors live in files every build shares. A build's backend supplies only
// the calls into its driver — create and release the driver's objects
// (buffers, bind group layouts, bind groups, pipelines), record a launch
// into a stream's command list and encode and submit a batch, write and
// map memory, timestamps — never at more than one seam per launch. A
// file's name says which build it belongs to, one spelling each:
//
//   - name.go, no build line: shared by every build;
//   - name_native.go, //go:build cgo: the desktop's backend, wgpu-native
//     through cgo (its handles one file each, handle_*_native.go, as in
//     go-webgpu);
//   - name_js.go, //go:build js && wasm: the browser's backend, the page's
//     navigator.gpu;
//   - name_none.go, //go:build !cgo && !(js && wasm): a build with neither,
//     whose Open returns [ErrNoCgo] (its backend's calls are never reached);
//   - name_lower.go, //go:build !(js && wasm): the lowering of WGSL for
//     the driver's old compiler (naga under wazero), which the browser's
//     build does not link (check_lower.go), and the kernel cache that
//     keeps what it derives across processes (kernelcache_lower.go).
//
// Tests that need a device carry //go:build cgo || (js && wasm).
package wgpu
