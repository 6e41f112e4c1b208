//go:build cgo

package wgpu

// queryHandle is a timestamp query set: wgpu-native's.
type queryHandle = nQuerySet

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

// resolveQueriesLocked resolves qs's two timestamps into resolve, in the
// stream's encoder.
func (s *stream) resolveQueriesLocked(op string, qs nQuerySet, resolve nBuffer) error {
	return s.d.resolveQuerySet(op, s.enc, qs, 0, 2, resolve, 0)
}

// dropQueries releases a TimeStream's query set and resolve buffer.
// Called inside d.enter.
func (d *Device) dropQueries(qs nQuerySet, resolve nBuffer) {
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
