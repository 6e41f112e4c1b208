package wgpu

import (
	"context"
	"math/bits"
)

// minStagingClass is the smallest staging buffer size class, log2 bytes.
const minStagingClass = 8

// stagingState is where a staging buffer is in its life.
type stagingState uint8

const (
	stagingIdle     stagingState = iota // in its class's free list, unmapped
	stagingInFlight                     // a read-back owns it
	stagingDraining                     // its read-back was cancelled; its map callback may not have run
	stagingGone                         // released; its word is freed, or left to its waiter
)

// staging is one MapRead|CopyDst buffer of a power-of-two size, reused by
// read-backs. Its fields other than state are written once.
type staging struct {
	buf   bufHandle
	class uint8   // log2 of size
	size  uint64  // 1 << class
	word  mapWord // owned by the staging buffer; freed once no callback can write it
	state stagingState
}

// stagingPool holds a device's staging buffers: the idle ones by size
// class, the ones whose cancelled read-back may still be mapping, and every
// one it made (for Close). All fields are guarded by Device.stageMu.
type stagingPool struct {
	free     [64][]*staging
	draining []*staging
	all      map[*staging]struct{}
	held     uint64 // bytes idle in free
	limit    uint64
	created  int64
	closed   bool
}

// stagingClass returns the size class of a read-back of size bytes.
func stagingClass(size uint64) uint8 {
	c := uint8(bits.Len64(size - 1))
	return max(c, minStagingClass)
}

// pendingRead is a read-back in flight: the staging buffer being mapped
// and how many bytes of it are wanted.
type pendingRead struct {
	stg  *staging
	size uint64
}

// getStaging returns an idle staging buffer of size's class, making one if
// none is idle. Called inside d.enter.
func (d *Device) getStaging(op string, size uint64) (*staging, error) {
	c := stagingClass(size)
	d.stageMu.Lock()
	d.reclaimDrainingLocked()
	p := &d.staging
	if n := len(p.free[c]); n > 0 {
		s := p.free[c][n-1]
		p.free[c][n-1] = nil
		p.free[c] = p.free[c][:n-1]
		p.held -= s.size
		s.state = stagingInFlight
		d.stageMu.Unlock()
		return s, nil
	}
	d.stageMu.Unlock()
	buf, err := d.newStagingHandle(op, 1<<c)
	if err != nil {
		return nil, err
	}
	s := &staging{buf: buf, class: c, size: 1 << c, word: newMapWord(), state: stagingInFlight}
	d.stageMu.Lock()
	p.all[s] = struct{}{}
	p.created++
	d.stageMu.Unlock()
	return s, nil
}

// putStagingLocked makes s, unmapped and with no callback pending, idle
// again, or releases it when the pool is full. Called inside d.enter with
// d.stageMu held.
func (d *Device) putStagingLocked(s *staging) {
	p := &d.staging
	if p.held+s.size > p.limit {
		d.dropStagingLocked(s)
		return
	}
	s.state = stagingIdle
	p.free[s.class] = append(p.free[s.class], s)
	p.held += s.size
}

// dropStagingLocked releases s, whose map callback has run or was never
// started. Called inside d.enter with d.stageMu held.
func (d *Device) dropStagingLocked(s *staging) {
	s.state = stagingGone
	delete(d.staging.all, s)
	d.dropBuffer(s.buf)
	s.word.free()
}

// reclaimDrainingLocked returns to the pool the staging buffers of
// cancelled read-backs whose map callback has run since. Called inside
// d.enter with d.stageMu held.
func (d *Device) reclaimDrainingLocked() {
	p := &d.staging
	if len(p.draining) == 0 {
		return
	}
	keep := p.draining[:0]
	for _, s := range p.draining {
		st := s.word.load()
		switch {
		case st == 0:
			keep = append(keep, s)
		case st-1 == mapStatusSuccess:
			d.unmapStaging(s)
			d.putStagingLocked(s)
		default:
			d.dropStagingLocked(s)
		}
	}
	clear(p.draining[len(keep):])
	p.draining = keep
}

// startRead copies size bytes of src into a pooled staging buffer, submits
// the copy and starts mapping the staging buffer. Called inside d.enter.
func (d *Device) startRead(op string, src bufHandle, size uint64) (pendingRead, error) {
	return d.startReadAt(op, src, 0, size)
}

