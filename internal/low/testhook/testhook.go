// Package testhook carries test-only hooks from a package of the module to
// the tests of other packages (package fuzz), which the package's own
// export_test.go cannot reach. Nothing but tests sets them; unset, each
// costs its package one atomic load where it is consulted.
package testhook

import "sync/atomic"

// RegistryWrite, when set, is called by every write attempt of every
// registry.Registry (Set, Release, SetProcessMode and a leaked override's
// cleanup, which runs on a goroutine of the runtime's) once the attempt has
// built its snapshot and readied the fast word, just before the
// compare-and-swap that publishes it. r is the *registry.Registry written
// to; attempt counts the writer's tries from 0: 1 and up are retries after
// a lost race.
//
// When it returns conflict true, the registry first publishes a copy of the
// snapshot the attempt was built from (the same overrides, a new
// publication), as a writer that got there first would, so the attempt's
// compare-and-swap fails and the writer retries. The hook may also yield
// the processor, or write to the registry itself; such a write runs the
// hook again.
//
// Tests that set it must not run in parallel with tests that write to a
// registry, and must clear it (Store(nil)) when done.
var RegistryWrite atomic.Pointer[func(r any, attempt int) (conflict bool)]

// RecreateRetiredStreams, when set, makes every wgpu.Device make a stream's
// state anew for an id that CloseStream retired, as the device once did:
// a call racing CloseStream, or any later one, then brings the
// stream back and leaves it on the device. It is the deliberately broken
// variant a lifecycle check is shown to catch (client's
// TestLifecycleModelCatchesResurrection). It is consulted only where a
// stream's state is made, never on a launch's path through a live stream.
//
// Tests that set it must not run in parallel with other tests of a
// device, and must clear it (Store(false)) when done.
var RecreateRetiredStreams atomic.Bool

// WGSLTokenize, when set, is called with the source each time package
// wgsl's lexer starts on one: once per wgsl.Parse or wgsl.ParseFile. It
// is how the lowering's tests count the times a compile reads the user's
// source and naga's output. Tests that set it must not run in parallel
// with others that parse, and must clear it (Store(nil)) when done.
var WGSLTokenize atomic.Pointer[func(source string)]
