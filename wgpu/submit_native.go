//go:build cgo

package wgpu

import "github.com/streamgate/streamgate/gpu"

// Submission: a stream's batch encoded in one crossing, submitted once,
// and replayed by halves when the driver rejects it.

// openEncoderLocked makes sure the stream has an encoder.
func (s *stream) openEncoderLocked(op string) error {
	if s.enc.ref != 0 {
		return nil
	}
	var err error
	s.enc, err = s.d.createCommandEncoder(op)
	return err
}

// encodeLocked records the launches recorded since the last encode into
// the stream's open compute pass (beginning it first), in one cgo
// crossing. The batch's launches and replays all go into that one pass,
// which flushLocked ends (or TimeStream, before a timestamp). An error
// (the driver rejected something) is kept for flushLocked, which then
// replays the batch without the bad launches.
func (s *stream) encodeLocked(op string) error {
	if s.encoded == len(s.native) {
		return s.encErr
	}
	if err := s.openPassLocked(op); err != nil {
		return err
	}
	recordPass(s.pass, s.native[s.encoded:], s.bgs)
	s.encoded = len(s.native)
	return s.encErr
}

// openPassLocked makes sure the stream has an encoder and an open compute
// pass in it.
func (s *stream) openPassLocked(op string) error {
	if s.pass != 0 {
		return nil
	}
	if err := s.openEncoderLocked(op); err != nil {
		return err
	}
	pass, typ, msg, failed := s.d.beginPass(s.enc)
	if failed && s.encErr == nil {
		s.encErr = &Error{Op: op, Type: typ, Message: msg}
	}
	if pass == 0 {
		if s.encErr != nil {
			return s.encErr
		}
		return newError(op, ErrorTypeInternal, "begin compute pass: the driver returned no pass")
	}
	s.pass = pass
	return nil
}

// endPassLocked ends the stream's open pass, if any: the driver validates
// the pass's commands now, and an error is kept in encErr.
func (s *stream) endPassLocked(op string) error {
	if s.pass == 0 {
		return s.encErr
	}
	typ, msg, failed := s.d.endPass(s.pass)
	s.pass = 0
	if failed && s.encErr == nil {
		s.encErr = &Error{Op: op, Type: typ, Message: msg}
	}
	return s.encErr
}

// flushLocked encodes what is pending, finishes the encoder and submits
// its command buffer once. When the driver rejects the batch (nothing of
// it ran), it replays the batch without the launches the driver rejects,
// so every good launch runs exactly once, and returns a [*gpu.LaunchError]
// naming the rejected ones. Either way the stream is left with nothing
// pending.
func (s *stream) flushLocked(op string) error {
	if s.enc.ref == 0 && len(s.native) == 0 {
		return nil
	}
	err := s.encodeLocked(op)
	if s.enc.ref == 0 { // no encoder could be made: err says why
		s.clearUsedLocked()
		return err
	}
	if perr := s.endPassLocked(op); err == nil {
		err = perr
	}
	cmd, ferr := s.d.finish(op, s.enc)
	s.enc.release()
	s.enc = nEncoder{}
	if err == nil {
		err = ferr
	}
	if err == nil {
		s.d.submit(cmd)
		s.submitted = true
	}
	if cmd.ref != 0 {
		cmd.release()
	}
	if err != nil && s.launches > 0 {
		err = s.isolateLocked(op, err)
	}
	s.clearUsedLocked()
	return err
}

// isolateLocked replays the batch, which the driver rejected as a whole with
// err, in halves: each part that the driver accepts is submitted, in stream
// order, and each launch rejected on its own is reported.
func (s *stream) isolateLocked(op string, err error) error {
	f := s.flattenLocked()
	le := &gpu.LaunchError{Stream: s.id}
	var split func(lo, hi int, known error)
	split = func(lo, hi int, known error) {
		if lo == hi {
			return
		}
		err := known
		if err == nil {
			err = s.submitPartLocked(op, f.native[lo:hi], f.bgs)
		}
		if err == nil {
			return
		}
		if hi-lo == 1 {
			fl := f.recs[lo]
			fl.Err = err
			le.Failed = append(le.Failed, fl)
			return
		}
		mid := lo + (hi-lo)/2
		split(lo, mid, nil)
		split(mid, hi, nil)
	}
	split(0, len(f.native), err)
	if len(le.Failed) == 0 {
		// The batch failed, yet every part of it passed on replay: the
		// failure was not a launch's (the good launches ran once).
		return err
	}
	return le
}

