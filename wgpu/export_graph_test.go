//go:build cgo || (js && wasm)

package wgpu

import "github.com/streamgate/streamgate/gpu"

// NewGraphRecorder is [Device.Capture] returning the concrete type, for
// the tests that read a recorder's state.
func (d *Device) NewGraphRecorder(id gpu.StreamID) (*GraphRecorder, error) {
	return d.newGraphRecorder(id)
}

// FinishGraph is [GraphRecorder.Finish] returning the concrete type.
func (r *GraphRecorder) FinishGraph() (*Graph, error) { return r.finishGraph() }
