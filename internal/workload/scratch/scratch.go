//go:build cgo || js

// Package scratch makes the fresh buffers a tune measurement runs on (a
// tune.Op's NewInputs), so that it does a real launch's work without
// touching the step's data: for the warmup demo's ops and the decoder's.
package scratch

import (
	"context"

	"github.com/streamgate/streamgate/gpu"
	"github.com/streamgate/streamgate/wgpu"
)

// Buffers are the buffers made for one measurement, in binding order.
type Buffers struct {
	d    *wgpu.Device
	made []*wgpu.Buffer
}

// New makes a buffer of size and usage on the device and adds it.
func (s *Buffers) New(size uint64, usage wgpu.BufferUsage) (*wgpu.Buffer, error) {
	b, err := s.d.NewBuffer(size, usage)
	if err != nil {
		return nil, err
	}
	s.made = append(s.made, b)
	return b, nil
}

// Release releases every buffer made.
func (s *Buffers) Release() {
	for _, b := range s.made {
		b.Release()
	}
}

// Inputs returns a tune.Op's NewInputs: each call makes fresh buffers on
// d with fill and returns them, with their release; when fill fails, it
// releases what fill made and returns its error.
func Inputs(d *wgpu.Device, fill func(*Buffers) error) func(context.Context) ([]gpu.Buffer, func(), error) {
	return func(context.Context) ([]gpu.Buffer, func(), error) {
		s := &Buffers{d: d}
		if err := fill(s); err != nil {
			s.Release()
			return nil, nil, err
		}
		in := make([]gpu.Buffer, len(s.made))
		for i, b := range s.made {
			in[i] = b
		}
		return in, s.Release, nil
	}
}
