package wgpu

// Stats returns the device's counts. It never blocks on a call in progress
// for longer than a map update or a pool's bookkeeping, and is safe to call
// at any time, also after Close (then the device holds nothing); the fields
// are not read at one instant, one lock at a time.
func (d *Device) Stats() Stats {
	if d == nil {
		return Stats{}
	}
	s := Stats{
		Compiles:         d.compiles.Load(),
		PipelinesCached:  d.pipelines.Size(),
		StreamsLive:      d.streams.Size(),
		UncapturedErrors: uncapturedErrors(),
		BuffersCreated:   d.buffersCreated.Load(),
		TexturesCreated:  d.texturesCreated.Load(),
	}
	s.CompileTime = d.compileTime()
	d.mu.Lock()
	s.BuffersLive = len(d.buffers)
	s.TexturesLive = len(d.textures)
	s.SamplersLive = len(d.samplers)
	d.mu.Unlock()
	d.bgMu.Lock()
	s.BindGroupsLive = len(d.bindGroups)
	d.bgMu.Unlock()
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
