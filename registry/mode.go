package registry

import (
	"fmt"

	"github.com/streamgate/streamgate/gpu"
)

// StreamMode says whether the launches on a stream run.
type StreamMode uint8

const (
	// Execute: launches run.
	Execute StreamMode = iota
	// Discard: launches are dropped; their kernels still compile (now under
	// [ProcessCompileAndAutotune], queued for a batch otherwise).
	Discard
)

// String returns "Execute" or "Discard". It panics on an invalid value.
func (m StreamMode) String() string {
	switch m {
	case Execute:
		return "Execute"
	case Discard:
		return "Discard"
	}
	panic(invalidStreamMode(m))
}

// Opposite returns the other mode. It panics on an invalid value.
func (m StreamMode) Opposite() StreamMode {
	m.mustValid()
	return m ^ 1
}

// invalidStreamMode is the panic value of a call given an invalid
// StreamMode.
type invalidStreamMode StreamMode

func (m invalidStreamMode) Error() string {
	return fmt.Sprintf("registry: invalid StreamMode %d", uint8(m))
}

// invalidProcessMode is the panic value of a call given an invalid
// ProcessMode.
type invalidProcessMode ProcessMode

func (p invalidProcessMode) Error() string {
	return fmt.Sprintf("registry: invalid ProcessMode %d", uint8(p))
}

// mustValid panics with a "registry:" message unless m is Execute or Discard.
func (m StreamMode) mustValid() {
	if m > Discard {
		panic(invalidStreamMode(m))
	}
}

// ServiceID identifies one device's service (one WebGPU device) in the
// process. It is the contract's id type, [gpu.ServiceID], declared in
// package gpu (a leaf importing only the standard library) so that a
// device implementation does not run this package's initialization.
type ServiceID = gpu.ServiceID

// StreamID identifies a stream. Stream ids are the process's, not a
// device's: stream 7 on one service and stream 7 on another are two streams.
// It is the contract's id type, [gpu.StreamID].
type StreamID = gpu.StreamID

// ServiceStream is one stream of one service: the key an [Override] sets the
// mode of.
type ServiceStream struct {
	Service ServiceID
	Stream  StreamID
}

// String formats s as "service/stream".
func (s ServiceStream) String() string {
	return fmt.Sprintf("%d/%d", s.Service, s.Stream)
}

// ProcessMode is what the process as a whole does with launches that no
// override governs.
type ProcessMode uint8

const (
	// ProcessExecute: launches run.
	ProcessExecute ProcessMode = iota
	// ProcessCompile: launches are discarded; their kernels are queued and
	// compiled in one batch (on demand, or at the next sync).
	ProcessCompile
	// ProcessCompileAndAutotune: launches are discarded; kernels compile at
	// once, and autotune measurements (which open Execute overrides) run.
	ProcessCompileAndAutotune
)

// String returns the mode's name. It panics on an invalid value.
func (p ProcessMode) String() string {
	switch p {
	case ProcessExecute:
		return "Execute"
	case ProcessCompile:
		return "Compile"
	case ProcessCompileAndAutotune:
		return "CompileAndAutotune"
	}
	panic(invalidProcessMode(p))
}

// StreamMode returns the mode of a stream that no override governs:
// Execute under [ProcessExecute], Discard otherwise. It panics on an invalid
// value.
func (p ProcessMode) StreamMode() StreamMode {
	switch p {
	case ProcessExecute:
		return Execute
	case ProcessCompile, ProcessCompileAndAutotune:
		return Discard
	}
	panic(invalidProcessMode(p))
}
