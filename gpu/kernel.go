package gpu

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Kernel is a compute kernel: WGSL source, the entry point to run and the
// values of the module's override constants (as WebGPU's
// GPUProgrammableStage.constants). It is immutable after [NewKernel] or
// [Kernel.WithConstants] and safe to share between goroutines, clients and
// services; each service compiles it once and caches the pipeline by
// [Kernel.Key], so two Kernels with the same content share one pipeline.
type Kernel struct {
	name      string             // written once
	source    string             // written once
	entry     string             // written once
	constants map[string]float64 // written once; never handed out (Constants copies)
	key       [32]byte           // written once: SHA-256 over entry, source and constants
}

// NewKernel returns the kernel named name (used in reports and errors) that
// runs entry of the WGSL source. It panics if entry is empty.
func NewKernel(name, source, entry string) *Kernel {
	if entry == "" {
		panic("gpu: NewKernel with an empty entry point")
	}
	k := &Kernel{name: name, source: source, entry: entry}
	k.key = kernelKey(source, entry, nil)
	return k
}

// kernelKey hashes a kernel's content: its entry point, its source and its
// constants in name order, each length-prefixed so that no two contents
// share a key. A kernel without constants keys as it always has.
func kernelKey(source, entry string, constants map[string]float64) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s\x00", len(entry), entry)
	h.Write([]byte(source))
	if len(constants) > 0 {
		var buf [8]byte
		h.Write([]byte("\x00constants\x00"))
		for _, name := range slices.Sorted(maps.Keys(constants)) {
			fmt.Fprintf(h, "%d:%s=", len(name), name)
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(constants[name]))
			h.Write(buf[:])
		}
	}
	var key [32]byte
	h.Sum(key[:0])
	return key
}

// WithConstants returns a kernel like k whose module's override constants
// take the given values: a key is an override's name, or its @id as a
// decimal number, as in WebGPU's GPUProgrammableStage.constants; a value is
// converted to the override's type (bool: 0 is false, anything else true;
// integers must be whole and in range). The map is copied; nil or empty
// gives k's source with no values set. Constants replace, not merge with,
// those k carries. The new kernel compiles to its own pipeline: a service
// caches one pipeline per set of values. The values are checked when the
// kernel compiles: a name that no override of the module has, a value its
// override's type cannot hold, and an override with neither a default nor a
// value are errors naming it.
func (k *Kernel) WithConstants(constants map[string]float64) *Kernel {
	nk := &Kernel{name: k.name, source: k.source, entry: k.entry}
	if len(constants) > 0 {
		nk.constants = maps.Clone(constants)
	}
	nk.key = kernelKey(nk.source, nk.entry, nk.constants)
	return nk
}

// Constants returns a copy of the override constant values k carries (nil
// when none).
func (k *Kernel) Constants() map[string]float64 {
	if len(k.constants) == 0 {
		return nil
	}
	return maps.Clone(k.constants)
}

// Constant returns the value k carries for the override constant name, and
// whether it carries one. It does not allocate.
func (k *Kernel) Constant(name string) (float64, bool) {
	v, ok := k.constants[name]
	return v, ok
}

// NumConstants returns how many override constant values k carries.
func (k *Kernel) NumConstants() int { return len(k.constants) }

// Name returns the kernel's name.
func (k *Kernel) Name() string { return k.name }

// Source returns the kernel's WGSL source.
func (k *Kernel) Source() string { return k.source }

// Entry returns the kernel's entry point.
func (k *Kernel) Entry() string { return k.entry }

// Key returns the kernel's content key: equal for kernels with the same
// source, entry point and constants, whatever their names.
func (k *Kernel) Key() [32]byte { return k.key }

// String returns the kernel's name and entry point.
func (k *Kernel) String() string { return k.name + "(" + k.entry + ")" }
