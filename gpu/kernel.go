package gpu

import (
	"crypto/sha256"
	"fmt"
	"sync/atomic"
)

// Kernel is a compute kernel: WGSL source and the entry point to run. It is
// immutable after [NewKernel] and safe to share between goroutines, clients
// and services; each service compiles it once and caches the pipeline by
// [Kernel.Key], so two Kernels with the same content share one pipeline.
type Kernel struct {
	name   string   // written once
	source string   // written once
	entry  string   // written once
	key    [32]byte // written once: SHA-256 over entry and source

	memo atomic.Pointer[memo] // the last service's compiled form (see Memo)
}

// memo is one service's value for a kernel.
type memo struct {
	owner ServiceID
	value any
}

// Memo returns the value the service owner stored for k with [Kernel.SetMemo],
// or nil. A service keeps its compiled form of k there, so that a launch
// finds it with one atomic load instead of hashing k's key; k holds one
// entry, the last one stored, so a kernel launched on several services
// alternately falls back to the service's own cache. It is safe for
// concurrent use and never allocates.
func (k *Kernel) Memo(owner ServiceID) any {
	if m := k.memo.Load(); m != nil && m.owner == owner {
		return m.value
	}
	return nil
}

// SetMemo stores value as service owner's memo for k (see [Kernel.Memo]),
// replacing any other service's. It is safe for concurrent use.
func (k *Kernel) SetMemo(owner ServiceID, value any) {
	k.memo.Store(&memo{owner: owner, value: value})
}

// NewKernel returns the kernel named name (used in reports and errors) that
// runs entry of the WGSL source. It panics if entry is empty.
func NewKernel(name, source, entry string) *Kernel {
	if entry == "" {
		panic("gpu: NewKernel with an empty entry point")
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s\x00", len(entry), entry)
	h.Write([]byte(source))
	k := &Kernel{name: name, source: source, entry: entry}
	h.Sum(k.key[:0])
	return k
}

// Name returns the kernel's name.
func (k *Kernel) Name() string { return k.name }

// Source returns the kernel's WGSL source.
func (k *Kernel) Source() string { return k.source }

// Entry returns the kernel's entry point.
func (k *Kernel) Entry() string { return k.entry }

// Key returns the kernel's content key: equal for kernels with the same
// source and entry point, whatever their names.
func (k *Kernel) Key() [32]byte { return k.key }

// String returns the kernel's name and entry point.
func (k *Kernel) String() string { return k.name + "(" + k.entry + ")" }
