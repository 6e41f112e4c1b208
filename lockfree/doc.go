// Package lockfree holds copy-on-write containers behind
// [sync/atomic.Pointer]: readers load an immutable snapshot without locking
// or allocating; writers build a new snapshot from the old one and publish it
// with compare-and-swap, retrying when another writer got there first.
//
// The contract every container here keeps:
//
//   - A snapshot, once published, is never modified. A reader may hold it as
//     long as it likes; it stays exactly as it was published.
//   - A reader sees only snapshots that were published (or the initial
//     value), never a partly built one, and sees them in publication order:
//     a Load that starts after a publication returns that snapshot or a later
//     one.
//   - Update functions must not mutate the old snapshot, and may run more
//     than once (once per lost race), so they must have no side effects other
//     than building the new snapshot.
//   - Writers are lock-free, not wait-free: under contention one writer's
//     update may be retried while others succeed, but some writer always
//     makes progress.
//
// Use these containers where reads vastly outnumber writes: each write
// copies the state.
//
// In this module, [Value] holds the registry's snapshot (package registry).
// Its writers call [Value.Load] and [Value.CompareAndSwap] in a loop of
// their own rather than [Value.Update]: between building a snapshot and
// publishing it they ready the registry's fast-path word, which must happen
// before each compare-and-swap and be put right after the last, and a Set
// keeps the id of the attempt that won. [Value.Update] serves writers with
// nothing to do but build the snapshot (the test kit's compiled-kernel set);
// [Slice] holds the fuzz harness's pool of overrides.
package lockfree
