//go:build cgo

package wgpu

import (
	"context"
	"sync"

	"github.com/streamgate/streamgate/gpu"
)

// This file holds a stream's state and the calls that flush and wait for
// it (stream_common.go, shared with the js build, finds a stream's state
// by id and retires it); launch.go records launches, bindgroups.go caches their bind groups,
// submit.go encodes and submits a batch.

// stream is one logical stream's pending work. Launch only appends to a
// Go-side command list (batch, and native, its C-side twin); the list is
// encoded into the stream's command encoder in one cgo crossing
// (encodeLocked) when the batch is flushed, or before anything else is
// written to the encoder (TimeStream's timestamps). All fields are guarded
// by mu. An encoder is finished and its command buffer submitted exactly
// once, in flushLocked, after which both are released and the fields
// cleared: no command buffer can be submitted twice.
type stream struct {
	d  *Device
	id gpu.StreamID

	mu        sync.Mutex
	enc       nEncoder                // zero until something is encoded
	pass      uintptr                 // the open compute pass of enc the batch records into; 0 when none
	batch     []launchRec             // launches and replays since the last flush, in order
	native    []nativeLaunch          // batch's launches by handle, for the encoder (a replay's are its graph's)
	bgs       []uintptr               // the bind group handles native's launches name
	launches  int                     // launches in batch, a replay's counted one by one
	encoded   int                     // native[:encoded] is in enc (a replay is encoded when it is recorded)
	encErr    error                   // encoding into enc failed: the flush isolates
	seq       uint64                  // launches accepted on this stream
	used      map[*bindGroup]struct{} // bind groups the batch uses
	recent    [recentBGs]recentBG     // the bind groups of the last launches (may be released: check buffers first)
	nextSlot  int                     // the slot of recent to replace next
	submitted bool                    // something was submitted on this stream
	closed    bool                    // CloseStream retired it and removed it from d.streams: record nothing more
}

// Sync flushes the stream and waits until all its submitted work is done
// (it may also wait for work other streams submitted before). A stream with
// no state, or one CloseStream retired, has nothing to wait for: nil. If ctx is
// done first it returns ctx.Err(); the work stays submitted and runs, and
// the cancelled wait keeps no memory once the driver reports the work done.
// A [*gpu.LaunchError] from the flush is returned after the wait.
func (d *Device) Sync(ctx context.Context, id gpu.StreamID) error {
	const op = "Sync"
	if err := ctx.Err(); err != nil {
		return err
	}
	st, waiting, ferr := d.syncStart(op, id)
	if !waiting {
		return ferr
	}
	if err := d.waitStatus(ctx, op, st); err != nil {
		st.abandon()
		return err
	}
	st.free()
	return ferr
}

// syncStart flushes the stream and, when it has submitted work, asks the
// queue to set a status word once that work is done.
func (d *Device) syncStart(op string, id gpu.StreamID) (st statusWord, waiting bool, err error) {
	leave, err := d.enter(op)
	if err != nil {
		return st, false, err
	}
	defer leave()
	s, ok := d.streams.Load(id)
	if !ok {
		return st, false, nil
	}
	s.mu.Lock()
	ferr := s.flushLocked(op)
	submitted := s.submitted
	s.mu.Unlock()
	if !submitted {
		return st, false, ferr
	}
	st = newStatusWord()
	onSubmittedWorkDone(d.queue, st)
	return st, true, ferr
}
