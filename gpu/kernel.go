package gpu

import (
	"crypto/sha256"
	"fmt"
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
