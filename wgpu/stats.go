//go:build cgo

package wgpu

// Stats returns the device's buffer counts. It is safe to call at any
// time, also after Close; the fields are read one pool at a time, not as
// one snapshot.
func (d *Device) Stats() Stats {
	s := Stats{BuffersCreated: d.buffersCreated.Load()}
	d.stageMu.Lock()
	s.StagingCreated = d.staging.created
	s.StagingBytesHeld = d.staging.held
	for _, l := range d.staging.free {
		s.StagingHeld += len(l)
	}
	d.stageMu.Unlock()
	d.poolMu.Lock()
	s.TempHits, s.TempMisses = d.temp.hits, d.temp.misses
	s.TempHeld, s.TempBytesHeld, s.TempWaiting = d.temp.n, d.temp.held, d.temp.waiting
	d.poolMu.Unlock()
	return s
}
