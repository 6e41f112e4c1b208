package client

import "github.com/streamgate/streamgate/gpu"

// The device contract moved to package gpu, which devices implement without
// importing their consumer. These names keep working.

// Kernel is a compute kernel.
//
// Deprecated: use [gpu.Kernel].
type Kernel = gpu.Kernel

// Service is what a [Client] needs from a device.
//
// Deprecated: use [gpu.Service].
type Service = gpu.Service

// Buffer is a device buffer as a [Service] sees it.
//
// Deprecated: use [gpu.Buffer].
type Buffer = gpu.Buffer

// NewKernel returns the kernel named name that runs entry of the WGSL source.
//
// Deprecated: use [gpu.NewKernel].
func NewKernel(name, source, entry string) *Kernel { return gpu.NewKernel(name, source, entry) }

// NewStreamID returns a fresh process-unique stream id, never [SingleStream].
//
// Deprecated: use [gpu.NewStreamID].
func NewStreamID() gpu.StreamID { return gpu.NewStreamID() }
