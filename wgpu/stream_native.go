//go:build cgo

package wgpu

import (
	"sync"
)

// The desktop's stream batch: launch_native.go records launches,
// submit_native.go encodes and submits a batch.

// streamMutex is a stream's lock.
type streamMutex = sync.Mutex

// streamDriver is the desktop's part of a stream: Launch appends to a
// Go-side command list (native, in the C-side layout, and replays); the
// list is encoded into the stream's command encoder in one cgo crossing
// (encodeLocked) when the batch is flushed, or before anything else is
// written to the encoder (TimeStream's timestamps). All fields are guarded
// by the stream's mu. An encoder is finished and its command buffer
// submitted exactly once, in flushLocked, after which both are released and
// the fields cleared: no command buffer can be submitted twice.
type streamDriver struct {
	enc     nEncoder       // zero until something is encoded
	pass    uintptr        // the open compute pass of enc the batch records into; 0 when none
	native  []nativeLaunch // the launches since the last flush, by handle, for the encoder (a replay's are its graph's)
	replays []replayRec    // the replays since the last flush, in order
	bgs     []uintptr      // the bind group handles native's launches name
	encoded int            // native[:encoded] is in enc (a replay is encoded when it is recorded)
	encErr  error          // encoding into enc failed: the flush isolates
}

// workDone returns a status word the queue sets once the work submitted so
// far is done.
func (d *Device) workDone(string) (statusWord, error) {
	st := newStatusWord()
	onSubmittedWorkDone(d.queue, st)
	return st, nil
}
