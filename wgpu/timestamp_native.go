//go:build cgo

package wgpu

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/streamgate/streamgate/gpu"
)

// TimeStream measures on the GPU the work fn records on stream: it writes a
// timestamp into the stream's encoder, calls fn (which launches on the
// stream, from the calling goroutine), writes a second timestamp, submits
// the stream and waits for the result. The duration covers the GPU time
// between the two timestamps, including any work the stream had pending
// before TimeStream ended its pass (flush or sync first to exclude it).
//
// On a device without timestamp queries ([Device.HasTimestamps] false) it
// returns an [*Error] of type [ErrorTypeUnsupported] and does not call fn:
// this package never creates a timestamp query set such a device would
// abort on. On a stream [Device.CloseStream] retired it returns an error
// matching [ErrStreamClosed] and does not call fn (one retired while fn
// runs: the error, after fn). An error from fn is returned after the
// measurement completes.
// If ctx is done before the result is read, TimeStream returns ctx.Err().
func (d *Device) TimeStream(ctx context.Context, id gpu.StreamID, fn func() error) (time.Duration, error) {
	const op = "TimeStream"
	qs, resolve, err := d.timeStart(op, id)
	if err != nil {
		return 0, err
	}
	defer d.releaseQueries(qs, resolve)

	fnErr := fn()

	rd, err := d.timeEnd(op, id, qs, resolve)
	if err != nil {
		return 0, err
	}
	data, err := d.finishRead(ctx, op, rd, 16)
	if err != nil {
		return 0, err
	}
	t0 := binary.LittleEndian.Uint64(data)
	t1 := binary.LittleEndian.Uint64(data[8:])
	period := d.opts.TimestampPeriod
	if period <= 0 {
		period = 1
	}
	var dur time.Duration
	if t1 > t0 {
		dur = time.Duration(float64(t1-t0) * period)
	}
	return dur, fnErr
}

// timeStart ends the stream's open pass and writes the first timestamp.
func (d *Device) timeStart(op string, id gpu.StreamID) (qs nQuerySet, resolve nBuffer, err error) {
	leave, err := d.enter(op)
	if err != nil {
		return nQuerySet{}, nBuffer{}, err
	}
	defer leave()
	if !d.hasTS {
		return nQuerySet{}, nBuffer{}, newError(op, ErrorTypeUnsupported, "device %q has no timestamp-query feature", d.info.Name)
	}
	qs, resolve, err = d.newTimestampQueries(op)
	if err != nil {
		return nQuerySet{}, nBuffer{}, err
	}
	s, err := d.lockStream(op, id)
	if err != nil {
		qs.release()
		resolve.release()
		return nQuerySet{}, nBuffer{}, err
	}
	defer s.mu.Unlock()
	if err := s.timestampLocked(op, qs, 0); err != nil {
		qs.release()
		resolve.release()
		return nQuerySet{}, nBuffer{}, err
	}
	return qs, resolve, nil
}

// timestampLocked encodes the stream's recorded launches and writes
// timestamp i of qs after them, between passes.
func (s *stream) timestampLocked(op string, qs nQuerySet, i uint32) error {
	if err := s.encodeLocked(op); err != nil {
		return err
	}
	if err := s.endPassLocked(op); err != nil { // a timestamp goes between passes
		return err
	}
	if err := s.openEncoderLocked(op); err != nil {
		return err
	}
	return s.d.writeTimestamp(op, s.enc, qs, i)
}

// timeEnd writes the second timestamp, resolves both, submits the stream
// and starts reading the result back.
func (d *Device) timeEnd(op string, id gpu.StreamID, qs nQuerySet, resolve nBuffer) (pendingRead, error) {
	leave, err := d.enter(op)
	if err != nil {
		return pendingRead{}, err
	}
	defer leave()
	s, err := d.lockStream(op, id)
	if err != nil {
		return pendingRead{}, err
	}
	defer s.mu.Unlock()
	err = s.timestampLocked(op, qs, 1)
	if err == nil {
		err = d.resolveQuerySet(op, s.enc, qs, 0, 2, resolve, 0)
	}
	if ferr := s.flushLocked(op); err == nil {
		err = ferr
	}
	if err != nil {
		return pendingRead{}, err
	}
	return d.startRead(op, resolve, 16)
}

// releaseQueries releases a TimeStream's query set and resolve buffer,
// unless Close already did.
func (d *Device) releaseQueries(qs nQuerySet, resolve nBuffer) {
	leave, err := d.enter("TimeStream")
	if err != nil {
		return
	}
	defer leave()
	qs.release()
	resolve.release()
}

// newTimestampQueries creates a two-entry timestamp query set and the
// buffer it resolves into. Called with d.life read-locked, only when d.hasTS.
func (d *Device) newTimestampQueries(op string) (nQuerySet, nBuffer, error) {
	if !d.hasTS { // the guard that keeps wgpu-native from aborting
		return nQuerySet{}, nBuffer{}, newError(op, ErrorTypeUnsupported, "no timestamp-query feature")
	}
	qs, err := d.createQuerySet(op, "streamgate-ts", 2)
	if err != nil {
		return nQuerySet{}, nBuffer{}, err
	}
	resolve, err := d.createBuffer(op, "", 16, BufferUsageQueryResolve|BufferUsageCopySrc)
	if err != nil {
		qs.release()
		return nQuerySet{}, nBuffer{}, err
	}
	return qs, resolve, nil
}
