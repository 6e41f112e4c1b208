//go:build cgo

package wgpu

// Stats counts a device's buffers and its two pools: the staging buffers
// that read-backs copy through and the recycled buffers of
// [Device.TempBuffer]. A loop whose every step creates no GPU buffer keeps
// BuffersCreated and StagingCreated still after its first step.
type Stats struct {
	// BuffersCreated counts the buffers NewBuffer created (and so
	// NewBufferFrom and TempBuffer's misses).
	BuffersCreated int64
	// StagingCreated counts the staging buffers read-backs created.
	StagingCreated int64
	// StagingHeld and StagingBytesHeld are the idle staging buffers kept.
	StagingHeld      int
	StagingBytesHeld uint64
	// TempHits and TempMisses count TempBuffer calls that reused a
	// recycled buffer and that made a new one.
	TempHits, TempMisses int64
	// TempHeld and TempBytesHeld are the recycled buffers kept;
	// TempWaiting of them wait for the queue to finish their last use.
	TempHeld      int
	TempBytesHeld uint64
	TempWaiting   int
}

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