// startReadAt is startRead of the size bytes of src at offset off.
func (d *Device) startReadAt(op string, src bufHandle, off, size uint64) (pendingRead, error) {
	s, err := d.getStaging(op, size)
	if err != nil {
		return pendingRead{}, err
	}
	started, err := d.readStart(op, src, off, s.buf, size, s.word)
	if err != nil || !started {
		return pendingRead{}, d.failedStart(op, s, started, err)
	}
	return pendingRead{stg: s, size: size}, nil
}

// failedStart puts back the staging buffer s of a read-back whose start
// failed (err) or did not start a map, and returns the error to report.
// Called inside d.enter.
func (d *Device) failedStart(op string, s *staging, started bool, err error) error {
	d.stageMu.Lock()
	if started && s.word.load() == 0 {
		// The map failed, yet its callback may still run: keep the
		// buffer until it has.
		s.state = stagingDraining
		d.staging.draining = append(d.staging.draining, s)
	} else if started {
		d.dropStagingLocked(s) // mapped or failed: nothing pending
	} else {
		d.putStagingLocked(s) // no map started: still unmapped
	}
	d.stageMu.Unlock()
	if err == nil {
		err = newError(op, ErrorTypeInternal, "read-back was not started")
	}
	return err
}

// finishRead waits for the mapping startRead began and returns a copy of
// the data. Called outside d.enter.
func (d *Device) finishRead(ctx context.Context, op string, rd pendingRead, size uint64) ([]byte, error) {
	out := make([]byte, size)
	if err := d.finishReadInto(ctx, op, rd, out); err != nil {
		return nil, err
	}
	return out, nil
}

// finishReadInto waits for the mapping startRead began and copies
// len(dst) bytes (at most the read's size) into dst. Called outside
// d.enter. The staging buffer goes back to the pool once unmapped; if ctx
// is done first, it waits in the pool's draining list until its map
// callback has run.
func (d *Device) finishReadInto(ctx context.Context, op string, rd pendingRead, dst []byte) error {
	s := rd.stg
	if err := d.waitStatus(ctx, op, s.word.status()); err != nil {
		d.abandonRead(s)
		return err
	}
	leave, err := d.enter(op)
	if err != nil {
		d.abandonRead(s)
		return err
	}
	defer leave()
	d.stageMu.Lock()
	defer d.stageMu.Unlock()
	if status := s.word.load() - 1; status != mapStatusSuccess {
		d.dropStagingLocked(s)
		return newError(op, ErrorTypeValidation, "mapping the staging buffer failed: %s", mapStatusName(status))
	}
	ok := d.readFinish(s, dst[:min(uint64(len(dst)), rd.size)])
	d.putStagingLocked(s)
	if !ok {
		return newError(op, ErrorTypeInternal, "the staging buffer's mapped range is unavailable")
	}
	return nil
}

// abandonRead gives up a read-back whose wait failed: its staging buffer
// waits in the draining list until its map callback runs. If Close has
// released it, its word is freed here when the callback has run, and
// otherwise left (a few bytes, only when a read races Close).
func (d *Device) abandonRead(s *staging) {
	d.stageMu.Lock()
	defer d.stageMu.Unlock()
	if d.staging.closed || s.state == stagingGone {
		if s.word.load() != 0 {
			s.word.free()
		}
		return
	}
	s.state = stagingDraining
	d.staging.draining = append(d.staging.draining, s)
}

// closeStaging releases every staging buffer. The words of idle ones are
// freed by the returned func, which Close calls after its last poll, and so
// are those of draining ones whose callback has run by then (one that has
// not is left: wgpu-native will not call back for a released device). A
// waiting read-back's word is its waiter's (see abandonRead). Called by
// Close with d.life write-locked.
func (d *Device) closeStaging() (freeWords func()) {
	d.stageMu.Lock()
	defer d.stageMu.Unlock()
	p := &d.staging
	p.closed = true
	var idle, draining []mapWord
	for s := range p.all {
		d.dropBuffer(s.buf)
		switch s.state {
		case stagingIdle:
			idle = append(idle, s.word)
		case stagingDraining:
			draining = append(draining, s.word)
		}
		s.state = stagingGone
	}
	clear(p.all)
	clear(p.free[:])
	p.draining = nil
	p.held = 0
	return func() {
		for _, w := range idle {
			w.free()
		}
		for _, w := range draining {
			if w.load() != 0 {
				w.free()
			}
		}
	}
}
