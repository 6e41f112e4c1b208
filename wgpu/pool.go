package wgpu

// tempKey is what a recycled buffer is reused for: the same size and usage.
type tempKey struct {
	size  uint64
	usage BufferUsage
}

// tempEntry is a recycled buffer and the word the queue sets once the work
// submitted before its recycling is done.
type tempEntry struct {
	b       *Buffer
	done    statusWord
	waiting bool // done not yet seen set (and not yet freed)
}

// tempPool holds a device's recycled buffers. All fields are guarded by
// Device.poolMu.
type tempPool struct {
	free     map[tempKey][]tempEntry
	textures map[TextureDesc][]texEntry // recycled textures for TempTexture (texture_pool.go)
	held     uint64                     // bytes of the buffers in free
	n        int                        // buffers in free
	limit    uint64
	hits     int64
	misses   int64
	closed   bool
	waiting  int // entries in free with waiting set
}

// TempBuffer returns a buffer of size bytes and the given usage (0 means
// [BufferUsageDefault]) for transient use: one that [Buffer.Recycle] handed
// back, of exactly that size and usage, once the queue has finished all
// the work submitted before it was recycled, or else a new one from
// [Device.NewBuffer]. Its contents are undefined (those of its last use);
// [Buffer.Clear] zeroes it.
//
// Reuse is by exact size, not by a rounded size class: launches bind whole
// buffers, so a larger buffer would change what a kernel that reads
// arrayLength computes. A loop that makes the same transient buffers each
// step reuses them all after its first step ([Device.Stats] counts hits
// and misses).
//
// The rule that keeps reuse safe: Recycle submits the pending launches of
// every stream that binds the buffer and asks the queue to signal once all
// submitted work is done; TempBuffer hands the buffer out again only after
// that signal. A launch recorded before Recycle therefore never sees the
// next user's writes. TempBuffer never waits for the signal: until it
// comes it makes a new buffer instead.
func (d *Device) TempBuffer(size uint64, usage BufferUsage) (*Buffer, error) {
	if d == nil {
		return nil, nilDeviceError("TempBuffer")
	}
	const op = "TempBuffer"
	if usage == 0 {
		usage = BufferUsageDefault
	}
	key := tempKey{size, usage}
	for try := 0; ; try++ {
		b, waiting, err := d.takeTemp(op, key)
		if err != nil || b != nil {
			return b, err
		}
		if !waiting || try > 0 {
			break
		}
		if err := d.poll(op, false); err != nil { // let the queue report finished work
			return nil, err
		}
	}
	d.poolMu.Lock()
	d.temp.misses++
	d.poolMu.Unlock()
	return d.NewBuffer(size, usage)
}

// takeTemp takes a ready buffer for key from the pool; waiting reports
// whether one is there but not yet ready.
func (d *Device) takeTemp(op string, key tempKey) (b *Buffer, waiting bool, err error) {
	leave, err := d.enter(op)
	if err != nil {
		return nil, false, err
	}
	defer leave()
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	list := p.free[key]
	for i := 0; i < len(list); i++ {
		e := &list[i]
		if e.waiting {
			if e.done.load() == 0 {
				waiting = true
				continue
			}
			e.done.free()
			e.waiting = false
			p.waiting--
		}
		b = e.b
		list[i] = list[len(list)-1]
		list[len(list)-1] = tempEntry{}
		list = list[:len(list)-1]
		p.free[key] = list
		p.held -= key.size
		p.n--
		if b.released.Load() { // released while pooled: forget it
			b = nil
			i--
			continue
		}
		p.hits++
		b.recycled.Store(false)
		return b, false, nil
	}
	return nil, waiting, nil
}

// Recycle hands b back to its device's pool for [Device.TempBuffer] to
// reuse, once the work submitted so far is done; b must not be used after
// (uploads, read-backs and copies of b return an error until TempBuffer
// hands it out again; a launch binding it is the caller's bug, as a use
// after Release would be). Recycle first submits the pending launches of
// the streams that bind b. When the pool already holds its byte limit, b
// is released instead. Recycling a nil, released or recycled buffer, or
// one of a closed device, does nothing.
func (b *Buffer) Recycle() {
	if b == nil {
		return
	}
	d := b.d
	if !d.recycle(b) {
		b.Release()
	}
}

// recycle puts b in the pool. It reports false when the pool is full or
// closed and b must be released instead, and true when b was pooled or
// there was nothing to do (b released or already recycled, device closed).
func (d *Device) recycle(b *Buffer) (handled bool) {
	const op = "Recycle"
	leave, err := d.enter(op)
	if err != nil {
		return true
	}
	defer leave()
	if b.released.Load() || b.recycled.Swap(true) {
		return true
	}
	b.gen.Add(1)
	d.bufEpoch.Add(1) // every graph checks its buffers again
	b.flushUsers(op)  // errors belong to those streams' launches
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	if p.closed || p.held+b.size > p.limit {
		b.recycled.Store(false)
		return false
	}
	st := d.reuseSignal()
	key := tempKey{b.size, b.usage}
	p.free[key] = append(p.free[key], tempEntry{b: b, done: st, waiting: true})
	p.held += b.size
	p.n++
	p.waiting++
	return true
}

// closeTemp empties the pool (Close releases its buffers with the others)
// and frees or abandons the words of its entries. Called by Close with
// d.life write-locked, after its last poll.
func (d *Device) closeTemp() {
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	p := &d.temp
	p.closed = true
	for k, list := range p.free {
		for _, e := range list {
			if e.waiting {
				e.done.abandon()
			}
		}
		delete(p.free, k)
	}
	for k, list := range p.textures {
		for _, e := range list {
			if e.waiting {
				e.done.abandon()
			}
		}
		delete(p.textures, k)
	}
	p.held, p.n, p.waiting = 0, 0, 0
}
