package wgpu

import (
	"context"

	"github.com/streamgate/streamgate/gpu"
)

// A stream: its state by id, its retirement, Flush and Sync. Launch
// records into the stream's batch, which the backend keeps in its own form
// (streamDriver: stream_native.go, stream_js.go) and submits in
// flushLocked.

// stream is one logical stream's pending work. All fields are guarded by
// mu. Launch only appends to the backend's command list; flushLocked
// submits it once and leaves the stream with nothing pending.
type stream struct {
	d  *Device      // written once
	id gpu.StreamID // written once

	mu        streamMutex
	launches  int                     // launches in the batch, a replay's counted one by one
	seq       uint64                  // launches accepted on this stream
	used      map[*bindGroup]struct{} // bind groups the batch uses
	recent    [recentBGs]recentBG     // the bind groups of the last launches (may be released: check buffers first)
	nextSlot  int                     // the slot of recent to replace next
	submitted bool                    // something was submitted on this stream
	closed    bool                    // CloseStream or Close retired it: record nothing more

	streamDriver // the backend's batch
}

// stream returns the stream id's state, creating it on first use, or nil
// when CloseStream retired id. It is the one place where a stream's state
// is made, and it makes none for a retired id: every call that records on
// a stream reaches its state here (through lockStream), so no call, racing
// CloseStream or later, brings a retired stream back.
func (d *Device) stream(id gpu.StreamID) *stream {
	if s, ok := d.streams.Load(id); ok {
		return s
	}
	d.retired.mu.Lock()
	defer d.retired.mu.Unlock()
	// Under retired.mu a retired id has no state: retire adds the id and
	// deletes its state in one hold of it.
	if d.retired.hasLocked(id) {
		return nil
	}
	s, _ := d.streams.LoadOrCompute(id, func() *stream {
		return &stream{d: d, id: id, used: map[*bindGroup]struct{}{}}
	})
	return s
}

// lockStream returns the stream id's state, locked, creating it on first
// use. A state that CloseStream retired while the caller waited for its
// lock is not used, and no fresh one is made for a retired id: then
// lockStream returns an error matching ErrStreamClosed for op.
func (d *Device) lockStream(op string, id gpu.StreamID) (*stream, error) {
	for {
		s := d.lastStream.Load()
		if s == nil || s.id != id {
			if s = d.stream(id); s == nil {
				return nil, streamClosedError(op, id)
			}
			d.lastStream.Store(s)
		}
		s.mu.Lock()
		if !s.closed {
			return s, nil
		}
		s.mu.Unlock()
		d.lastStream.CompareAndSwap(s, nil)
	}
}

// CloseStream submits the stream's recorded launches, as Flush does, drops
// its state and retires the id for good: a device keeps per-stream state
// (an encoder, the bind groups in use) from a stream's first launch until
// CloseStream or Close, so a program that makes many short-lived streams —
// a client each — must close them. Work already submitted still runs.
//
// A retired id stays retired, whether it had state or not: a later call
// that would record on it ([Device.Launch], [Graph.Replay],
// [Device.Capture] and its Finish, [Device.TimeStream]) creates
// nothing and returns an error matching [ErrStreamClosed] (and
// gpu.ErrStreamClosed); so does such a call racing CloseStream, unless it
// recorded before CloseStream took the stream, and then CloseStream
// submitted its work. Flush, Sync and CloseStream of a retired id return
// nil; a Sync does not wait for work submitted before CloseStream. Take
// the ids of streams that are closed from gpu.NewStreamID, which never
// repeats. The device remembers the retired ids in a bitmap, a few bytes
// while they are dense (see retiredSet).
//
// An error is a [*gpu.LaunchError] naming the launches of the last batch
// that the driver rejected (every other launch ran), or [ErrClosed] (in a
// browser, as for [Device.Flush]).
func (d *Device) CloseStream(id gpu.StreamID) error {
	const op = "CloseStream"
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	for {
		s, ok := d.streams.Load(id)
		if !ok {
			if d.retireStateless(id) {
				return nil
			}
			continue // made meanwhile: retire it
		}
		if ok, err := d.retire(op, s); ok {
			return err
		}
		// A concurrent CloseStream retired s: the id is retired.
	}
}

// retireStateless retires id, which had no state at the last look, and
// reports whether it still had none (else nothing changed).
func (d *Device) retireStateless(id gpu.StreamID) bool {
	d.retired.mu.Lock()
	defer d.retired.mu.Unlock()
	if _, ok := d.streams.Load(id); ok {
		return false
	}
	d.retired.addLocked(id)
	return true
}

// retire submits s's pending launches and retires its id; ok is false when
// s was retired already.
func (d *Device) retire(op string, s *stream) (ok bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false, nil
	}
	err = s.flushLocked(op)
	s.closed = true
	s.recent = [recentBGs]recentBG{}
	d.retired.mu.Lock()
	d.retired.addLocked(s.id)
	d.streams.Delete(s.id)
	d.retired.mu.Unlock()
	return true, err
}

// Flush submits the stream's recorded launches without waiting. An error is
// a [*gpu.LaunchError] naming the launches the driver rejected (every other
// launch was submitted), or [ErrClosed]; in a browser it is the browser's
// exception at encoding, and the browser's validation of the submitted
// work is reported by [Device.Sync]. Flushing a stream with no state, or
// one CloseStream retired, does nothing.
func (d *Device) Flush(id gpu.StreamID) error {
	const op = "Flush"
	leave, err := d.enter(op)
	if err != nil {
		return err
	}
	defer leave()
	s, ok := d.streams.Load(id)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flushLocked(op)
}

// isRetired reports whether CloseStream retired id.
func (d *Device) isRetired(id gpu.StreamID) bool {
	d.retired.mu.Lock()
	defer d.retired.mu.Unlock()
	return d.retired.hasLocked(id)
}

// Sync flushes the stream and waits until all its submitted work is done
// (it may also wait for work other streams submitted before). A stream with
// no state, or one CloseStream retired, has nothing to wait for: nil. If ctx is
// done first it returns ctx.Err(); the work stays submitted and runs, and
// the cancelled wait keeps no memory once the driver reports the work done.
// A [*gpu.LaunchError] from the flush is returned after the wait. In a
// browser Sync then reports the first error the browser found in the
// device's work since the last Sync (its error scopes are the device's, so
// a Sync may report another stream's error); it awaits the browser, so
// inside a js.FuncOf callback it returns an error instead.
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
	serr := st.err(op)
	st.free()
	if ferr != nil {
		return ferr
	}
	return serr
}

// syncStart flushes the stream and, when it has submitted work, asks the
// queue for a status word set once that work is done.
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
	st, err = d.workDone(op)
	if err != nil {
		return st, false, err
	}
	return st, true, ferr
}
