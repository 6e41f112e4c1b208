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
// On a device without timestamp queries ([Device.HasTimestamps] false; in
// a browser, always) it returns an [*Error] of type [ErrorTypeUnsupported]
// and does not call fn:
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
func (d *Device) timeStart(op string, id gpu.StreamID) (qs queryHandle, resolve bufHandle, err error) {
	leave, err := d.enter(op)
	if err != nil {
		return qs, resolve, err
	}
	defer leave()
	if !d.hasTS {
		return qs, resolve, newError(op, ErrorTypeUnsupported, "device %q has no timestamp-query feature", d.info.Name)
	}
	qs, resolve, err = d.newTimestampQueries(op)
	if err != nil {
		return qs, resolve, err
	}
	s, err := d.lockStream(op, id)
	if err != nil {
		d.dropQueries(qs, resolve)
		return qs, resolve, err
	}
	defer s.mu.Unlock()
	if err := s.timestampLocked(op, qs, 0); err != nil {
		d.dropQueries(qs, resolve)
		return qs, resolve, err
	}
	return qs, resolve, nil
}

// timeEnd writes the second timestamp, resolves both, submits the stream
// and starts reading the result back.
func (d *Device) timeEnd(op string, id gpu.StreamID, qs queryHandle, resolve bufHandle) (pendingRead, error) {
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
		err = s.resolveQueriesLocked(op, qs, resolve)
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
func (d *Device) releaseQueries(qs queryHandle, resolve bufHandle) {
	leave, err := d.enter("TimeStream")
	if err != nil {
		return
	}
	defer leave()
	d.dropQueries(qs, resolve)
}