// flatBatch is a batch with its replays expanded, one entry per launch,
// for isolateLocked: a launch's bind groups are at its firstGroup of bgs.
type flatBatch struct {
	native []nativeLaunch
	bgs    []uintptr
	recs   []gpu.FailedLaunch // each launch's report, but for Err
}

// flattenLocked expands the batch, its launches and its replays in stream
// order, into one flat list of launches. Its launches, s.launches of them
// counting each replay's, are numbered up to s.seq; each names the kernel
// of its pipeline handle. It allocates: it runs only when the driver
// rejected a batch.
func (s *stream) flattenLocked() flatBatch {
	var f flatBatch
	add := func(nl nativeLaunch, bgs []uintptr, rec gpu.FailedLaunch) {
		base := len(f.bgs)
		f.bgs = append(f.bgs, bgs[nl.firstGroup:nl.firstGroup+nl.groups]...)
		nl.firstGroup = uint32(base)
		f.native = append(f.native, nl)
		f.recs = append(f.recs, rec)
	}
	names := s.d.pipelineNames()
	seq := s.seq - uint64(s.launches) // the launch before the batch's first
	ni := 0
	launchesTo := func(at int) {
		for ; ni < at; ni++ {
			seq++
			add(s.native[ni], s.bgs, gpu.FailedLaunch{Seq: seq, Kernel: names[s.native[ni].pipeline]})
		}
	}
	for _, r := range s.replays {
		launchesTo(r.at)
		for i, nl := range r.g.drv.native {
			add(nl, r.g.drv.bgs, gpu.FailedLaunch{Seq: r.seq + uint64(i), Kernel: r.g.launches[i].p.name, Graph: r.g.id, Index: i})
		}
		seq = r.seq + uint64(len(r.g.drv.native)) - 1
	}
	launchesTo(len(s.native))
	return f
}

// pipelineNames maps the handle of each compiled pipeline of d to its
// name, for the report of a rejected batch. Called inside d.enter, so
// Close has released none of them.
func (d *Device) pipelineNames() map[uintptr]string {
	names := map[uintptr]string{}
	d.pipelines.Range(func(_ [32]byte, p *pipeline) bool {
		select {
		case <-p.done:
			if p.err == nil {
				names[p.pipe.ref] = p.name
			}
		default: // compiling: no launch recorded it
		}
		return true
	})
	return names
}

// submitPartLocked encodes part, whose bind groups are in bgs, into a
// fresh encoder and submits it, or returns the driver's error and submits
// nothing.
func (s *stream) submitPartLocked(op string, part []nativeLaunch, bgs []uintptr) error {
	d := s.d
	return d.submitOnce(op, func(enc nEncoder) error {
		typ, msg, failed := d.encodePass(enc, part, bgs)
		if failed {
			return &Error{Op: op, Type: typ, Message: msg}
		}
		s.submitted = true
		return nil
	})
}

// discardLocked drops the pending work without submitting it.
func (s *stream) discardLocked() {
	if s.pass != 0 {
		s.d.endPass(s.pass)
		s.pass = 0
	}
	if s.enc.ref != 0 {
		s.enc.release()
		s.enc = nEncoder{}
	}
	s.clearUsedLocked()
}

// clearUsedLocked forgets the batch: the bind groups it used and its
// records.
func (s *stream) clearUsedLocked() {
	s.dropUsedLocked()
	for _, r := range s.replays {
		r.g.pendingOn.CompareAndSwap(s, nil)
	}
	clear(s.replays)
	s.replays = s.replays[:0]
	s.native = s.native[:0]
	s.bgs = s.bgs[:0]
	s.launches, s.encoded, s.encErr = 0, 0, nil
}

// submitOnce records with a fresh encoder and submits it, unless recording
// or finishing failed. The command buffer is released right after its one
// submit. Called with d.life read-locked.
func (d *Device) submitOnce(op string, record func(nEncoder) error) error {
	enc, err := d.createCommandEncoder(op)
	if err != nil {
		return err
	}
	defer enc.release()
	rerr := record(enc)
	cmd, err := d.finish(op, enc)
	if rerr != nil {
		if cmd.ref != 0 {
			cmd.release()
		}
		return rerr
	}
	if err != nil {
		return err
	}
	d.submit(cmd)
	cmd.release()
	return nil
}
