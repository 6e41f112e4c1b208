// Package low names the module's bottom floor: helpers that the library
// packages (registry, wgpu, tune, client, lockfree) import, and that import
// nothing of the module outside this folder:
//
//   - testhook: test-only hooks from registry and wgpu to the tests of
//     other packages (fuzz);
//   - slogwarn: the logger the tune packages write to when the program
//     gives them none;
//   - cacheopt: the one Option type of the tune caches' Open (sqlitecache,
//     webcache), on slogwarn;
//   - spin: what a busy loop needs where goroutines are not preempted
//     (js/wasm);
//   - leaktest: the module's one goroutine-leak check of a test binary,
//     and the goleak options every leak check passes.
//
// The workloads, the top floor, live in internal/workload.
package low
